"""Crafted games that make a review work hardest (issue 37).

In a `two_players` game nobody has to take a square: a seat may advance at once in
every stage 1. Such a game lasts as long as a game can (only stage-2 lines and the
random pieces fill the board), and leaves ever more boxes with three sides, so the
review's searches (the best stage 1 and the least-giving stage-2 line of every
turn) are as large as they get. The stage-2 line is chosen by `how`:

- ``threes``: the first empty line that leaves a box with three sides (else the first);
- ``safe``: the first line that leaves none (else the first), as a careful player;
- ``first``: the first empty line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.domain.commands import Advance, Command, NewGame, PlaceLine
from service.domain.rules import legal_actions
from squares_testing.greedy import gives_square

from .play import play_out

if TYPE_CHECKING:
    from service.domain.events import Event
    from service.domain.state import GameState

HOW = ("threes", "safe", "first")


class NobodyTakes:
    """Never a stage-1 line; the stage-2 line by `how` (see the module)."""

    def __init__(self, how: str = "threes") -> None:
        if how not in HOW:
            raise ValueError(f"how: one of {', '.join(HOW)}")
        self.how = how

    def next_command(self, state: GameState) -> Command:
        seat = state.turn
        if state.stage != 2 or state.stage2_line_placed:
            return Advance(seat)
        lines = legal_actions(state).lines
        wanted = {"threes": True, "safe": False}.get(self.how)
        if wanted is not None:
            for x, y in lines:
                if gives_square(state, x, y) is wanted:
                    return PlaceLine(seat, x, y)
        return PlaceLine(seat, *lines[0])


def nobody_takes(height: int, width: int, how: str = "threes", seed: int = 7) -> list[Event]:
    """The events of a ranked two-players game of that size in which nobody ever
    takes a square."""
    command = NewGame(seed=seed, player_name="Ada", second_name="Bea", mode="two_players",
                      height=height, width=width, ranked=True)
    return play_out(command, NobodyTakes(how))[0]
