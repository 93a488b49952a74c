"""The games list (`/games`) and the high score table (`/highscores`) show each reviewed
game's accuracy from its review (issue 24): "acc. 87 % / 92 %" per game, the
player's own "87 %" per high score; "—" until the game is reviewed."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from service.projections.catch_up import review_all
from service.services import Services

from .helpers import create_game, play_unassisted

ACCURACY = re.compile(r'<td class="num accuracy"[^>]*>(.*?)</td>', re.S)


def row_of(html: str, marker: str) -> str:
    """The table row (<tr>...</tr>) of `html` that contains `marker`."""
    rows = re.findall(r"<tr\b.*?</tr>", html, re.S)
    found = [row for row in rows if marker in row]
    assert len(found) == 1, (marker, found)
    return found[0]


def accuracy_cell(client: FlaskClient, path: str, marker: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    cells = ACCURACY.findall(row_of(response.get_data(as_text=True), marker))
    assert len(cells) == 1
    return cells[0].strip()


def test_games_and_high_scores_show_the_accuracy_of_a_reviewed_game(
        client: FlaskClient, services: Services) -> None:
    created = create_game(client, seed=None, difficulty="easy")  # ranked: a high score
    game_id = created["game_id"]
    play_unassisted(client, game_id, created["token"])
    in_games = f'data-game-id="{game_id}"'
    in_table = f'href="/games/{game_id}"'
    assert accuracy_cell(client, "/games", in_games) == "—"
    assert accuracy_cell(client, f"/highscores?game={game_id}", in_table) == "—"

    review_all(services.store)
    human, computer = services.reviews.accuracies([game_id])[game_id]
    assert accuracy_cell(client, "/games", in_games) == f"acc. {human} % / {computer} %"
    assert accuracy_cell(client, f"/highscores?game={game_id}", in_table) == f"{human} %"
    # the default entries have no game, so no review
    assert accuracy_cell(client, "/highscores", "Tarık Yolcu") == "—"
    # the JSON lists say the same
    listed = client.get("/api/games").get_json()["games"]
    assert next(g for g in listed if g["game_id"] == game_id)["accuracy"] == [human, computer]
    table = client.get("/api/highscores?height=7&width=9").get_json()["high_scores"]
    assert next(e for e in table if e["game_id"] == game_id)["accuracy"] == human
