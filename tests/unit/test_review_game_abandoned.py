"""The review of abandoned and unfinished games (`review.game.review_game`): a turn
left in its stage 1 is not reviewed, one left in stage 2 or 3 is, the last reviewed
turn's pieces are measured at the next turn's start, and a game that has not ended
cannot be reviewed (`NotFinished`)."""

from __future__ import annotations

import pytest

from service.domain.commands import Abandon, PlaceLine
from service.domain.events import Event, GameAbandoned, GameCreated, GameOver, StageAdvanced
from service.domain.fold import apply_all, fold
from service.domain.review.game import NotFinished, review_game
from service.domain.rules import decide

from .review_brute import brute_best, fresh
from .review_games import check_review, check_summaries, cvc_game, two_players
from .review_positions import between, path_slots


def abandoned_after_a_line() -> tuple[list[Event], int]:
    """A game left (abandoned) in a stage 1 after its first line: the events and the
    index of that line. Scanned for a turn whose line changes what a fresh stage 1
    could take on the board."""
    for seed in range(40):
        events = list(cvc_game((9, 11), seed))
        for i, event in enumerate(events):
            if not (isinstance(event, StageAdvanced) and event.stage == 1):
                continue
            state = fold(events[:i + 1])
            value, lines = brute_best(fresh(state))
            if not lines:
                continue
            line = decide(state, PlaceLine(state.turn, *lines[0]))
            after = apply_all(state, line)
            if after.over or after.stage != 1 or brute_best(fresh(after))[0] == value:
                continue
            return events[:i + 1] + line + decide(after, Abandon("idle")), i + 1
    raise AssertionError("no such turn found")


def test_an_abandoned_game_leaves_out_the_turn_left_in_stage_1() -> None:
    events, start = abandoned_after_a_line()
    assert isinstance(events[-1], GameAbandoned)
    review = review_game(events)
    ended = sum(1 for e in events if isinstance(e, StageAdvanced) and e.stage == 1)
    assert len(review.turns) == ended
    assert review.turns[-1].start_seq < start
    assert review.turns[-1].seat != fold(events[:start]).turn
    check_summaries(review)


def test_an_abandoned_game_pieces_are_measured_at_the_next_turn_start() -> None:
    """The last reviewed turn's pieces: the next turn's best at its start (before the
    line it drew before the game was left) minus what the stage-2 line gave."""
    events, start = abandoned_after_a_line()
    review = review_game(events)
    last = review.turns[-1]
    assert last.stage2 is not None and last.pieces is not None
    next_start = fold(events[:start])
    assert next_start.turn == 2 and next_start.stage == 1
    assert last.pieces == brute_best(next_start)[0] - last.stage2.gives


def test_an_abandoned_game_keeps_a_turn_left_in_stage_2_or_3() -> None:
    crosses = [(5, 6), (7, 6), (6, 5), (6, 7), (1, 6), (3, 6), (2, 5), (2, 7)]
    for leave_in in (2, 3):
        game = two_players([*path_slots([(0, 0), (1, 0), (2, 0), (2, 1)]), *crosses], (9, 9))
        game.line(*between((0, 0), (1, 0)))
        game.advance()
        if leave_in == 3:
            game.line(*between((2, 0), (2, 1)))
            game.advance()
        game.run(Abandon("idle"))
        review = check_review(game.events, brute=True)
        (turn,) = review.turns
        assert (turn.stage1.gained, turn.stage1.best) == (1, 3)
        assert (turn.stage2 is None) == (leave_in == 2)
        assert turn.pieces is None


def test_an_abandoned_game_before_any_decision_of_the_turn() -> None:
    events = list(cvc_game((7, 9), 3))
    cut = next(i for i, e in enumerate(events) if isinstance(e, StageAdvanced)
               and e.stage == 1) + 1
    state = fold(events[:cut])
    events = events[:cut] + decide(state, Abandon("idle"))
    review = check_review(events)
    assert len(review.turns) == 1


def test_an_unfinished_game_cannot_be_reviewed() -> None:
    events = list(cvc_game((7, 9), 1))
    for cut in (1, 2, len(events) // 2, next(i for i, e in enumerate(events)
                                               if isinstance(e, GameOver))):
        with pytest.raises(NotFinished):
            review_game(events[:cut])
    with pytest.raises(NotFinished):
        review_game([])
    with pytest.raises(NotFinished):
        review_game(events[1:])
    assert isinstance(events[0], GameCreated)
