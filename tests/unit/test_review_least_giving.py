"""The review's least-giving stage-2 line (`review.least.least_giving`) against the
independent brute force of `review_brute`, which draws every empty slot and takes
the opponent's best fresh stage 1 after it: the least found is the least there is,
the played line is kept when nothing is better, and out of nodes the answer is an
upper bound that a real line gives."""

from __future__ import annotations

import random

from service.domain.ai.compact import Board
from service.domain.events import Point
from service.domain.review.least import least_giving
from service.domain.review.search import Best
from service.domain.state import GameState

from .review_brute import brute_best, fresh, gives_per_slot, snapshot
from .review_positions import dense, double_start, fork, game_starts, snake


def given(state: GameState, played: Point) -> Best:
    """What the line `played` gives, as `least_giving` takes it: the brute force's
    value after it and its sequence (slot indices)."""
    value, lines = brute_best(fresh(state, [played]))
    return Best(value, tuple(state.geometry.index(x, y) for x, y in lines), True, 0)


def least_positions() -> list[GameState]:
    starts = [s for size in ((7, 7), (7, 9)) for seed in range(3)
              for s in game_starts(size, seed, "easy")]
    rng = random.Random(11)
    extra = [dense(rng, (7, 7), rng.uniform(0.55, 0.8)) for _ in range(12)]
    extra += [dense(rng, (7, 9), rng.uniform(0.6, 0.8)) for _ in range(6)]
    return starts[::2] + extra + [snake(), fork(), double_start()]


def test_least_giving_matches_brute_force() -> None:
    rng = random.Random(3)
    nonzero = 0
    for state in least_positions():
        gives = gives_per_slot(state)
        if not gives:
            continue
        played = rng.choice(sorted(gives))
        g = state.geometry
        board = Board.of(state)
        before = snapshot(board)
        least = least_giving(board, g.index(*played), given(state, played))
        assert snapshot(board) == before
        assert least.exact
        assert least.points == min(gives.values())
        assert gives[g.xy(least.slot)] == least.points
        assert least.points <= gives[played]
        nonzero += least.points > 0
    assert nonzero >= 3  # some positions where every line gives something


def test_least_giving_keeps_the_played_line_when_nothing_is_better() -> None:
    state = snake()
    gives = gives_per_slot(state)
    played = min(gives, key=lambda p: (gives[p], p))
    least = least_giving(Board.of(state), state.geometry.index(*played),
                         given(state, played))
    assert least.points == gives[played] == min(gives.values())
    assert least.slot == state.geometry.index(*played) and least.exact


def test_least_giving_out_of_nodes_is_an_upper_bound_of_a_real_line() -> None:
    checked = 0
    for state in least_positions():
        gives = gives_per_slot(state)
        if not gives or min(gives.values()) == 0:
            continue
        played = max(gives, key=lambda p: (gives[p], p))
        board = Board.of(state)
        before = snapshot(board)
        index = state.geometry.index(*played)
        full = least_giving(board, index, given(state, played))
        assert full.exact
        for nodes in (1, 2, 5, max(1, full.nodes // 2)):
            if nodes >= full.nodes:
                continue
            short = least_giving(board, index, given(state, played), nodes=nodes)
            assert snapshot(board) == before
            assert not short.exact and short.nodes <= nodes
            assert full.points <= short.points <= gives[played]
            assert gives[state.geometry.xy(short.slot)] == short.points
            checked += 1
    assert checked >= 5
