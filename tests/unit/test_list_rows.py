"""How the lists write a review's accuracy (`service.web.rows`): a seat the review
could not judge (it played no turn) shows "—", never "None %"."""

from __future__ import annotations

from types import SimpleNamespace

from service.web.rows import entry_accuracy, game_accuracy


def test_a_games_row_shows_each_seats_accuracy_and_a_dash_for_none() -> None:
    accuracies = {"g1": (87, 92), "g2": (75, None)}
    assert game_accuracy(accuracies, "g1") == "acc. 87 % / 92 %"
    assert game_accuracy(accuracies, "g2") == "acc. 75 % / —"
    assert game_accuracy(accuracies, "not-reviewed") == "—"


def test_a_high_score_shows_its_seats_accuracy_and_a_dash_for_none() -> None:
    accuracies = {"g1": (87, None)}
    assert entry_accuracy(accuracies, SimpleNamespace(game_id="g1", seat=1)) == "87 %"
    assert entry_accuracy(accuracies, SimpleNamespace(game_id="g1", seat=2)) == "—"
    assert entry_accuracy(accuracies, SimpleNamespace(game_id=None, seat=None)) == "—"
