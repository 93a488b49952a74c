"""The work budget of one game's review (issue 37), in work units only.

A unit is one line drawn by a search (`search.best_stage1`, and the lines
`least.least_giving` draws to try a slot or a witness). A whole review may spend
`GAME_UNITS`, whatever the game: ~1 s of CPU on the dev machine for the crafted
worst games (`benchmarks/review.py`), while the reviews of ordinary games spend a
tenth of it and stay exact. Units alone decide how far each search goes, so a
review is the same on any machine and under any load.

The searches share the budget in two passes (`game.review_game`): first each gets
an even share of what is left (capped by its own limit), so no turn starves the
later ones; then the searches that ran out are tried again, in order, with what the
first pass left over. A search that still runs out keeps the best it found and its
turn says ``exact: false`` (approximate).

A CPU-time limit (`LAST_RESORT_SECONDS`, checked between searches) stays only as the
last resort against a bug or a machine many times slower: after it, every search
left gets no units (and its turn is approximate). It is logged when reached.
"""

from __future__ import annotations

import logging
import time

GAME_UNITS = 200_000
LAST_RESORT_SECONDS = 10.0

_log = logging.getLogger("squares.review")


class ReviewBudget:
    __slots__ = ("left", "spent", "deadline", "timed_out")

    def __init__(self, units: int = GAME_UNITS, seconds: float = LAST_RESORT_SECONDS) -> None:
        self.left = units
        self.spent = 0
        self.timed_out = False
        self.deadline = time.thread_time() + seconds

    def share(self, cap: int, searches: int) -> int:
        """The units the next of `searches` searches may spend: an even share of what
        is left, at most `cap` (none once the last-resort time limit is passed)."""
        if self.late():
            return 0
        return max(0, min(cap, self.left // max(1, searches)))

    def spend(self, units: int) -> None:
        self.left -= units
        self.spent += units

    def late(self) -> bool:
        if not self.timed_out and time.thread_time() > self.deadline:
            self.timed_out = True
            _log.warning("a review reached its %.0f s CPU time limit after %d work units; "
                         "the turns left are approximate", LAST_RESORT_SECONDS, self.spent)
        return self.timed_out
