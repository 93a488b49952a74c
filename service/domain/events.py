"""Immutable events: one dataclass per fact (RULES V1).

Every event has a stable ``TYPE`` name and a schema ``VERSION``. ``to_dict`` gives
a JSON-safe dict ``{"type", "v", "data"}`` and ``from_data`` builds an event of its
``data``; reading a dict from storage or from outside, older versions upcast
(`upcasters`), is the codec's (`event_codec`). Events carry no clock times: the same
seed and the same commands give byte-identical events.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from .random_lines import RULES_EDITION

Point = tuple[int, int]
OwnedSquare = tuple[int, int, str]  # x, y, owner letter (P, C or :)

SEAT_LETTERS = {1: "P", 2: "C"}
OWNERLESS = ":"


class EventFormatError(ValueError):
    """A dict that is not a known, well-formed event."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat's player. A human seat of a game since ``game_created`` v4 points to a
    player record (``player``) that holds its name, so that forgetting the player
    needs no change to an event: its ``name`` is then empty. An online game's seat
    nobody has claimed yet has neither."""

    name: str
    kind: str  # "human" | "computer"
    level: str | None = None  # AI level for computers
    player: int | None = None  # the player record holding a human seat's name

    @property
    def taken(self) -> bool:
        """Whether someone sits here (a name, a player record, or the computer)."""
        return bool(self.name) or self.player is not None or self.kind == "computer"


@dataclass(frozen=True, slots=True)
class Event:
    TYPE: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1

    def to_dict(self) -> dict[str, Any]:
        """``{"type", "v", "data"}``; ``data`` is ``dataclasses.asdict`` made JSON-safe
        (tuples become lists), built directly: `plain` gives the same dicts."""
        return {"type": self.TYPE, "v": self.VERSION, "data": plain(self)}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Event:
        return cls(**{f.name: _tuplify(data[f.name]) for f in dataclasses.fields(cls)})


@dataclass(frozen=True, slots=True)
class GameCreated(Event):
    """A new game (`start`). Version 2 commits to the seed (`seeds`): a ranked game's
    seed is secret until ``seed_revealed``; a practice game's (``ranked`` false) is
    public here from the start, like every seed of version 1. Version 3 names the
    rules edition the game is played by (`random_lines`). Version 4 seats humans by
    player record (`Seat.player`) and says whether an online game is rated."""

    TYPE: ClassVar[str] = "game_created"
    VERSION: ClassVar[int] = 4
    seed: str | None  # None: a ranked game, its seed secret until the game ends
    seed_commitment: str  # SHA-256 hex of the seed's text
    ranked: bool  # False: a practice game (a chosen seed), never in the high scores
    first_seat: int  # who moves first (an online game's is drawn from the seed)
    hints: bool  # whether the seat to move may ask for a hint
    height: int
    width: int
    mode: str  # vs_computer | two_players | online | computer_vs_computer
    difficulty: str  # the computer's level; "none" when no computer plays
    seats: tuple[Seat, Seat]
    initial_lines: tuple[Point, ...]  # the random inner lines (walls are implied)
    rules_edition: int = RULES_EDITION  # how many random lines (`random_lines`)
    rated: bool = False  # an online game between signed-in players that moves ratings

    @property
    def before_commitments(self) -> bool:
        """Whether this game was created before seed commitments (version 1, upcast):
        ranked, yet its seed public from the start. Such a game was played by the
        rules of then: its creator's seat moved first in every mode (`start`)."""
        return self.ranked and self.seed is not None

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Event:
        seats = tuple(Seat(**s) for s in data["seats"])
        rest = {k: _tuplify(v) for k, v in data.items() if k != "seats"}
        # `seats` may hold any count here: that it holds two is the strict parse's check
        # (`event_from_dict(strict=True)`)
        return cls(seats=seats, **rest)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class LinePlaced(Event):
    TYPE: ClassVar[str] = "line_placed"
    VERSION: ClassVar[int] = 2
    seat: int
    x: int
    y: int
    stage: int
    squares: tuple[OwnedSquare, ...]  # boxes this line formed, with their owners
    # RULES T2: the points this line cost (5 for a stage-1 line that formed only
    # irregular squares, else 0). Version 1 stored a boolean here.
    penalty: int


@dataclass(frozen=True, slots=True)
class StageAdvanced(Event):
    TYPE: ClassVar[str] = "stage_advanced"
    seat: int  # whose stage ended
    stage: int  # the stage now
    turn: int  # the seat to act now
    round: int  # the round now
    reason: str  # "player" | "irregular_square"


@dataclass(frozen=True, slots=True)
class PieceInserted(Event):
    TYPE: ClassVar[str] = "piece_inserted"
    seat: int  # whose stage 3 it is
    size: int  # 3, 2 or 1 lines
    shape: tuple[Point, ...]  # the piece shifted to the upper-left of its 5x5 box
    lines: tuple[Point, ...]  # where it landed on the field; empty when skipped
    tries: int
    skipped: bool
    squares: tuple[Point, ...]  # boxes it formed (all ownerless, RULES T4)


@dataclass(frozen=True, slots=True)
class MoveExplained(Event):
    """RULES A2: why the computer chose its moves; part of the replayable history."""

    TYPE: ClassVar[str] = "move_explained"
    seat: int
    stage: int
    level: str
    best_point: int
    best_x: int | None
    best_y: int | None
    best_direction: tuple[int, ...]
    starts: int
    trials: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatClaimed(Event):
    """An online game's invited seat taken by a friend, under this name. The claim
    code and the seat's token never enter the stream. Version 2 may point to the
    friend's player record instead (``player``; ``name`` empty), as `Seat` does."""

    TYPE: ClassVar[str] = "seat_claimed"
    VERSION: ClassVar[int] = 2
    seat: int
    name: str
    player: int | None = None


@dataclass(frozen=True, slots=True)
class HintUsed(Event):
    """The first hint a human seat asked for: from here on the game is *assisted*
    (`ranking`: it enters no high score table). Written once a game; later hints
    write nothing. It changes nothing a move depends on (`GameState.current_for`)."""

    TYPE: ClassVar[str] = "hint_used"
    seat: int  # the seat to move, who asked


@dataclass(frozen=True, slots=True)
class SeedRevealed(Event):
    """A ranked game's secret seed, revealed when the game ends (game over, resigned,
    abandoned or aborted): anyone can check it against ``seed_commitment`` and re-derive every
    random outcome of the game."""

    TYPE: ClassVar[str] = "seed_revealed"
    seed: str


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    TYPE: ClassVar[str] = "game_over"
    scores: tuple[int, int]
    squares: tuple[int, int]
    ownerless: int
    winner: int  # seat number, 0 for a draw


@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    """An unfinished game that ends without a result (`retention`): nobody touched it
    for the retention time (``idle``), or nobody claimed an online game's invitation
    before it expired (``invite_expired``). No move follows and no score enters the
    table. When it happened is the event's recorded time (events carry no clock)."""

    TYPE: ClassVar[str] = "game_abandoned"
    reason: str  # "idle" | "invite_expired" | "day_over" (a daily game past its date)


@dataclass(frozen=True, slots=True)
class GameResigned(Event):
    """A human seat gave the game up (`rules`): ``game_over`` follows at once, the
    other seat the winner, with the scores as they stood. A resigned game enters no
    high score table (`ranking`): its scores are not a finished game's."""

    TYPE: ClassVar[str] = "game_resigned"
    seat: int  # who resigned


@dataclass(frozen=True, slots=True)
class GameAborted(Event):
    """An online game called off by one of its players before both seats moved: it
    ends with no winner and no result, like an abandoned game, and enters no table."""

    TYPE: ClassVar[str] = "game_aborted"
    seat: int  # whose token aborted it


@dataclass(frozen=True, slots=True)
class HighScoreEntry:
    seat: int
    name: str  # empty when the seat has a player record (version 2)
    score: int
    difficulty: str
    player: int | None = None  # the seat's player record (`Seat.player`)


@dataclass(frozen=True, slots=True)
class HighScoresEntered(Event):
    """RULES E1/M2: the human final scores that enter the high score table."""

    TYPE: ClassVar[str] = "high_scores_entered"
    VERSION: ClassVar[int] = 2  # entries may point to player records
    entries: tuple[HighScoreEntry, ...]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Event:
        return cls(entries=tuple(HighScoreEntry(**e) for e in data["entries"]))


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameCreated,
        LinePlaced,
        StageAdvanced,
        PieceInserted,
        MoveExplained,
        SeatClaimed,
        GameOver,
        HighScoresEntered,
        GameAbandoned,
        SeedRevealed,
        HintUsed,
        GameResigned,
        GameAborted,
    )
}


_SCALARS = frozenset((int, str, bool, float, type(None)))


def _field_names_of(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


# The memo below is declared as a function of a class: mypy would take an event
# class for unhashable when checking the cache's argument (python/mypy#20409).
field_names: Callable[[type], tuple[str, ...]] = cache(_field_names_of)


def plain(value: Any) -> Any:
    """What ``dataclasses.asdict`` gives for an event, with tuples as lists (JSON-safe),
    built without its deep copies. Events hold scalars, tuples and dataclasses only."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    return {name: plain(getattr(value, name)) for name in field_names(kind)}


def _tuplify(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuplify(v) for v in value)
    return value
