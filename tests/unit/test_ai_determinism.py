"""Play never depends on the machine (issue 25): the same position and seed give the
same move, also on a loaded machine with a CPU hog running beside it. The budgets are
work units; the CPU time limit is only a last resort, logged and counted."""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections.abc import Iterator

import pytest

from service.domain.ai import budget, hint, strategy_for
from service.domain.commands import NewGame
from service.domain.fold import apply_all
from service.domain.players import play_turn
from service.domain.start import LEVELS, start_state
from service.domain.state import GameState
from squares_testing import worst

GAME_TURNS = 6  # turns of each real game whose positions are decided


def _positions() -> list[GameState]:
    """Crafted worst positions and the turns of two real 19 x 33 games."""
    found = [worst.position(kind, 19, 33) for kind in worst.KINDS]
    for seed, levels in ((11, ("hard", "expert")), (12, ("expert", "moderate"))):
        state = start_state(NewGame(seed=seed, player_name="Ada", mode="computer_vs_computer",
                                    difficulty=levels[0], second_level=levels[1]))
        for _ in range(GAME_TURNS):
            if state.over:
                break
            found.append(state)
            level = state.seat_info(state.turn).level or "easy"
            state = apply_all(state, play_turn(state, strategy_for(level)))
    return found


def _decisions(positions: list[GameState]) -> list[object]:
    """Every level's stage-1 plan and stage-2 line, and the hint, at each position."""
    made: list[object] = []
    for state in positions:
        made.append(hint(state))
        for level in LEVELS:
            player = strategy_for(level)
            made.append(player.stage1(state).best)
            made.append(player.stage2(state).slot)
    return made


def _hog(stop_at: float) -> None:  # pragma: no cover - runs in another process
    x = 0
    while time.monotonic() < stop_at:
        x = (x * 31 + 7) % 1_000_003


@pytest.fixture
def cpu_hogs() -> Iterator[None]:
    """A busy process per core (and one more), for as long as the test runs."""
    context = multiprocessing.get_context("spawn")
    hogs = [context.Process(target=_hog, args=(time.monotonic() + 120,), daemon=True)
            for _ in range((multiprocessing.cpu_count() or 1) + 1)]
    for hog in hogs:
        hog.start()
    try:
        yield
    finally:
        for hog in hogs:
            hog.terminate()
            hog.join(5)


@pytest.fixture(scope="module")
def quiet_decisions() -> tuple[list[GameState], list[object]]:
    positions = _positions()
    return positions, _decisions(positions)


@pytest.mark.serial  # it keeps every core busy: not beside other tests
def test_the_same_positions_give_the_same_moves_beside_a_cpu_hog(quiet_decisions, cpu_hogs):
    positions, quiet = quiet_decisions
    reached = budget.time_limits_reached()
    assert _decisions(positions) == quiet
    assert budget.time_limits_reached() == reached  # the units bound every decision


def test_a_decision_that_reaches_the_time_limit_is_logged_and_counted(monkeypatch, caplog):
    calls: list[None] = []
    monkeypatch.setattr(budget, "LAST_RESORT_SECONDS", 0.0)
    monkeypatch.setattr(budget, "ON_TIME_LIMIT", [lambda: calls.append(None)])
    reached = budget.time_limits_reached()
    state = worst.position("three_sided", 19, 33)
    with caplog.at_level(logging.WARNING, logger="squares.ai"):
        plan = strategy_for("expert").stage1(state)
    assert plan.best.slots  # it still plays the best it found
    assert budget.time_limits_reached() > reached and calls
    assert any("time limit" in r.getMessage() for r in caplog.records)
