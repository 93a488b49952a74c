"""The per-decision work budget of the computer player.

Every AI decision (a stage-1 plan, a stage-2 line, a hint) gets a `Budget`:

- ``left``: work units it may still spend, one unit per line drawn by a search
  or a random walk (plus one per random walk started). The figure is fixed per
  decision, so a decision is deterministic: the same position and seed always
  spend the same units and choose the same lines.
- ``deadline``: a CPU-time safety net (`time.thread_time`). Calibrated budgets
  finish well before it; it only bites on a machine far slower than the one
  they were calibrated on, and then the search keeps the best it has found.

A search that runs out returns the best found so far and says it is incomplete;
each caller documents how it degrades.
"""

from __future__ import annotations

import time

STAGE1_UNITS = 30_000  # ~60-90 ms of walks or search on the dev machine
STAGE2_UNITS = 24_000
SAFETY_SECONDS = 0.11  # per decision; two decisions make a turn (< 250 ms)


class Budget:
    __slots__ = ("left", "deadline", "spent")

    def __init__(self, units: int, seconds: float | None = None) -> None:
        self.left = units
        self.spent = 0
        self.deadline = time.thread_time() + (SAFETY_SECONDS if seconds is None else seconds)

    def spend(self, units: int) -> None:
        self.left -= units
        self.spent += units

    @property
    def out(self) -> bool:
        return self.left <= 0 or time.thread_time() > self.deadline

    def late(self) -> bool:
        return time.thread_time() > self.deadline


def unlimited() -> Budget:
    return Budget(1 << 60, 1e9)
