"""The review of whole games (`review.game.review_game`) played in memory, computer
against computer or by the greedy test strategy, checked against what their events
say (`review_games.check_review`; on small fields against the rules-engine brute
force too): on small fields and the default one, ranked with its seed revealed, the
same review every time, and with small search budgets a review that says it is not
exact."""

from __future__ import annotations

import json

import pytest

from service.domain.event_codec import event_from_dict
from service.domain.fold import fold
from service.domain.review.game import review_game
from tests.factories import build_stream

from .review_brute import fresh
from .review_games import check_review, cvc_game, replay_lines


def test_review_of_small_simulated_games_agrees_with_the_brute_force() -> None:
    bests = []
    for size, seed, level in [((7, 9), 0, "easy"), ((7, 9), 2, "moderate"),
                              ((9, 9), 1, "easy"), ((9, 11), 3, "moderate")]:
        review = check_review(cvc_game(size, seed, level), brute=True)
        bests += [t.stage1.best for t in review.turns]
    assert max(bests) >= 3


@pytest.mark.parametrize("level", ["easy", "moderate"])
def test_review_of_small_simulated_games(level: str) -> None:
    pieces = []
    for seed in range(8):
        for size in ((7, 9), (9, 11), (11, 15)):
            review = check_review(cvc_game(size, seed, level))
            pieces += [t.pieces for t in review.turns if t.pieces is not None]
    assert pieces and min(pieces) < 0 < max(pieces)  # the pieces give and take


def test_review_of_a_default_field_game() -> None:
    events = cvc_game((19, 33), 7, "moderate")
    review = check_review(events)
    assert len(review.turns) > 8
    assert sum(s.gained for s in review.seats) > 30


def test_review_of_a_ranked_greedy_game_with_its_seed_revealed() -> None:
    stream = build_stream(seed=5, player_name="Ada", turns=None, height=9, width=11)
    assert stream.state.over and stream.state.high_scores_entered
    check_review(stream.events)


def test_review_is_deterministic() -> None:
    events = cvc_game((9, 11), 4, "moderate")
    first = review_game(list(events)).to_dict()
    copied = [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert review_game(copied).to_dict() == first
    assert review_game(list(events)).to_dict() == first
    assert json.dumps(first, sort_keys=True) == json.dumps(review_game(events).to_dict(),
                                                          sort_keys=True)


def test_review_with_small_budgets_says_it_is_not_exact() -> None:
    events = cvc_game((11, 15), 2, "moderate")
    full = review_game(list(events))
    short = review_game(list(events), stage1_nodes=2, stage2_nodes=3)
    assert full.exact and not short.exact and short.to_dict()["exact"] is False
    assert any(not t.stage1.exact for t in short.turns)
    for s, f in zip(short.turns, full.turns, strict=True):
        assert (s.seat, s.start_seq, s.stage1.played, s.stage1.gained) == \
            (f.seat, f.start_seq, f.stage1.played, f.stage1.gained)
        assert s.stage1.best <= f.stage1.best  # a lower bound, really taken
        gained, _ = replay_lines(fresh(fold(events[:s.start_seq])), s.stage1.best_lines)
        assert gained == s.stage1.best
        if s.stage1.exact:
            assert s.stage1.best == f.stage1.best
        if s.stage2 is not None and f.stage2 is not None and not s.stage2.exact:
            assert s.stage2.gives <= f.stage2.gives
