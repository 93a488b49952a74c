"""The per-decision work budget of the computer player.

Every AI decision (a stage-1 plan, a stage-2 line, a hint) gets a `Budget` of work
units: one unit per line drawn by a search or a random walk (plus one per random walk
started, and the bookkeeping the searches charge). The units alone bound the work,
so a decision is a pure function of the position and the seed: the same position
always spends the same units and chooses the same lines, on any machine, under any
load (tests/unit/test_ai_determinism.py plays beside a CPU hog).

A CPU-time limit (`LAST_RESORT_SECONDS`, `time.thread_time`) stays only as the last
resort against a bug or a machine many times slower than this one: calibrated budgets
use a small fraction of it. A decision that reaches it keeps the best it has found
(so it may differ from the same decision elsewhere); that is logged as a warning and
counted (`time_limits_reached`, and each callback in `ON_TIME_LIMIT`, e.g. the
service's Prometheus counter).

A search that runs out of units returns the best found so far and says it is
incomplete; each caller documents how it degrades.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

STAGE1_UNITS = 30_000  # ~60-90 ms of walks or search on the dev machine
STAGE2_UNITS = 24_000
LAST_RESORT_SECONDS = 1.0  # per decision: about ten times what the units take
CLOCK_EVERY = 16  # `Budget.out` reads the clock once in so many times

# Called (without arguments) once per decision that reached the time limit.
ON_TIME_LIMIT: list[Callable[[], None]] = []

_log = logging.getLogger("squares.ai")
_lock = threading.Lock()
_reached = 0


def time_limits_reached() -> int:
    """Decisions in this process that reached `LAST_RESORT_SECONDS`."""
    return _reached


class Budget:
    __slots__ = ("left", "deadline", "spent", "timed_out", "asked")

    def __init__(self, units: int, seconds: float | None = None) -> None:
        self.left = units
        self.spent = 0
        self.timed_out = False
        self.asked = 0
        self.deadline = time.thread_time() + (
            LAST_RESORT_SECONDS if seconds is None else seconds)

    def spend(self, units: int) -> None:
        self.left -= units
        self.spent += units

    @property
    def out(self) -> bool:
        """Whether the units are spent or the time limit is reached. Asked before every
        random walk and every line judged, it reads the clock (which costs more than a
        short walk) the first time and every `CLOCK_EVERY` times after: the limit is
        a last resort, and until it is reached the answer is the same."""
        if self.left <= 0 or self.timed_out:
            return True
        self.asked += 1
        return self.asked % CLOCK_EVERY == 1 and self.late()

    def late(self) -> bool:
        """Whether the last-resort time limit is reached (reported once)."""
        if not self.timed_out and time.thread_time() > self.deadline:
            self.timed_out = True
            _time_limit_reached(self)
        return self.timed_out


def _time_limit_reached(budget: Budget) -> None:
    global _reached
    with _lock:
        _reached += 1
    _log.warning("AI decision reached its %.2f s CPU time limit after %d work units; "
                 "it keeps the best found so far", LAST_RESORT_SECONDS, budget.spent)
    for callback in ON_TIME_LIMIT:
        callback()


def unlimited() -> Budget:
    return Budget(1 << 60, 1e9)


@dataclass
class Stats:
    """Work counters (the benchmark prints them)."""

    walks: int = 0  # random walks actually simulated
    nodes: int = 0  # lines drawn by the exhaustive search
    leaves: int = 0  # complete paths the exhaustive search reached
