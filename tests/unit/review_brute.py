"""The independent brute force the review tests hold the review's searches to.

It knows nothing of `service.domain.review` or `service.domain.ai`: it plays every
empty slot as a stage-1 line through the rules engine itself (`decide` +
`apply_all`), so what the rules refuse (``stage1_needs_square``) is no move, and a
line whose events carry a penalty (only irregular squares, RULES T2: -5 and the
stage ends) is never better than stopping. Stopping is always allowed (RULES T1).
With it: lines replayed through the rules engine, a fresh stage 1 on a position's
board, what each stage-2 line gives, and `check_best`, which holds `best_stage1` to
the brute force.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from service.domain.ai.compact import Board, chain_of
from service.domain.commands import PlaceLine, RuleViolation
from service.domain.events import LinePlaced, Point
from service.domain.fold import apply_all
from service.domain.review.search import best_stage1
from service.domain.rules import decide
from service.domain.state import GameState

from .helpers import position

Memo = dict[tuple[bytes, tuple[Point, ...] | None], tuple[int, tuple[Point, ...]]]


def brute_best(state: GameState) -> tuple[int, tuple[Point, ...]]:
    """The most the seat to move can still gain in this stage 1, and one way to,
    trying every empty slot through the rules engine."""
    assert state.stage == 1 and not state.over
    seat = state.turn
    memo: Memo = {}

    def go(st: GameState) -> tuple[int, tuple[Point, ...]]:
        key = (bytes(st.lines), st.chain)  # every line drawn here is the same seat's
        known = memo.get(key)
        if known is not None:
            return known
        best: tuple[int, tuple[Point, ...]] = (0, ())  # stopping: advance
        for x, y in st.empty_slot_points():
            try:
                events = decide(st, PlaceLine(seat, x, y))
            except RuleViolation as refused:
                assert refused.code == "stage1_needs_square"
                continue
            if any(isinstance(e, LinePlaced) and e.penalty for e in events):
                continue  # only irregular squares: -5 and stage 1 ends, worse than stopping
            after = apply_all(st, events)
            gained = after.scores[seat - 1] - st.scores[seat - 1]
            assert gained >= 1
            rest = go(after) if after.stage == 1 and not after.over else (0, ())
            if gained + rest[0] > best[0]:
                best = (gained + rest[0], ((x, y), *rest[1]))
        memo[key] = best
        return best

    return go(state)


def replay(state: GameState, lines: Iterable[Point]) -> tuple[int, GameState]:
    """Play `lines` as the seat's stage-1 lines; each must be accepted without a
    penalty. The score they gain and the state after them."""
    seat = state.turn
    before = state.scores[seat - 1]
    for x, y in lines:
        assert state.stage == 1 and state.turn == seat and not state.over
        events = decide(state, PlaceLine(seat, x, y))  # raises if refused
        assert isinstance(events[0], LinePlaced) and events[0].penalty == 0
        state = apply_all(state, events)
    return state.scores[seat - 1] - before, state


def points_of(state: GameState, slots: Sequence[int]) -> list[Point]:
    return [(s % state.width, s // state.width) for s in slots]


def inner_drawn(state: GameState) -> list[Point]:
    g = state.geometry
    return [g.xy(i) for i in g.inner_slots if state.lines[i]]


def fresh(state: GameState, extra: Iterable[Point] = ()) -> GameState:
    """A new game whose initial lines are `state`'s lines plus `extra`: seat 1 to
    move in a fresh stage 1 on that board."""
    drawn = inner_drawn(state) + list(extra)
    return position(drawn=drawn, size=(state.height, state.width))[0]


def snapshot(board: Board) -> tuple[bytes, bytes]:
    return bytes(board.lines), bytes(board.sides)


def check_best(state: GameState) -> int:
    """`best_stage1` from `state` (its chain included) agrees with the brute force,
    plays legally for exactly its points and leaves the board alone; its points."""
    expected, _ = brute_best(state)
    board = Board.of(state)
    before = snapshot(board)
    found = best_stage1(board, chain_of(state))
    assert snapshot(board) == before
    assert found.exact
    assert found.points == expected
    gained, _ = replay(state, points_of(state, found.lines))
    assert gained == found.points
    return expected


def gives_per_slot(state: GameState) -> dict[Point, int]:
    """For every empty slot: the opponent's best fresh stage 1 once it is drawn."""
    return {p: brute_best(fresh(state, [p]))[0] for p in state.empty_slot_points()}
