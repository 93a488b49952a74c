"""A review's accuracy agrees with the mistakes it lists (`service.domain.review.report`):
it is stage 1's share of the points within reach, 100 % exactly when no stage-1 point
was lost, so the replay page never shows "Accuracy 100 %" beside a stage-1 mistake;
a stage-2 gift is counted in "given away", not in the accuracy."""

from __future__ import annotations

from service.domain.review.report import (
    Stage1Review,
    Stage2Review,
    TurnReview,
    stage1_accuracy,
    summarise,
)


def turn(n: int, gained: int, best: int, gives: int = 2, least: int = 2,
         exact: bool = True) -> TurnReview:
    """Turn `n` of seat 1 (odd turns) or 2: stage 1 took `gained` of `best`, the stage-2
    line gave `gives` where `least` was possible."""
    stage1 = Stage1Review(((1, 0),), gained, best, ((3, 0),), exact)
    stage2 = Stage2Review(5, 0, gives, least, (0, 1), True)
    return TurnReview(n, (n + 1) // 2, 2 - n % 2, n * 10, stage1, stage2, 0)


def test_one_point_lost_of_two_hundred_is_not_100() -> None:
    # round(100 * 199 / 200) is 100: the listed mistake of 1 would stand beside it.
    turns = (turn(1, 99, 100), turn(3, 100, 100))
    one = summarise(1, turns)
    assert [(m.stage, m.lost) for m in one.mistakes] == [(1, 1)]
    assert one.accuracy == 99


def test_an_approximate_turn_that_beat_its_best_makes_up_for_no_loss() -> None:
    # Turn 3 took 6 where its search, stopped at its budget, found 4: the sums are equal,
    # but turn 1 lost 2, which the mistakes list.
    turns = (turn(1, 3, 5), turn(3, 6, 4, exact=False))
    one = summarise(1, turns)
    assert (one.gained, one.best) == (9, 9)
    assert [(m.stage, m.lost) for m in one.mistakes] == [(1, 2)]
    assert one.accuracy == 99


def test_a_stage_2_gift_leaves_the_accuracy_and_counts_in_given_away() -> None:
    turns = (turn(1, 4, 4, gives=7, least=2), turn(3, 3, 3))
    one = summarise(1, turns)
    assert one.accuracy == 100
    assert one.given_away == 5
    assert [(m.stage, m.lost) for m in one.mistakes] == [(2, 5)]


def test_a_penalty_where_nothing_was_there_is_0() -> None:
    one = summarise(1, (turn(1, -5, 0),))
    assert [(m.stage, m.lost) for m in one.mistakes] == [(1, 5)]
    assert one.accuracy == 0


def test_the_share_itself() -> None:
    assert stage1_accuracy(17, 22, 5) == 77
    assert stage1_accuracy(0, 0, 0) == 100  # nothing to take, nothing lost
    assert stage1_accuracy(5, 5, 0) == 100
    assert stage1_accuracy(-5, 10, 15) == 0
    assert summarise(2, (turn(1, 4, 4),)).accuracy is None  # seat 2 played no turn
