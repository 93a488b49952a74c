"""The rules engine: a turn's commands in, events out (RULES T, E, M).

`decide(state, command)` is pure: it reads a state, validates the command and
returns the events it causes, or raises `RuleViolation` with a stable code. The
commands are in `commands`, the start of a game in `start`; random outcomes are
drawn from `seeds.game_rng` and written into events.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import pieces
from .commands import (
    Abandon,
    Abort,
    Advance,
    ClaimSeat,
    Command,
    Explain,
    PlaceLine,
    Resign,
    RuleViolation,
    UseHint,
)
from .events import (
    OWNERLESS,
    SEAT_LETTERS,
    Event,
    GameAbandoned,
    GameAborted,
    GameOver,
    GameResigned,
    HighScoresEntered,
    HintUsed,
    LinePlaced,
    MoveExplained,
    PieceInserted,
    Point,
    SeatClaimed,
    SeedRevealed,
    StageAdvanced,
)
from .fold import apply_in_place
from .names import clean_name
from .ranking import high_score_entries
from .seeds import game_rng
from .state import EMPTY, GameState
from .texts import english

PENALTY = 5
# day_over: a daily challenge game still running when its date is over (`daily`)
ABANDON_REASONS = ("idle", "invite_expired", "day_over")


# -- deciding a turn (RULES T) -----------------------------------------------


class _Batch:
    """Events being decided, applied to a scratch copy so later checks see them."""

    def __init__(self, state: GameState) -> None:
        self.state = state.copy()
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        apply_in_place(self.state, event)


def abandoned_violation(reason: str) -> RuleViolation:
    return RuleViolation("game_abandoned",
                         english("this game was abandoned: nobody can move in it any more"),
                         reason=reason)


def check_playable(state: GameState) -> None:
    """Raise unless the game goes on: ``game_abandoned`` or ``game_over``."""
    if state.abandoned is not None:
        raise abandoned_violation(state.abandoned)
    if state.aborted is not None:
        raise RuleViolation("game_over", english("the game is over: it was aborted"))
    if state.over:
        raise RuleViolation("game_over", english("the game is over"))


def decide(state: GameState, command: Command) -> list[Event]:
    """The events `command` causes in `state`, or `RuleViolation`."""
    check_playable(state)
    if isinstance(command, Abandon):
        return _abandon(state, command)
    if isinstance(command, ClaimSeat):
        return _claim_seat(state, command)
    if isinstance(command, Abort):
        return _abort(state, command)
    if state.open_seat is not None:
        raise RuleViolation("waiting_for_opponent",
                            english("the game starts when the invited friend joins"))
    if isinstance(command, Resign):  # on either seat's turn
        return _resign(state, command)
    if command.seat != state.turn:
        raise RuleViolation(
            "not_your_turn",
            english("it is {name}'s turn", name=state.seat_info(state.turn).name),
            turn=state.turn,
        )
    if isinstance(command, UseHint):  # before the batch: a hint copies no state
        return _use_hint(state, command)
    batch = _Batch(state)
    if isinstance(command, PlaceLine):
        _place_line(batch, command)
    elif isinstance(command, Advance):
        _advance(batch, command)
    elif isinstance(command, Explain):
        _explain(batch, command)
    else:  # pragma: no cover - the type union is closed
        raise RuleViolation("unknown_command", english("unknown command {command!r}",
                                                             command=command))
    return batch.events


def _abandon(state: GameState, command: Abandon) -> list[Event]:
    """Retention: an unfinished game ends without a result (whether it is due is
    `retention.abandon_reason`'s rule, on the clock the stream does not carry)."""
    if command.reason not in ABANDON_REASONS:
        raise RuleViolation("invalid_reason", english("no abandonment reason {reason!r}",
                                                            reason=command.reason))
    if command.reason == "invite_expired" and state.open_seat is None:
        raise RuleViolation("not_waiting", english("this game waits for no invited friend"))
    return [GameAbandoned(command.reason), *_reveal(state)]


def _resign(state: GameState, command: Resign) -> list[Event]:
    """A human seat gives up: the other seat wins, whatever the scores, and the game
    ends as it stands, revealing its seed. No high score entry: a resigned game's
    scores are not a finished game's (`ranking.table_of`)."""
    seat = command.seat
    if seat not in SEAT_LETTERS:
        raise RuleViolation("unknown_command", english("no seat {seat}", seat=seat))
    if state.seat_info(seat).kind != "human":
        raise RuleViolation("not_a_human", english("only a human seat can resign"))
    scores, squares = state.scores, state.squares
    return [GameResigned(seat),
            GameOver((scores[0], scores[1]), (squares[0], squares[1]), state.ownerless,
                     3 - seat),
            *_reveal(state)]


def _abort(state: GameState, command: Abort) -> list[Event]:
    """An online game called off before both seats moved: no winner, no result, no
    table. Against the computer or on one screen there is nobody to agree with: a
    player resigns instead."""
    if state.game.mode != "online":
        raise RuleViolation("abort_online_only",
                            english("only an online game can be aborted: resign instead"))
    if command.seat not in SEAT_LETTERS or command.seat == state.open_seat:
        raise RuleViolation("unknown_command", english("seat {seat} cannot abort",
                                                             seat=command.seat))
    if not abortable(state):
        raise RuleViolation("abort_too_late",
                            english("both players have moved: the game can only be resigned now"))
    return [GameAborted(command.seat), *_reveal(state)]


def _reveal(state: GameState) -> list[Event]:
    """A game that ends reveals its secret seed (a ranked game's; a practice game's
    was public from the start). A daily challenge game (`daily`) does not: its seed
    is the whole date's, revealed once the date is over, never in a game's events
    (another player may still be playing it)."""
    if state.game.seed is not None or state.daily is not None:
        return []
    return [SeedRevealed(state.seed())]


def _use_hint(state: GameState, command: UseHint) -> list[Event]:
    """The first hint a human seat asks for makes the game assisted; later ones
    change nothing (no event)."""
    if state.seat_info(command.seat).kind != "human":
        raise RuleViolation("not_a_human", english("a hint is recorded for a human seat only"))
    return [] if state.assisted else [HintUsed(command.seat)]


def _claim_seat(state: GameState, command: ClaimSeat) -> list[Event]:
    if state.open_seat != command.seat:
        raise RuleViolation("seat_taken", english("seat {seat} is not open", seat=command.seat))
    if command.player is not None:  # the name is the player record's (`events.Seat`)
        return [SeatClaimed(command.seat, "", command.player)]
    return [SeatClaimed(command.seat, clean_name(command.name, "name"))]


def check_line(state: GameState, x: int, y: int) -> None:
    """Raise unless (x, y) is an empty line slot of this field (RULES F2, F4)."""
    g = state.geometry
    if not g.inside(x, y):
        raise RuleViolation(
            "out_of_field",
            english("({x}, {y}) is outside the {width} x {height} field", x=x, y=y,
                    width=g.width, height=g.height),
            x=x,
            y=y,
        )
    if (x + y) % 2 == 0:
        kind = "dot" if x % 2 == 0 else "box"
        raise RuleViolation("not_a_line_slot",
                            english("({x}, {y}) is a dot, not a line", x=x, y=y) if kind == "dot"
                            else english("({x}, {y}) is a box, not a line", x=x, y=y),
                            x=x, y=y)
    if state.lines[g.index(x, y)] != EMPTY:
        raise RuleViolation("slot_taken",
                            english("the line at ({x}, {y}) is already drawn", x=x, y=y),
                            x=x, y=y)


def _place_line(batch: _Batch, command: PlaceLine) -> None:
    state = batch.state
    check_line(state, command.x, command.y)
    if state.stage == 3:
        raise RuleViolation(
            "wrong_stage",
            english("stage 3 places random pieces; press advance to end the turn")
        )
    if state.stage == 2 and state.stage2_line_placed:
        raise RuleViolation(
            "stage2_line_done", english("stage 2 allows exactly one line; press advance")
        )
    formed = state.completing_boxes(command.x, command.y)
    seat = command.seat
    if state.stage == 2:  # RULES T3: ownerless, no penalty
        squares = tuple((x, y, OWNERLESS) for x, y in formed)
        batch.add(LinePlaced(seat, command.x, command.y, 2, squares, 0))
    else:
        if not formed:
            raise RuleViolation(
                "stage1_needs_square",
                english("in stage 1 every line must close a square"),
                x=command.x,
                y=command.y,
            )
        regular = regular_squares(state.chain, formed)
        letter = SEAT_LETTERS[seat]
        squares = tuple((x, y, letter if (x, y) in regular else OWNERLESS) for x, y in formed)
        penalty = 0 if regular else PENALTY
        batch.add(LinePlaced(seat, command.x, command.y, 1, squares, penalty))
        if penalty and batch.state.empty_slots:  # else the game is over
            batch.add(StageAdvanced(seat, 2, seat, state.round, "irregular_square"))
    _game_over_if_full(batch)


def regular_squares(chain: tuple[Point, ...] | None, formed: list[Point]) -> list[Point]:
    """RULES T2: which of the squares a stage-1 line forms are regular."""
    if chain is None:  # the first square(s) of this stage 1
        return list(formed)
    return [
        (x, y)
        for x, y in formed
        if any(abs(x - cx) + abs(y - cy) == 2 for cx, cy in chain)
    ]


def _advance(batch: _Batch, command: Advance) -> None:
    state = batch.state
    seat = command.seat
    if state.stage == 1:
        batch.add(StageAdvanced(seat, 2, seat, state.round, "player"))
    elif state.stage == 2:
        if not state.stage2_line_placed:
            raise RuleViolation("stage2_line_missing",
                                english("place one line before leaving stage 2"))
        batch.add(StageAdvanced(seat, 3, seat, state.round, "player"))
        _insert_pieces(batch, seat)
    else:
        next_seat = 2 if seat == 1 else 1
        # a round ends with the turn of the seat that moves second
        next_round = state.round + 1 if seat != state.game.first_seat else state.round
        batch.add(StageAdvanced(seat, 1, next_seat, next_round, "player"))


def _insert_pieces(batch: _Batch, seat: int) -> None:
    """RULES T4: a 3-line, a 2-line and a 1-line piece, in this order (on small
    fields without the largest ones: `random_lines`)."""
    draws = pieces.Draws(game_rng(batch.state.seed(), batch.state.rng_version, "pieces"))
    for size in batch.state.piece_sizes:
        state = batch.state
        shape, lines, tries = pieces.draw_piece(size, state.height, state.width, state.lines,
                                                draws)
        formed = _boxes_formed_by(state, lines)
        batch.add(PieceInserted(seat, size, shape, lines, tries, not lines, formed))
        if _game_over_if_full(batch):
            return


def _boxes_formed_by(state: GameState, lines: tuple[Point, ...]) -> tuple[Point, ...]:
    g = state.geometry
    w = g.width
    drawn = {g.index(x, y) for x, y in lines}
    formed = []
    for i in drawn:
        for b in g.boxes_of_slot[i]:
            missing = 4 - state.sides[b]
            if missing and missing == sum(1 for s in g.sides_of_box[b] if s in drawn):
                formed.append((b % w, b // w))
    return tuple(sorted(set(formed)))


def _explain(batch: _Batch, command: Explain) -> None:
    if batch.state.seat_info(command.seat).kind != "computer":
        raise RuleViolation("not_a_computer",
                            english("only a computer seat explains its moves"))
    batch.add(
        MoveExplained(
            seat=command.seat,
            stage=batch.state.stage,
            level=command.level,
            best_point=command.best_point,
            best_x=command.best_x,
            best_y=command.best_y,
            best_direction=tuple(command.best_direction),
            starts=command.starts,
            trials=command.trials,
            reason=command.reason,
        )
    )


def _game_over_if_full(batch: _Batch) -> bool:
    """RULES T5: the game ends the moment no empty slot remains."""
    state = batch.state
    if state.empty_slots:
        return False
    batch.add(game_over_event(state))
    for event in _reveal(state):
        batch.add(event)
    # A daily game's scores go to its date's ranking only (`services.daily`): its
    # players may play the date's game again for practice.
    entries = high_score_entries(state) if state.daily is None else ()
    if entries:
        batch.add(HighScoresEntered(entries))
    return True


def game_over_event(state: GameState) -> GameOver:
    """The final scores and the winner (seat, 0 for a draw) of a full board."""
    winner = 0
    if state.scores[0] != state.scores[1]:
        winner = 1 if state.scores[0] > state.scores[1] else 2
    scores, squares = state.scores, state.squares
    return GameOver((scores[0], scores[1]), (squares[0], squares[1]), state.ownerless, winner)


# -- what may happen now -----------------------------------------------------


@dataclass(frozen=True)
class LegalActions:
    seat: int | None
    lines: tuple[Point, ...]
    can_advance: bool


def legal_actions(state: GameState) -> LegalActions:
    """The moves `decide` accepts now (stage-1 lines may still cost a penalty)."""
    if state.over or state.open_seat is not None:
        return LegalActions(None, (), False)
    if state.stage == 3:
        return LegalActions(state.turn, (), True)
    if state.stage == 1:
        return LegalActions(state.turn, _squaring_lines(state), True)
    if state.stage2_line_placed:
        return LegalActions(state.turn, (), True)
    return LegalActions(state.turn, tuple(state.empty_slot_points()), False)


def abortable(state: GameState) -> bool:
    """Whether a seat of this game may abort it now (`Abort`): an online game that
    goes on, before both seats have moved."""
    return state.game.mode == "online" and not state.over and not all(state.moved)


def _squaring_lines(state: GameState) -> tuple[Point, ...]:
    """The empty slots that form a box (the missing side of a three-sided box), in
    slot order, as `empty_slot_points` lists them."""
    g = state.geometry
    sides, lines, w = state.sides, state.lines, g.width
    found = {s for b in g.boxes if sides[b] == 3 for s in g.sides_of_box[b] if not lines[s]}
    return tuple((s % w, s // w) for s in sorted(found))
