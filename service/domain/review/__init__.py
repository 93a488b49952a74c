"""The review of an ended game (issue 24): pure, from its events.

`review_game(events)` gives each turn's best stage 1 against what was played, what
its stage-2 line gave the opponent against the least possible, and what the
random pieces changed; and a summary per seat (`report`). `search` and `least`
hold the exact searches behind it.
"""

from .game import ALGORITHM, NotFinished, review_game
from .report import Review, SeatSummary, TurnReview

__all__ = ["ALGORITHM", "NotFinished", "Review", "SeatSummary", "TurnReview", "review_game"]
