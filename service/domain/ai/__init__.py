"""The computer player (RULES A1-A4): `strategy_for(level)` and `hint(state)`.

- `compact`: the AI's copy of the board (flat arrays) and per-size tables;
- `budget`: the work budget of one decision (units of lines drawn, fixed per
  decision so play is deterministic; a CPU time limit only as a logged and
  counted last resort);
- `stage1`: the expert's exhaustive path search and `walks`, A1's random walks,
  both stepping only from the box the previous step named (amended A1); `points`,
  the exhaustive search counting points only;
- `stage2`: A3's extra line (safe line, else the least give-away; expert
  prefers lines that lengthen no chain of two-sided boxes and samples the
  stage-3 pieces, `sampling`, with the rules' own generator, `pieces.draw_piece`);
- `player`: the `players.Strategy` that explains, plays and advances (A2).
(The crafted worst positions of the budget's benchmark and tests are in
`squares_testing.worst`.)

Budget: every decision (a stage-1 plan, a stage-2 line, a hint) gets
`budget.STAGE1_UNITS` or `budget.STAGE2_UNITS` units. Random walks stop
after the units are spent (every start is walked once before any start gets its
other n - 1 walks) and keep the best walk found; the expert's exhaustive search
stops at its share and falls back to hard's walks for the rest; the stage-2
give-away search judges the remaining lines roughly (see `stage2`). Calibrated
so that no decision takes more than ~110 ms of CPU on the dev machine, on any
allowed field (`benchmarks/ai.py` prints the figures).
"""

from .player import HINT_LEVEL, ComputerPlayer, hint, strategy_for

__all__ = ["HINT_LEVEL", "ComputerPlayer", "hint", "strategy_for"]
