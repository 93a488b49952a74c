"""The tables mark whose name a row is: a signed-in player's (a name they hold) or a
guest's (a name anyone may type)."""

from __future__ import annotations

from flask.testing import FlaskClient

from service.services import Services
from service.services.results import SignedIn
from squares_testing.play import play_unassisted


def _finish(services: Services, name: str, signed_in: SignedIn | None = None) -> None:
    game = services.play.create_game(player_name=name, height=7, width=9, difficulty="easy",
                                     signed_in=signed_in)
    play_unassisted(services, game.game_id, game.token, game.state)


def test_the_table_marks_guests_rows_and_a_holders_rows(client: FlaskClient,
                                                         services: Services) -> None:
    with services.store.unit_of_work() as uow:
        held = uow.player_records.claim("Eda Fırat", services.core.clock())
    _finish(services, "eda fırat", SignedIn(held, "Eda Fırat"))
    _finish(services, "Bora")
    rows = client.get("/api/highscores?height=7&width=9&limit=50").get_json()["high_scores"]
    guest = {row["name"]: row["guest"] for row in rows if row["source"] == "game"}
    assert guest == {"Eda Fırat": False, "Bora": True}
    page = client.get("/highscores?size=7x9").get_data(as_text=True)
    assert page.count('class="holder"') == 1 and 'id="guest-note"' in page
    listing = client.get("/games").get_data(as_text=True)  # Eda's game, Bora's
    assert listing.count('class="holder"') == 1 and 'id="guest-note"' in listing


def test_a_forgotten_holder_marks_nothing(client: FlaskClient, services: Services) -> None:
    with services.store.unit_of_work() as uow:
        held = uow.player_records.claim("Eda Fırat", services.core.clock())
    _finish(services, "Eda Fırat", SignedIn(held, "Eda Fırat"))
    services.players.forget("Eda Fırat")
    for path in ("/games", "/highscores?size=7x9"):
        page = client.get(path).get_data(as_text=True)
        assert 'class="holder"' not in page and "Eda" not in page.split("<main", 1)[1]
