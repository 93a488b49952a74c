"""The computer player (RULES A1-A4): `strategy_for(level)` and `hint(state)`.

- `compact`: the AI's copy of the board (flat arrays) and per-size tables;
- `stage1`: A1's random walks and the expert's exhaustive path search;
- `stage2`: A3's extra line (safe line, else the least give-away; expert
  samples the stage-3 pieces);
- `player`: the `players.Strategy` that explains, plays and advances (A2).
"""

from .player import ComputerPlayer, hint, strategy_for

__all__ = ["ComputerPlayer", "hint", "strategy_for"]
