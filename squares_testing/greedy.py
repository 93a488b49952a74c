"""A simple strategy for the tests and benchmarks: the first square it sees, and no
box given away when it can help it."""

from __future__ import annotations

from service.domain.commands import Advance, Command, PlaceLine
from service.domain.rules import legal_actions, regular_squares
from service.domain.state import GameState


class Greedy:
    """Stage 1: the first line that forms a regular square; stage 2: the first
    line that leaves no box with three sides (else the first empty line)."""

    def next_command(self, state: GameState) -> Command:
        seat = state.turn
        legal = legal_actions(state)
        if state.stage == 1:
            for x, y in legal.lines:
                if regular_squares(state.chain, state.completing_boxes(x, y)):
                    return PlaceLine(seat, x, y)
            return Advance(seat)
        if state.stage == 2 and legal.lines:
            for x, y in legal.lines:
                if not gives_square(state, x, y):
                    return PlaceLine(seat, x, y)
            return PlaceLine(seat, *legal.lines[0])
        return Advance(seat)


def gives_square(state: GameState, x: int, y: int) -> bool:
    """Would drawing (x, y) leave a box with exactly three sides drawn?"""
    g = state.geometry
    return any(state.sides[b] == 2 for b in g.boxes_of_slot[g.index(x, y)])
