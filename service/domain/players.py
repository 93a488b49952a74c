"""Who chooses a seat's commands: the player-strategy interface and a turn driver.

A strategy looks at the projection and proposes one command at a time; the
rules decide the events. The real computer player lives in `ai`; `Greedy` is a
simple strategy for tests and as a fallback.
"""

from __future__ import annotations

from typing import Protocol

from .commands import Advance, Command, PlaceLine
from .events import Event
from .fold import apply_in_place
from .rules import decide, legal_actions, regular_squares
from .state import GameState


class Strategy(Protocol):
    def next_command(self, state: GameState) -> Command:
        """The next command for the seat whose turn it is in `state`."""
        ...


def play_turn(state: GameState, strategy: Strategy) -> list[Event]:
    """All events of the current seat's turn, played by `strategy` to its end."""
    seat = state.turn
    scratch = state.copy()
    events: list[Event] = []
    while not scratch.over and scratch.turn == seat:
        decided = decide(scratch, strategy.next_command(scratch))
        for event in decided:
            apply_in_place(scratch, event)
        events.extend(decided)
    return events


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
