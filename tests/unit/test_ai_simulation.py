"""The AI simulates stage 1 on compact arrays (RULES A4); here every simulated
path is replayed through `decide` and `apply_all` and must score exactly what
the simulation says, and the exhaustive search must match an oracle that only
uses the rules engine."""

from __future__ import annotations

import random

from service.domain.ai.budget import Stats
from service.domain.ai.compact import Board, chain_of, starts
from service.domain.ai.stage1 import exhaustive
from service.domain.ai.stage2 import least_give_away
from service.domain.ai.walks import walk
from service.domain.commands import PlaceLine
from service.domain.fold import apply_all
from service.domain.rules import decide

from .ai_support import game_positions, oracle_best_chain, random_open_position


def replay(state, slots):
    """Play `slots` as stage-1 lines of the seat to move; the points they score."""
    seat = state.turn
    before = state.scores[seat - 1]
    w = state.width
    for s in slots:
        assert state.stage == 1 and state.turn == seat and not state.over
        events = decide(state, PlaceLine(seat, s % w, s // w))
        assert not events[0].penalty
        state = apply_all(state, events)
    return state.scores[seat - 1] - before, state


def test_random_walks_score_what_the_rules_score():
    rng = random.Random(8)
    checked = 0
    for state in game_positions(range(6), size=(11, 15)):
        board, chain = Board.of(state), chain_of(state)
        for start in starts(board, chain):
            path, _ = walk(board, start, chain, rng)
            points, after = replay(state, path.slots)
            assert points == path.points
            # RULES A1: the walk stops only when no neighbour of the box it last
            # aimed at can be formed (another box of the chain may still have one).
            last = start
            for d in path.directions:
                last = next(nb for dd, nb in board.t.nbrs[last] if dd == d)
            assert after.over or not any(
                after.sides[nb] == 3 for _, nb in board.t.nbrs[last])
            checked += 1
    assert checked > 100


def test_exhaustive_search_matches_the_rules_oracle():
    rng = random.Random(9)
    for _ in range(40):
        state, _ = random_open_position(rng, open_count=rng.randint(8, 14))
        found = exhaustive(Board.of(state), chain_of(state), Stats())
        assert found.complete
        assert found.best.points == oracle_best_chain(state)
        points, _ = replay(state, found.best.slots)
        assert points == found.best.points


def test_mid_stage_searches_respect_the_chain():
    """From a state in the middle of a stage 1 (chain set), the search only
    continues the chain, and the rules agree with its figures."""
    rng = random.Random(10)
    checked = 0
    for state in game_positions(range(4), size=(11, 15)):
        board, chain = Board.of(state), chain_of(state)
        first = exhaustive(board, chain, Stats()).best
        if len(first.slots) < 2:
            continue
        _, middle = replay(state, first.slots[:1])
        rest = exhaustive(Board.of(middle), chain_of(middle), Stats()).best
        points, _ = replay(middle, rest.slots)
        assert points == rest.points == oracle_best_chain(middle)
        path, _ = walk(Board.of(middle), starts(Board.of(middle), chain_of(middle))[0],
                       chain_of(middle), rng)
        assert replay(middle, path.slots)[0] == path.points
        checked += 1
    assert checked >= 5


def test_stage2_give_away_shortcut_matches_searching_every_line_afresh():
    """`least_give_away` re-searches only the starts a line touches; a full
    search after every line must find the same least give-away and lines."""
    checked = 0
    for state in game_positions(range(10), size=(11, 15)):
        board = Board.of(state)
        if not board.three_sided():
            continue
        fast, _, complete = least_give_away(board, Stats())
        assert complete
        slow = []
        for s in board.empty_slots():
            board.draw(s)
            slow.append((exhaustive(board, None, Stats(), budget=10**6).best.points, s))
            board.undo(s)
        least = min(slow)[0]
        assert min(fast)[0] == least
        assert [s for g, s in fast if g == least] == [s for g, s in slow if g == least]
        assert all(f <= g for (f, _), (g, _) in zip(fast, slow, strict=True))
        checked += 1
    assert checked >= 20
