"""The fold (RULES V2): a game's state is a pure fold of its events.

`fold(events)` builds a state from nothing; `apply(state, event)` returns a new
state one event later and leaves its argument untouched. Both go through
`apply_in_place`, the only code that turns events into state. The fold checks
that each event fits the state it lands on (empty slots, the squares a line
really forms) and raises `CorruptStream` otherwise, so a stream that does not
fold can be refused. `score_series` is the scores after each event (a replay's
chart).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import islice
from typing import Any

from .board import Geometry, geometry
from .events import (
    OWNERLESS,
    SEAT_LETTERS,
    Event,
    GameAbandoned,
    GameAborted,
    GameCreated,
    GameOver,
    GameResigned,
    HighScoresEntered,
    HintUsed,
    LinePlaced,
    MoveExplained,
    PieceInserted,
    Point,
    Seat,
    SeatClaimed,
    SeedRevealed,
    StageAdvanced,
)
from .random_lines import check_edition
from .seeds import commitment
from .state import SEAT1, SEAT2, SYSTEM, CorruptStream, GameState, TurnRecord

# The owner letters of the events (``squares``) as the board's byte codes.
OWNER_CODES = {"P": SEAT1, "C": SEAT2, OWNERLESS: SYSTEM}


def fold(events: Iterable[Event]) -> GameState:
    """The state after all `events` (the first must be `GameCreated`)."""
    iterator = iter(events)
    first = next(iterator, None)
    if not isinstance(first, GameCreated):
        raise CorruptStream("a stream must start with game_created")
    state = _initial_state(first)
    for event in iterator:
        apply_in_place(state, event)
    return state


def apply(state: GameState, event: Event) -> GameState:
    """A new state one event after `state`; `state` itself is not changed."""
    new = state.copy()
    apply_in_place(new, event)
    return new


def apply_all(state: GameState, events: Iterable[Event]) -> GameState:
    """A new state after `events`, starting from (a copy of) `state`."""
    new = state.copy()
    for event in events:
        apply_in_place(new, event)
    return new


def score_series(events: Iterable[Event]) -> list[tuple[int, int]]:
    """Both seats' scores after each event (the first: after `GameCreated`)."""
    iterator = iter(events)
    state = fold(islice(iterator, 1))
    series = [(state.scores[0], state.scores[1])]
    for event in iterator:
        apply_in_place(state, event)
        series.append((state.scores[0], state.scores[1]))
    return series


def moves_score(events: Iterable[Event], seat: int) -> bool:
    """Whether folding `events` changes `seat`'s score: only a line does, by the
    squares it gives the seat (`_own`) or by its penalty (RULES T2)."""
    letter = SEAT_LETTERS[seat]
    return any(isinstance(e, LinePlaced) and ((e.seat == seat and e.penalty > 0)
                                              or any(sq[2] == letter for sq in e.squares))
               for e in events)


def _invited_seat(created: GameCreated) -> int | None:
    """An online game's seat left open for the invited friend: the unnamed one (seat 2,
    or seat 1 in a rematch whose creator took seat 2); None in the other modes."""
    if created.mode != "online":
        return None
    return 1 if not created.seats[0].taken else 2


def _initial_state(created: GameCreated) -> GameState:
    g = geometry(created.height, created.width)
    lines, sides = _walls(g)
    state = GameState(
        game=created,
        seats=created.seats,
        open_seat=_invited_seat(created),
        geometry=g,
        lines=bytearray(lines),
        owners=bytearray(g.cells),
        sides=bytearray(sides),
        empty_slots=len(g.slots) - len(g.wall_slots),
        turn=created.first_seat,
        current_turn=TurnRecord(created.first_seat),
    )
    try:
        check_edition(created.rules_edition)
    except ValueError as exc:
        raise CorruptStream(str(exc)) from exc
    if created.first_seat not in SEAT_LETTERS:
        raise CorruptStream(f"no seat {created.first_seat} to move first")
    if created.seed is not None and commitment(created.seed) != created.seed_commitment:
        raise CorruptStream("the seed does not match its commitment")
    for x, y in created.initial_lines:
        _draw(state, _empty_slot(state, x, y), SYSTEM)
    # RULES I3: every box formed at the start is ownerless.
    for b in g.boxes:
        if state.sides[b] == 4:
            state.owners[b] = SYSTEM
            state.ownerless += 1
    return state


def apply_in_place(state: GameState, event: Event) -> None:
    """Apply `event` to `state` itself. Only for private scratch copies."""
    if state.over and not isinstance(event, HighScoresEntered | SeedRevealed):
        raise CorruptStream(f"{event.TYPE} after game_over")
    if state.resigned is not None and not state.over and not isinstance(event, GameOver):
        raise CorruptStream(f"{event.TYPE} after game_resigned, before its game_over")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise CorruptStream(f"unexpected event {event.TYPE} at version {state.version}")
    handler(state, event)
    state.version += 1


def _on_line_placed(state: GameState, e: LinePlaced) -> None:
    if e.seat != state.turn or e.stage != state.stage or e.stage == 3:
        raise CorruptStream(f"line by seat {e.seat} in stage {e.stage} out of turn")
    state.moved[e.seat - 1] = True
    formed = _draw(state, _empty_slot(state, e.x, e.y), e.seat)
    if sorted(formed) != sorted((x, y) for x, y, _ in e.squares):
        raise CorruptStream(f"line ({e.x}, {e.y}) forms {formed}, event says {e.squares}")
    regular: list[Point] = []
    for x, y, letter in e.squares:
        code = OWNER_CODES.get(letter)
        if code is None or (code != SYSTEM and letter != SEAT_LETTERS[e.seat]):
            raise CorruptStream(f"square ({x}, {y}) cannot belong to {letter!r}")
        _own(state, x, y, code)
        if code != SYSTEM:
            regular.append((x, y))
    if e.penalty:
        state.penalties[e.seat - 1] += 1
        state.scores[e.seat - 1] -= e.penalty
    if e.stage == 1:
        state.chain = tuple(regular) if regular else state.chain
    else:
        state.stage2_line_placed = True
    state.current_turn.lines.append((e.x, e.y))
    state.current_turn.squares.extend((x, y) for x, y, _ in e.squares)


def _on_stage_advanced(state: GameState, e: StageAdvanced) -> None:
    if e.seat != state.turn or e.stage != state.stage % 3 + 1:
        raise CorruptStream(f"stage {state.stage} cannot advance to {e.stage}")
    if state.stage == 3 and len(state.last_pieces) != len(state.piece_sizes):
        raise CorruptStream(f"the turn ends after {len(state.last_pieces)} of its random pieces")
    if e.reason == "player":  # an irregular square's advance is its line's
        state.moved[e.seat - 1] = True
    state.stage = e.stage
    if e.stage == 1:  # a new turn
        state.last_turn = state.current_turn
        state.current_turn = TurnRecord(e.turn)
        state.turn = e.turn
        state.round = e.round
        state.chain = None
        state.stage2_line_placed = False
    elif e.stage == 3:
        state.last_pieces = []


def _on_piece_inserted(state: GameState, e: PieceInserted) -> None:
    if state.stage != 3 or e.seat != state.turn:
        raise CorruptStream("random pieces are inserted only in stage 3")
    done = len(state.last_pieces)
    sizes = state.piece_sizes
    if done == len(sizes) or e.size != sizes[done]:
        raise CorruptStream(f"a {e.size}-line piece after {done} pieces (RULES T4: "
                            f"{', '.join(map(str, sizes))})")
    formed: list[Point] = []
    for x, y in e.lines:
        formed.extend(_draw(state, _empty_slot(state, x, y), SYSTEM))
    if sorted(formed) != sorted(e.squares):
        raise CorruptStream(f"piece forms {formed}, event says {e.squares}")
    for x, y in e.squares:
        _own(state, x, y, SYSTEM)
    state.last_pieces.append(e)
    state.current_turn.lines.extend(e.lines)
    state.current_turn.squares.extend(e.squares)


def _on_move_explained(state: GameState, e: MoveExplained) -> None:
    if e.seat != state.turn:
        raise CorruptStream("an explanation out of turn")
    state.explanations[e.seat] = e


def _on_seat_claimed(state: GameState, e: SeatClaimed) -> None:
    if state.open_seat != e.seat:
        raise CorruptStream(f"seat {e.seat} is not open to a claim")
    seats = list(state.seats)
    seats[e.seat - 1] = Seat(e.name, "human", player=e.player)
    state.seats = (seats[0], seats[1])
    state.open_seat = None


def _on_game_over(state: GameState, e: GameOver) -> None:
    if state.resigned is not None:
        if e.winner != 3 - state.resigned:
            raise CorruptStream(f"seat {state.resigned} resigned, yet seat {e.winner} "
                                "is not the winner")
    elif state.empty_slots:
        raise CorruptStream(f"game_over with {state.empty_slots} empty slots")
    if list(e.scores) != state.scores or list(e.squares) != state.squares:
        raise CorruptStream("game_over scores differ from the folded scores")
    state.over = True
    state.winner = e.winner


def _on_high_scores_entered(state: GameState, e: HighScoresEntered) -> None:
    if not state.over or state.high_scores_entered or state.no_result \
            or state.resigned is not None:
        raise CorruptStream("high scores are entered once, after the game_over of a "
                            "game played to its end")
    state.high_scores_entered = True


def _on_seed_revealed(state: GameState, e: SeedRevealed) -> None:
    if not state.over or state.public_seed is not None:
        raise CorruptStream("a secret seed is revealed once, when its game has ended")
    if commitment(e.seed) != state.game.seed_commitment:
        raise CorruptStream("the revealed seed does not match its commitment")
    state.revealed_seed = e.seed


def _on_hint_used(state: GameState, e: HintUsed) -> None:
    if state.assisted or e.seat != state.turn or state.open_seat is not None:
        raise CorruptStream("hint_used is written once, for the seat to move")
    if state.seat_info(e.seat).kind != "human":
        raise CorruptStream(f"seat {e.seat} is no human to be assisted")
    state.assisted = True
    state.hinted_at = state.version


def _on_game_abandoned(state: GameState, e: GameAbandoned) -> None:
    if e.reason == "invite_expired" and state.open_seat is None:
        raise CorruptStream("invite_expired in a game that waits for nobody")
    state.over = True
    state.abandoned = e.reason


def _on_game_resigned(state: GameState, e: GameResigned) -> None:
    if e.seat not in SEAT_LETTERS or state.open_seat is not None:
        raise CorruptStream(f"seat {e.seat} cannot resign: no game between two seats")
    if state.seat_info(e.seat).kind != "human":
        raise CorruptStream(f"seat {e.seat} is no human to resign")
    state.resigned = e.seat


def _on_game_aborted(state: GameState, e: GameAborted) -> None:
    if state.game.mode != "online" or e.seat not in SEAT_LETTERS or all(state.moved):
        raise CorruptStream("only an online game is aborted, before both seats moved")
    if e.seat == state.open_seat:
        raise CorruptStream(f"seat {e.seat} is open: nobody in it can abort")
    state.over = True
    state.aborted = e.seat


# Each handler takes the event class it is filed under (hence ``Any``: the key is the type).
_HANDLERS: dict[type[Event], Callable[[GameState, Any], None]] = {
    LinePlaced: _on_line_placed,
    StageAdvanced: _on_stage_advanced,
    PieceInserted: _on_piece_inserted,
    MoveExplained: _on_move_explained,
    SeatClaimed: _on_seat_claimed,
    GameOver: _on_game_over,
    HighScoresEntered: _on_high_scores_entered,
    GameAbandoned: _on_game_abandoned,
    SeedRevealed: _on_seed_revealed,
    HintUsed: _on_hint_used,
    GameResigned: _on_game_resigned,
    GameAborted: _on_game_aborted,
}


# Per field size: the ``lines`` and ``sides`` arrays with only the walls drawn (RULES I1).
_WALLS: dict[tuple[int, int], tuple[bytes, bytes]] = {}


def _walls(g: Geometry) -> tuple[bytes, bytes]:
    key = (g.height, g.width)
    if key not in _WALLS:
        lines, sides = bytearray(g.cells), bytearray(g.cells)
        for i in g.wall_slots:
            lines[i] = SYSTEM
            for b in g.boxes_of_slot[i]:
                sides[b] += 1
        _WALLS[key] = (bytes(lines), bytes(sides))
    return _WALLS[key]


def _empty_slot(state: GameState, x: int, y: int) -> int:
    """The index of the empty line slot (x, y), or `CorruptStream`."""
    g = state.geometry
    width = g.width
    if not (0 <= x < width and 0 <= y < g.height and (x + y) % 2 == 1):
        raise CorruptStream(f"({x}, {y}) is not a line slot")
    i = y * width + x
    if state.lines[i]:
        raise CorruptStream(f"slot ({x}, {y}) is drawn twice")
    return i


def _draw(state: GameState, i: int, who: int) -> list[Point]:
    """Draw slot `i`; return the boxes it formed (RULES F4)."""
    state.lines[i] = who
    state.empty_slots -= 1
    g = state.geometry
    sides = state.sides
    formed = []
    for b in g.boxes_of_slot[i]:
        sides[b] += 1
        if sides[b] == 4:
            formed.append((b % g.width, b // g.width))
    return formed


def _own(state: GameState, x: int, y: int, code: int) -> None:
    i = state.geometry.index(x, y)
    if state.owners[i]:
        raise CorruptStream(f"box ({x}, {y}) already has an owner")
    state.owners[i] = code
    if code == SYSTEM:
        state.ownerless += 1
    else:
        state.squares[code - 1] += 1
        state.scores[code - 1] += 1
