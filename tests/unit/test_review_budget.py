"""The review's work budget (issue 37, `review.budget`, `review.passes`).

A whole review spends at most its units, whatever the game: the crafted games of
`squares_testing.crafted` (nobody ever takes a square, so the searches are as large
as they get) on the largest field included. A turn whose search stopped at the
budget says ``exact: false`` and keeps figures that are still true bounds (a best
stage 1 really taken, a least-giving line really there); ordinary games spend a
fraction of the budget and their reviews are exact and the same as with no budget.
"""

from __future__ import annotations

from functools import cache

import pytest

from service.domain.board import MAX_HEIGHT, MAX_WIDTH
from service.domain.events import Event
from service.domain.fold import fold
from service.domain.review import review_game
from service.domain.review.budget import GAME_UNITS, ReviewBudget
from service.domain.review.passes import run_all
from squares_testing.crafted import nobody_takes

from .review_brute import fresh
from .review_games import cvc_game, replay_lines

UNLIMITED = 10**12


@cache
def crafted(height: int, width: int, how: str = "threes") -> tuple[Event, ...]:
    return tuple(nobody_takes(height, width, how))


def test_the_largest_crafted_game_is_reviewed_within_the_game_budget() -> None:
    events = crafted(MAX_HEIGHT, MAX_WIDTH)
    review = review_game(list(events))
    assert 0 < review.units <= GAME_UNITS
    assert len(review.turns) > 150
    approximate = [t for t in review.turns if not t.exact]
    assert approximate and len(approximate) < len(review.turns)
    body = review.to_dict()
    assert body["exact"] is False
    assert [t["exact"] for t in body["turns"]] == [t.exact for t in review.turns]
    assert review_game(list(events)).to_dict() == body  # units only: deterministic


@pytest.mark.parametrize("how", ["threes", "safe", "first"])
def test_approximate_turns_keep_true_bounds(how: str) -> None:
    events = list(crafted(11, 17, how))
    full = review_game(events, units=UNLIMITED)
    short = review_game(events, units=1_500)
    assert full.exact and not short.exact
    assert short.units <= 1_500 < full.units
    assert any(t.exact for t in short.turns)
    for s, f in zip(short.turns, full.turns, strict=True):
        assert (s.seat, s.start_seq, s.stage1.played, s.stage1.gained) == \
            (f.seat, f.start_seq, f.stage1.played, f.stage1.gained)
        gained, _ = replay_lines(fresh(fold(events[:s.start_seq])), s.stage1.best_lines)
        assert gained == s.stage1.best <= f.stage1.best  # a lower bound, really taken
        if s.stage1.exact:
            assert s.stage1.best == f.stage1.best
        if s.stage2 is not None and f.stage2 is not None:
            assert (s.stage2.x, s.stage2.y) == (f.stage2.x, f.stage2.y)
            if s.stage2.exact:
                assert s.stage2 == f.stage2
            else:  # the least found: an upper bound of the least there is
                assert s.stage2.least_gives >= f.stage2.least_gives


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_ordinary_game_is_exact_and_the_same_as_with_no_budget(seed: int) -> None:
    events = list(cvc_game((19, 33), seed, "moderate"))
    review = review_game(events)
    assert review.exact and review.units < GAME_UNITS // 5
    assert review.to_dict() == review_game(events, units=UNLIMITED).to_dict()


class Wanting:
    """A search that needs `needs` units to end."""

    def __init__(self, needs: int, cap: int = 1_000) -> None:
        self.needs, self.cap, self.tried, self.exact = needs, cap, 0, False
        self.runs: list[int] = []

    def run(self, units: int) -> int:
        self.runs.append(units)
        self.exact = units >= self.needs
        return min(units, self.needs)


def test_the_first_pass_shares_evenly_and_the_rest_goes_to_those_that_ran_out() -> None:
    searches = [Wanting(10), Wanting(200), Wanting(10), Wanting(10)]
    budget = ReviewBudget(400)
    run_all(searches, budget)  # type: ignore[arg-type]
    assert [s.runs[0] for s in searches] == [100, 130, 130, 250]  # even shares of the rest
    assert searches[1].runs == [130, 240] and all(s.exact for s in searches)
    assert budget.spent == 30 + 130 + 200 <= 400


def test_a_search_is_not_run_again_without_more_units_than_it_had() -> None:
    searches = [Wanting(900), Wanting(900)]
    budget = ReviewBudget(1_000)
    run_all(searches, budget)  # type: ignore[arg-type]
    assert searches[0].runs == [500] and searches[1].runs == [500]
    assert not any(s.exact for s in searches) and budget.spent == 1_000


def test_a_search_never_gets_more_than_its_cap() -> None:
    search = Wanting(5_000, cap=1_000)
    run_all([search], ReviewBudget(10_000))  # type: ignore[list-item]
    assert search.runs == [1_000] and not search.exact


def test_past_the_last_resort_time_limit_no_search_gets_units() -> None:
    budget = ReviewBudget(1_000, seconds=-1.0)
    assert budget.share(500, 1) == 0 and budget.timed_out
