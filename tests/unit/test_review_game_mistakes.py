"""A human's mistakes in the review of a game (`review.game.review_game`,
`review.report.summarise`): in a vs_computer game where the human plays the brute
force's best on every turn but one, the review names that turn's two mistakes and
no other; the mistakes shown are capped (`MISTAKES_SHOWN`) and sorted, the largest
first."""

from __future__ import annotations

from service.domain import ai
from service.domain.commands import Advance, NewGame, PlaceLine
from service.domain.events import Event
from service.domain.fold import apply_all
from service.domain.players import play_turn
from service.domain.review.report import (
    MISTAKES_SHOWN,
    Stage1Review,
    Stage2Review,
    TurnReview,
    summarise,
)
from service.domain.rules import decide
from service.domain.start import start_game, start_state
from tests.factories import build_stream

from .review_brute import brute_best, gives_per_slot
from .review_games import check_review, expected_mistakes


def human_game(seed: int, size: tuple[int, int]) -> tuple[list[Event], int, int, int] | None:
    """A vs_computer game where the human (seat 1) plays the brute force's best stage 1
    and least-giving stage-2 line, except once: it advances at once from a stage 1
    worth at least 2 (not on its first turn), then draws the line that gives the
    computer the most. The
    events, that turn's number, and what its stage 1 and stage 2 lost; None if no
    turn was fit for the mistakes."""
    command = NewGame(seed=seed, player_name="Ada", difficulty="easy", mode="vs_computer",
                      height=size[0], width=size[1])
    events = start_game(command)
    state = start_state(command, events)
    bad: tuple[int, int, int] | None = None
    turn = own = 0

    def run(command: Advance | PlaceLine) -> None:
        nonlocal state
        decided = decide(state, command)
        events.extend(decided)
        state = apply_all(state, decided)

    while not state.over:
        turn += 1
        if state.turn == 2:
            new = play_turn(state, ai.strategy_for("easy"))
            events.extend(new)
            state = apply_all(state, new)
            continue
        own += 1
        best, lines = brute_best(state)
        if bad is None and own >= 2 and best >= 2:
            run(Advance(1))
            gives = gives_per_slot(state)
            worst = max(gives, key=lambda p: (gives[p], p))
            lost2 = gives[worst] - min(gives.values())
            if lost2 >= 2:
                bad = (turn, best, lost2)
                run(PlaceLine(1, *worst))
            else:
                return None
        else:
            for x, y in lines:
                run(PlaceLine(1, x, y))
            if state.over:
                break
            if state.stage == 1:
                run(Advance(1))
            gives = gives_per_slot(state)
            run(PlaceLine(1, *min(gives, key=lambda p: (gives[p], p))))
        while not state.over and state.turn == 1:
            run(Advance(1))
    if bad is None:
        return None
    return events, *bad


def test_the_mistakes_name_the_human_bad_turn() -> None:
    found = None
    for seed in range(30):  # a game with a bad turn and a good one that gained
        found = human_game(seed, (9, 11))
        if found is not None:
            events, turn, lost1, lost2 = found
            review = check_review(events, brute=True)
            good = [t for t in review.turns if t.seat == 1 and t.turn != turn]
            if any(t.stage1.gained > 0 for t in good):
                break
            found = None
    assert found is not None
    human = review.seats[0]
    assert all(t.lost == 0 for t in good)
    # the human played every other turn perfectly: these two are its only mistakes
    expected = sorted([(turn, 1, lost1), (turn, 2, lost2)], key=lambda m: (-m[2], m[1]))
    assert [(m.turn, m.stage, m.lost) for m in human.mistakes] == expected
    bad = review.turns[turn - 1]
    assert bad.seat == 1 and bad.stage1.played == () and bad.stage1.gained == 0
    stage1 = next(m for m in human.mistakes if m.stage == 1)
    assert stage1.played == () and len(stage1.better) >= 1
    assert human.given_away == lost2
    assert human.best - human.gained == lost1
    assert human.accuracy < 100


def test_mistakes_are_capped_and_sorted() -> None:
    capped = 0
    for seed in range(2):  # the greedy test strategy: many mistakes on the default field
        events = build_stream(seed=seed, player_name="Ada", turns=None).events
        review = check_review(events)
        for summary in review.seats:
            own = [t for t in review.turns if t.seat == summary.seat]
            if len(expected_mistakes(own)) > MISTAKES_SHOWN:
                capped += 1
                assert len(summary.mistakes) == MISTAKES_SHOWN
    assert capped >= 2


def test_summarise_keeps_the_largest_mistakes_first() -> None:
    """Ties: the earlier turn first, then stage 1 before stage 2."""

    def turn(n: int, lost1: int, lost2: int) -> TurnReview:
        stage1 = Stage1Review(((1, 0),), 1, 1 + lost1, ((3, 0),), True)
        stage2 = Stage2Review(5, 0, 2 + lost2, 2, (0, 1), True)
        return TurnReview(n, (n + 1) // 2, 2 - n % 2, n * 10, stage1, stage2, 1)

    turns = tuple(turn(n, lost1, lost2) for n, lost1, lost2 in
                  [(1, 2, 0), (2, 9, 9), (3, 4, 4), (4, 0, 0), (5, 1, 4), (7, 4, 1)])
    one = summarise(1, turns)
    assert [(m.turn, m.stage, m.lost) for m in one.mistakes] == [(3, 1, 4), (3, 2, 4), (5, 2, 4)]
    assert one.mistakes[0].start_seq == 30 and one.mistakes[0].round == 2
    assert one.mistakes[1].played == ((5, 0),) and one.mistakes[1].better == ((0, 1),)
    assert one.mistakes[0].played == ((1, 0),) and one.mistakes[0].better == ((3, 0),)
    assert (one.gained, one.best, one.given_away) == (4, 4 + 2 + 4 + 1 + 4, 4 + 4 + 1)
    assert one.accuracy == round(100 * 4 / 15)
    assert one.luck == 3 + 1 + 1 + 1  # turn 1's best, then the pieces before 3, 5, 7
    two = summarise(2, turns)
    assert [(m.turn, m.stage, m.lost) for m in two.mistakes] == [(2, 1, 9), (2, 2, 9)]
    assert two.luck == 1 + 1
