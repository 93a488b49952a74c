"""Who chooses a seat's commands: the player-strategy interface and a turn driver.

A strategy looks at the projection and proposes one command at a time; the
rules decide the events. The real computer player lives in `ai`; the tests' simple one in
`squares_testing.greedy`.
"""

from __future__ import annotations

from typing import Protocol

from .commands import Command
from .events import Event
from .fold import apply_in_place
from .rules import decide
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
