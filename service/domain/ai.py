"""The computer player (RULES A1-A4). Placeholder until the AI issue lands:
`strategy_for` returns the greedy strategy for every level."""

from __future__ import annotations

from .players import Greedy, Strategy
from .rules import Command
from .state import GameState


def strategy_for(level: str) -> Strategy:
    return Greedy()


def hint(state: GameState) -> Command:
    """The suggested next command for the seat to move."""
    return Greedy().next_command(state)
