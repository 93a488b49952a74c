"""Shared helpers of the AI tests: an independent oracle that searches with the
rules engine itself (`decide` + `apply_all`, no AI code), seeded positions, and
stage-1 play by a strategy."""

from __future__ import annotations

import random
from collections.abc import Iterable

from service.domain.ai import strategy_for
from service.domain.board import geometry
from service.domain.commands import NewGame, PlaceLine
from service.domain.events import Point
from service.domain.fold import apply_all
from service.domain.rules import decide, legal_actions, regular_squares
from service.domain.state import GameState
from squares_testing.play import turn_starts

from .helpers import position


def oracle_best_chain(state: GameState) -> int:
    """The most the seat to move can score from here in this stage 1, by trying
    every sequence of lines through `decide`."""
    seat = state.turn
    best = 0
    for x, y in legal_actions(state).lines:
        if not regular_squares(state.chain, state.completing_boxes(x, y)):
            continue  # a penalty line: never part of a best path
        after = apply_all(state, decide(state, PlaceLine(seat, x, y)))
        gained = after.scores[seat - 1] - state.scores[seat - 1]
        if not after.over and after.stage == 1:
            gained += oracle_best_chain(after)
        best = max(best, gained)
    return best


def random_open_position(
    rng: random.Random, size: tuple[int, int] = (9, 9), open_count: int = 10, **kwargs: object
) -> tuple[GameState, list[Point]]:
    """A hand-built position: every inner slot drawn but `open_count` random ones."""
    g = geometry(*size)
    open_slots = sorted(g.xy(i) for i in rng.sample(g.inner_slots, open_count))
    state, _ = position(open_slots, size=size, **kwargs)
    return state, open_slots


def game_positions(
    seeds: Iterable[int], size: tuple[int, int] = (9, 13), level: str = "easy"
) -> list[GameState]:
    """The state at the start of every turn (a computer stage 1) of seeded
    computer-vs-computer games."""
    return [state for seed in seeds
            for state in turn_starts(NewGame(seed=seed, player_name="t", difficulty=level,
                                             mode="computer_vs_computer", height=size[0],
                                             width=size[1]), strategy_for(level))]


def play_stage1(state: GameState, level: str) -> tuple[GameState, list]:
    """Let `level` play the current seat's stage 1; the state after it and its events."""
    strategy = strategy_for(level)
    seat = state.turn
    events: list = []
    while not state.over and state.turn == seat and state.stage == 1:
        decided = decide(state, strategy.next_command(state))
        events += decided
        state = apply_all(state, decided)
    return state, events
