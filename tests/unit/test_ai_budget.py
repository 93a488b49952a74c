"""The per-decision budget (issue 16): on crafted worst positions every level's
decisions stay within their work units and still play legal, sensible moves.
Timings are the benchmark's business (`benchmarks/ai.py`); here the units."""

from __future__ import annotations

import pytest

from service.domain.ai import budget, strategy_for
from service.domain.ai.budget import Budget, Stats
from service.domain.ai.compact import Board, chain_of
from service.domain.ai.stage1 import exhaustive
from service.domain.ai.stage2 import choose, least_give_away
from service.domain.ai.walks import random_search
from service.domain.commands import Advance, PlaceLine
from service.domain.fold import apply_all
from service.domain.rules import decide
from service.domain.start import game_rng
from squares_testing import worst

# One walk or one exhaustive call may run past the last unit: by at most this.
OVERSHOOT = 4_000

CASES = [(kind, 19, 33) for kind in worst.KINDS] + [("dominoes", 41, 81), ("corridors", 41, 81)]


@pytest.fixture(autouse=True)
def no_deadline(monkeypatch):
    """The CPU limit is a last resort; the units alone must bound the work."""
    monkeypatch.setattr(budget, "LAST_RESORT_SECONDS", 1e9)


@pytest.mark.parametrize("kind,height,width", CASES)
def test_each_search_spends_at_most_its_units(kind, height, width):
    state = worst.position(kind, height, width)
    board, chain = Board.of(state), chain_of(state)
    before = bytes(board.lines), bytes(board.sides)

    clock = Budget(budget.STAGE1_UNITS)
    walks = random_search(board, chain, 500, game_rng(1, 1, "t"), Stats(), clock)
    assert clock.spent <= budget.STAGE1_UNITS + OVERSHOOT
    assert walks.best.points >= 1

    clock = Budget(budget.STAGE1_UNITS)
    found = exhaustive(board, chain, Stats(), clock.left, clock=clock)
    assert clock.spent <= budget.STAGE1_UNITS + len(board.t.boxes) // 8  # + its fixed cost
    assert found.best.points >= 1

    clock = Budget(budget.STAGE2_UNITS)
    ranked, _, _ = least_give_away(board, Stats(), clock)
    assert clock.spent <= budget.STAGE2_UNITS + OVERSHOOT
    assert len(ranked) == len(board.empty_slots())

    clock = Budget(budget.STAGE2_UNITS)
    extra = choose(board, game_rng(1, 1, "u"), Stats(), sample=True, clock=clock)
    assert clock.spent <= budget.STAGE2_UNITS + 2 * OVERSHOOT
    assert not board.lines[extra.slot]
    assert (bytes(board.lines), bytes(board.sides)) == before  # searches undo their lines


@pytest.mark.parametrize("kind,height,width", CASES[:3] + CASES[-1:])
def test_every_level_plays_a_whole_turn_on_worst_positions(kind, height, width):
    """Every level, on a crafted position: the planned lines are legal (the rules
    accept them), none costs a penalty, and the plan is the same when asked again
    (the budget is counted in units, not read from a clock)."""
    state = worst.position(kind, height, width)
    for level in ("easy", "hard", "expert"):
        plan = strategy_for(level).stage1(state)
        again = strategy_for(level).stage1(state)
        assert plan.best == again.best
        after = state
        for s in plan.best.slots:
            events = decide(after, PlaceLine(after.turn, s % width, s // width))
            assert not events[0].penalty
            after = apply_all(after, events)
        after = apply_all(after, decide(after, Advance(after.turn)))
        if after.stage == 2:
            extra = strategy_for(level).stage2(after)
            assert extra == strategy_for(level).stage2(after)
            apply_all(after, decide(after, PlaceLine(after.turn, extra.slot % width,
                                                     extra.slot // width)))
