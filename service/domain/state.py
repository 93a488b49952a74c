"""A game's state (RULES V2): the board, the scores and the turn, as the fold of its
events makes them (`fold`), and the ways to read it.

The board lives in flat ``bytearray``s indexed by ``y * W + x`` (see `board`):
``lines`` says who drew each slot, ``owners`` who owns each formed box and
``sides`` how many sides of each box are drawn. Those byte codes (`EMPTY`,
`SEAT1`, `SEAT2`, `SYSTEM`) are the domain's own: readers outside it ask the
state in letters (`drawn_lines`, `owned_boxes`, `line_by`, `box_owner`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from .board import Geometry
from .events import (
    OWNERLESS,
    GameCreated,
    MoveExplained,
    PieceInserted,
    Point,
    Seat,
)
from .random_lines import piece_sizes
from .seeds import SeedUnknown, commitment

# Who drew a line (``lines``) / who owns a box (``owners``).
EMPTY = 0
SEAT1 = 1
SEAT2 = 2
SYSTEM = 3  # walls, initial random lines, stage-3 pieces; ownerless boxes

OWNER_LETTERS = {SEAT1: "P", SEAT2: "C", SYSTEM: OWNERLESS}
# Who drew a line, as readers see it: a seat's letter, R the system's (RULES T7's green).
LINE_LETTERS = {SEAT1: "P", SEAT2: "C", SYSTEM: "R"}


class CorruptStream(ValueError):
    """Events that cannot be folded: out of order, or contradicting the board."""


@dataclass
class TurnRecord:
    """The lines and squares of one turn, for highlighting (RULES T7)."""

    seat: int
    lines: list[Point] = field(default_factory=list)
    squares: list[Point] = field(default_factory=list)

    def copy(self) -> TurnRecord:
        return TurnRecord(self.seat, list(self.lines), list(self.squares))


@dataclass
class GameState:
    game: GameCreated
    # The players now: game.seats, with an online game's invited seat named once
    # it is claimed (`open_seat` is that seat until then).
    seats: tuple[Seat, Seat]
    open_seat: int | None
    geometry: Geometry = field(repr=False)
    lines: bytearray = field(repr=False)
    owners: bytearray = field(repr=False)
    sides: bytearray = field(repr=False)
    empty_slots: int
    version: int = 1
    round: int = 1
    turn: int = SEAT1
    stage: int = 1
    scores: list[int] = field(default_factory=lambda: [0, 0])
    squares: list[int] = field(default_factory=lambda: [0, 0])
    penalties: list[int] = field(default_factory=lambda: [0, 0])
    ownerless: int = 0
    # RULES T2: the regular squares of the previous stage-1 line; None before the first.
    chain: tuple[Point, ...] | None = None
    stage2_line_placed: bool = False
    current_turn: TurnRecord = field(default_factory=lambda: TurnRecord(SEAT1))
    last_turn: TurnRecord | None = None
    last_pieces: list[PieceInserted] = field(default_factory=list)
    explanations: dict[int, MoveExplained] = field(default_factory=dict)
    # The game has ended: a full board or a resignation (game_over, `winner` set),
    # abandoned (game_abandoned: `abandoned` is its reason) or aborted (game_aborted:
    # `aborted` is the seat that called it off); those two leave `winner` None.
    over: bool = False
    winner: int | None = None
    high_scores_entered: bool = False
    abandoned: str | None = None
    resigned: int | None = None  # the seat that resigned (game_resigned)
    aborted: int | None = None
    # Which seats have made a move (a line or an advance): an online game may be
    # aborted only before both have (`rules`).
    moved: list[bool] = field(default_factory=lambda: [False, False])
    # A human seat asked for a hint (``hint_used``): no high score table (`ranking`);
    # `hinted_at` is the version it was asked at (the event is the next one).
    assisted: bool = False
    hinted_at: int | None = None
    # A ranked game's seed once ``seed_revealed`` says it (public, like game.seed).
    revealed_seed: str | None = None
    # The server's secret seed of a ranked game (`know_secret_seed`): no event holds
    # it while the game runs, so no reader may show it.
    secret_seed: str | None = field(default=None, repr=False, compare=False)
    # The date of a daily challenge game (`daily`), as its server knows it (no event
    # says it): its seed stays secret when it ends (revealed for the whole date once
    # the date is over), its scores enter no high score table.
    daily: date | None = field(default=None, compare=False)

    # -- the seed --------------------------------------------------------------
    @property
    def public_seed(self) -> str | None:
        """The seed as anyone may know it: a practice game's, or a revealed one."""
        return self.game.seed if self.game.seed is not None else self.revealed_seed

    def know_secret_seed(self, seed: str) -> None:
        """Give this (private) state its ranked game's secret seed, which must be the
        one the first event commits to (`CorruptStream` otherwise)."""
        if commitment(seed) != self.game.seed_commitment:
            raise CorruptStream("the secret seed does not match the game's commitment")
        self.secret_seed = seed

    def seed(self) -> str:
        """The seed random decisions draw from; `SeedUnknown` when only the
        commitment is known."""
        seed = self.public_seed if self.public_seed is not None else self.secret_seed
        if seed is None:
            raise SeedUnknown("this game's seed is secret until it ends")
        return seed

    @property
    def rng_version(self) -> int:
        """The stream position random draws are seeded with (`seeds.game_rng`): the
        version, not counting the game's ``hint_used``, which draws nothing. So a hint
        changes no random outcome: the same seed and the same moves give the same
        pieces and the same computer moves, hint or not."""
        return self.version - (self.hinted_at is not None)

    def current_for(self, version: int) -> bool:
        """Whether a move chosen at `version` was chosen on this position: `version`
        is this state's, or the one just before the game's ``hint_used`` when that is
        the last event. A hint changes nothing a move depends on (board, turn, stage,
        scores), so a client that asked one keeps the version it read."""
        return version == self.version or (
            self.hinted_at == version and self.version == version + 1)

    @property
    def no_result(self) -> bool:
        """Whether the game ended without a result: abandoned or aborted."""
        return self.abandoned is not None or self.aborted is not None

    # -- reading the board -------------------------------------------------
    @property
    def height(self) -> int:
        return self.geometry.height

    @property
    def width(self) -> int:
        return self.geometry.width

    @property
    def piece_sizes(self) -> tuple[int, ...]:
        """The pieces each stage 3 of this game inserts (RULES T4, `random_lines`)."""
        return piece_sizes(self.geometry, self.game.rules_edition)

    def seat_info(self, seat: int) -> Seat:
        return self.seats[seat - 1]

    def line_at(self, x: int, y: int) -> int:
        return self.lines[y * self.geometry.width + x]

    def owner_at(self, x: int, y: int) -> int:
        return self.owners[y * self.geometry.width + x]

    def line_by(self, x: int, y: int) -> str | None:
        """Who drew the line at (x, y): a seat's letter, ``R`` for the system (walls,
        initial and random lines); None while it is not drawn."""
        return LINE_LETTERS.get(self.lines[y * self.geometry.width + x])

    def box_owner(self, x: int, y: int) -> str | None:
        """Who owns the box at (x, y): a seat's letter, ``:`` when it is ownerless;
        None while it is not formed."""
        return OWNER_LETTERS.get(self.owners[y * self.geometry.width + x])

    def drawn_lines(self) -> list[tuple[int, int, str]]:
        """Every drawn line as (x, y, `line_by`), row by row."""
        drawn = self.lines
        return [(x, y, LINE_LETTERS[drawn[i]]) for i, x, y in self.geometry.slot_points
                if drawn[i]]

    def owned_boxes(self) -> list[tuple[int, int, str]]:
        """Every formed box as (x, y, `box_owner`), row by row."""
        owners = self.owners
        return [(x, y, OWNER_LETTERS[owners[i]]) for i, x, y in self.geometry.box_points
                if owners[i]]

    def completing_boxes(self, x: int, y: int) -> list[Point]:
        """Boxes that drawing the empty slot (x, y) would form."""
        g = self.geometry
        w = g.width
        return [
            (b % w, b // w) for b in g.boxes_of_slot[y * w + x] if self.sides[b] == 3
        ]

    def empty_slot_points(self) -> list[Point]:
        w = self.geometry.width
        return [(i % w, i // w) for i in self.geometry.slots if not self.lines[i]]

    def copy(self) -> GameState:
        return GameState(
            game=self.game,
            seats=self.seats,
            open_seat=self.open_seat,
            geometry=self.geometry,
            lines=bytearray(self.lines),
            owners=bytearray(self.owners),
            sides=bytearray(self.sides),
            empty_slots=self.empty_slots,
            version=self.version,
            round=self.round,
            turn=self.turn,
            stage=self.stage,
            scores=list(self.scores),
            squares=list(self.squares),
            penalties=list(self.penalties),
            ownerless=self.ownerless,
            chain=self.chain,
            stage2_line_placed=self.stage2_line_placed,
            current_turn=self.current_turn.copy(),
            last_turn=self.last_turn.copy() if self.last_turn else None,
            last_pieces=list(self.last_pieces),
            explanations=dict(self.explanations),
            over=self.over,
            winner=self.winner,
            high_scores_entered=self.high_scores_entered,
            abandoned=self.abandoned,
            resigned=self.resigned,
            aborted=self.aborted,
            moved=list(self.moved),
            assisted=self.assisted,
            hinted_at=self.hinted_at,
            revealed_seed=self.revealed_seed,
            secret_seed=self.secret_seed,
            daily=self.daily,
        )
