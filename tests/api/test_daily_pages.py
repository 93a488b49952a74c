"""The daily challenge's pages: ``/daily`` (play today's, today's ranking, yesterday's
final ranking with its revealed seed and best game), the home page's offer, and the
streak on a signed-in player's page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask.testing import FlaskClient

from service.domain.seeds import commitment
from service.protocol.signed_in import SESSION_COOKIE
from service.services import Services

from .account_steps import SAME_SITE, claim
from .helpers import bearer

NOON = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def _ranked_and_resigned(client: FlaskClient) -> str:
    created = client.post("/api/games", json={"daily": True, "player_name": "Ann"},
                          headers=SAME_SITE).get_json()
    resigned = client.post(f"/api/games/{created['game_id']}/resign",
                           headers=bearer(created["token"]) | SAME_SITE)
    assert resigned.status_code == 200, resigned.get_json()
    game_id: str = created["game_id"]
    return game_id


def test_the_daily_page_shows_today_and_yesterday(client: FlaskClient,
                                                  services: Services) -> None:
    services.core.clock = lambda: NOON
    claim(client, "Ann")
    page = client.get("/daily").get_data(as_text=True)
    assert "Your next game is your ranked attempt of the day" in page
    game_id = _ranked_and_resigned(client)
    page = client.get("/daily").get_data(as_text=True)
    assert "You have played your ranked attempt today" in page
    assert f'<tr data-game-id="{game_id}">' in page  # today's ranking so far
    today = services.daily.day()
    assert today.commitment in page and today.seed is None
    services.core.clock = lambda: NOON + timedelta(days=1)
    client.delete_cookie(SESSION_COOKIE)
    page = client.get("/daily").get_data(as_text=True)
    yesterday = services.daily.day(NOON.date())
    assert yesterday.seed is not None and commitment(yesterday.seed) == today.commitment
    assert f'<code id="daily-seed">{yesterday.seed}</code>' in page
    assert f'id="daily-best" href="/games/{game_id}"' in page
    assert "As a guest you play for practice" in page and 'id="daily-name"' in page
    assert 'href="/daily"' in client.get("/").get_data(as_text=True)  # offered first


def test_a_signed_in_players_page_shows_their_daily_streak(client: FlaskClient,
                                                           services: Services) -> None:
    services.core.clock = lambda: NOON
    claim(client, "Ann")
    game_id = _ranked_and_resigned(client)
    services.core.clock = lambda: NOON + timedelta(days=1)
    _ranked_and_resigned(client)
    page = client.get("/players/Ann").get_data(as_text=True)
    assert "A streak of 2 days" in page and f'<tr data-game-id="{game_id}">' in page
    data = client.get("/api/players/Ann").get_json()
    assert data["daily"]["streak"] == 2
    assert [a["date"] for a in data["daily"]["attempts"]] == ["2026-11-29", "2026-11-28"]
    assert data["daily"]["attempts"][1] == {"date": "2026-11-28", "game_id": game_id,
                                            "score": 0, "ended": True, "place": 1}
    client.delete_cookie(SESSION_COOKIE)
    assert client.post("/api/games", json={"player_name": "Gus", "seed": 1}).status_code == 201
    assert client.get("/api/players/Gus").get_json()["daily"] is None  # a guest's name
