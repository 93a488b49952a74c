"""The searches of one review, and how they share its budget (`budget`).

`run_all` gives each search an even share of what is left, in order; then, while
units are left (at most `ROUNDS` times), it runs again the searches that ran out,
each with an even share of what is left among them, as long as that share is more
than it had. A search that ran to its end is never run again: an exact answer does
not depend on its units.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..ai.compact import Board
from .budget import ReviewBudget
from .least import Least, least_giving
from .report import Stage2Review
from .search import Best, best_stage1

ROUNDS = 4


class Search(Protocol):
    cap: int  # the most units this search may ever spend
    tried: int  # the units of its last run (0: not run yet)

    @property
    def exact(self) -> bool:
        """Whether its last run reached the end (then it is never run again)."""
        ...

    def run(self, units: int) -> int:
        """Search within `units`; the units spent. Sets ``exact``."""
        ...


def run_all(searches: Sequence[Search], budget: ReviewBudget) -> None:
    for i, search in enumerate(searches):
        _run(search, budget.share(search.cap, len(searches) - i), budget)
    pending = [s for s in searches if not s.exact]
    for _ in range(ROUNDS):
        if not pending or budget.left <= 0:
            break
        again = []
        for i, search in enumerate(pending):
            units = budget.share(search.cap, len(pending) - i)
            if units > search.tried:
                _run(search, units, budget)
                if not search.exact:
                    again.append(search)
        if len(again) == len(pending):  # nobody got further: no share grows any more
            break
        pending = again


def _run(search: Search, units: int, budget: ReviewBudget) -> None:
    search.tried = units
    budget.spend(search.run(units))


class Stage1Search:
    """The best stage 1 from a turn's start (`search.best_stage1`)."""

    def __init__(self, board: Board, cap: int) -> None:
        self.board = board
        self.cap = cap
        self.tried = 0
        self.best = Best(0, (), False, 0)

    @property
    def exact(self) -> bool:
        return self.best.exact

    def run(self, units: int) -> int:
        self.best = best_stage1(self.board, None, units)
        return self.best.nodes


class Stage2Search:
    """What the stage-2 line played gives the next player, and the least any line
    gives (`least.least_giving`): the first within `stage1_cap` units, the second
    within `stage2_cap` and what the first left of the share."""

    def __init__(self, board: Board, slot: int, stage1_cap: int, stage2_cap: int) -> None:
        self.board = board
        self.slot = slot
        self.stage1_cap = stage1_cap
        self.cap = stage1_cap + stage2_cap
        self.tried = 0
        self.given = Best(0, (), False, 0)
        self.least = Least(0, slot, False, 0)

    @property
    def exact(self) -> bool:
        return self.given.exact and self.least.exact

    def run(self, units: int) -> int:
        before, slot = self.board, self.slot
        if not self.given.exact:
            before.draw(slot)
            try:
                self.given = best_stage1(before, None, min(units, self.stage1_cap))
            finally:
                before.undo(slot)
            spent = self.given.nodes
        else:
            spent = 0
        self.least = least_giving(before, slot, self.given,
                                  min(units - spent, self.cap - self.stage1_cap))
        return spent + self.least.nodes

    @property
    def review(self) -> Stage2Review:
        given, least = self.given, self.least
        x, y = self.board.xy(self.slot)
        return Stage2Review(x, y, given.points, least.points, self.board.xy(least.slot),
                            self.exact)
