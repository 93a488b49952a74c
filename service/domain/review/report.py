"""What a review says: per turn, per seat, and as JSON (the API's and the store's)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..events import Point

MISTAKES_SHOWN = 3


@dataclass(frozen=True)
class Stage1Review:
    played: tuple[Point, ...]  # the lines the seat drew in stage 1
    gained: int  # the score the seat's stage 1 changed by (regular squares - penalty)
    best: int  # the most any legal stage 1 could have taken from that position
    best_lines: tuple[Point, ...]  # one way to take `best`, in order
    exact: bool  # False: the search ran out of its budget (`best` is a lower bound)

    @property
    def lost(self) -> int:
        return max(0, self.best - self.gained)


@dataclass(frozen=True)
class Stage2Review:
    x: int
    y: int
    gives: int  # what the opponent could take in their next stage 1 after this line
    least_gives: int  # the least any line could have given
    better: Point  # a line that gives `least_gives`
    exact: bool

    @property
    def lost(self) -> int:
        return max(0, self.gives - self.least_gives)


@dataclass(frozen=True)
class TurnReview:
    turn: int  # 1-based count of turns in the game
    round: int
    seat: int
    start_seq: int  # the last event before the turn's first decision
    stage1: Stage1Review
    stage2: Stage2Review | None  # None: the game ended (or was left) before it
    # how much the turn's random pieces changed what the next player could take
    pieces: int | None

    @property
    def lost(self) -> int:
        return self.stage1.lost + (self.stage2.lost if self.stage2 else 0)

    @property
    def exact(self) -> bool:
        """False: a search of this turn stopped at the review's budget (approximate)."""
        return self.stage1.exact and (self.stage2 is None or self.stage2.exact)


@dataclass(frozen=True)
class Mistake:
    turn: int
    round: int
    start_seq: int
    stage: int
    lost: int
    played: tuple[Point, ...]  # the stage-1 lines, or the stage-2 line, played
    better: tuple[Point, ...]  # the best stage-1 lines, or the stage-2 line to prefer


@dataclass(frozen=True)
class SeatSummary:
    seat: int
    gained: int  # stage-1 points over the game
    best: int  # the best stage 1 of each turn, added up
    # stage 1's share: 100 * gained / best, within 0..100, and 100 exactly when no
    # stage-1 point was lost (`accuracy`); None when the seat played no turn (a game
    # left before its first turn ended)
    accuracy: int | None
    given_away: int  # stage 2: what the lines played gave beyond the least possible
    luck: int  # what random lines (start, pieces) put within the seat's reach
    mistakes: tuple[Mistake, ...]  # the largest, at most `MISTAKES_SHOWN`


@dataclass(frozen=True)
class Review:
    algorithm: int
    turns: tuple[TurnReview, ...]
    seats: tuple[SeatSummary, SeatSummary]
    units: int = 0  # the work units the review spent (`budget`); not part of its JSON

    @property
    def exact(self) -> bool:
        return all(t.exact for t in self.turns)

    def to_dict(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
            "exact": self.exact,
            "turns": [_turn_dict(t) for t in self.turns],
            "seats": [_seat_dict(s) for s in self.seats],
        }


def summarise(seat: int, turns: tuple[TurnReview, ...]) -> SeatSummary:
    own = [t for t in turns if t.seat == seat]
    gained = sum(t.stage1.gained for t in own)
    best = sum(t.stage1.best for t in own)
    lost = sum(t.stage1.lost for t in own)
    accuracy = None if not own else stage1_accuracy(gained, best, lost)
    given_away = sum(t.stage2.lost for t in own if t.stage2)
    luck = 0
    previous: TurnReview | None = None
    for t in turns:
        if t.seat == seat:
            luck += t.stage1.best if previous is None else (previous.pieces or 0)
        previous = t
    return SeatSummary(seat, gained, best, accuracy, given_away, luck, _largest_mistakes(own))


def stage1_accuracy(gained: int, best: int, lost: int) -> int:
    """A seat's accuracy: the stage-1 points it took (`gained`, over its turns) as a
    percentage of the most there was (`best`), 0..100; `lost`: the stage-1 points its
    turns lost (each turn's best less what it took, never below 0).

    100 exactly when nothing was lost (nothing to take counts as 100), so the page
    never shows 100 % beside a stage-1 mistake it lists: rounding alone would (199 of
    200), and so would an approximate turn that took more than the best its search
    found, making up for a loss elsewhere. A loss where nothing was there to take (a
    penalty) is 0. Stage 2 is not in it: its gifts are `given_away`."""
    if lost <= 0:
        return 100
    if best <= 0:
        return 0
    return min(99, round(100 * max(0, gained) / best))


def _largest_mistakes(own: list[TurnReview]) -> tuple[Mistake, ...]:
    found: list[Mistake] = []
    for t in own:
        if t.stage1.lost:
            found.append(Mistake(t.turn, t.round, t.start_seq, 1, t.stage1.lost,
                                 t.stage1.played, t.stage1.best_lines))
        if t.stage2 is not None and t.stage2.lost:
            s2 = t.stage2
            found.append(Mistake(t.turn, t.round, t.start_seq, 2, s2.lost, ((s2.x, s2.y),),
                                 (s2.better,)))
    found.sort(key=lambda m: (-m.lost, m.turn, m.stage))
    return tuple(found[:MISTAKES_SHOWN])


def _points(points: tuple[Point, ...]) -> list[list[int]]:
    return [[x, y] for x, y in points]


def _turn_dict(t: TurnReview) -> dict[str, Any]:
    s1, s2 = t.stage1, t.stage2
    return {
        "turn": t.turn, "round": t.round, "seat": t.seat, "start_seq": t.start_seq,
        "stage1": {"played": _points(s1.played), "gained": s1.gained, "best": s1.best, "best_lines": _points(s1.best_lines),
                   "exact": s1.exact},
        "stage2": None if s2 is None else {
            "x": s2.x, "y": s2.y, "gives": s2.gives, "least_gives": s2.least_gives,
            "better": list(s2.better), "exact": s2.exact},
        "pieces": None if t.pieces is None else {"points": t.pieces},
        "lost": t.lost,
        "exact": t.exact,
    }


def _seat_dict(s: SeatSummary) -> dict[str, Any]:
    return {
        "seat": s.seat, "gained": s.gained, "best": s.best, "accuracy": s.accuracy,
        "given_away": s.given_away, "luck": s.luck,
        "mistakes": [{"turn": m.turn, "round": m.round, "start_seq": m.start_seq,
                      "stage": m.stage, "lost": m.lost, "played": _points(m.played),
                      "better": _points(m.better)} for m in s.mistakes],
    }
