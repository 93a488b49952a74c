"""The daily challenge's API: ``POST /api/games`` with ``"daily": true``, ``GET
/api/daily`` and ``GET /api/daily/<date>``, their shapes and errors, as a client
sees them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from flask.testing import FlaskClient

from service.domain import daily
from service.domain.seeds import commitment
from service.protocol.signed_in import SESSION_COOKIE
from service.services import Services

from .account_steps import SAME_SITE, claim
from .helpers import assert_error, bearer, play_unassisted

NOON = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def _daily(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"daily": True, "player_name": "Gus", **body},
                           headers=SAME_SITE)
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    return created


def test_a_signed_in_players_first_daily_game_is_ranked_later_ones_and_guests_practice(
        client: FlaskClient, services: Services) -> None:
    services.core.clock = lambda: NOON
    guest = _daily(client)["state"]
    assert (guest["daily"], guest["practice"], guest["hints"]) == (True, True, True)
    assert (guest["difficulty"], guest["mode"], guest["height"], guest["width"]) == (
        "hard", "vs_computer", 19, 33)
    assert guest["seed"] is None and guest["turn"] == 1
    claim(client, "Ann")
    ranked = _daily(client)
    assert (ranked["state"]["daily"], ranked["state"]["practice"]) == (True, False)
    assert ranked["state"]["seats"][0]["name"] == "Ann"  # the signed-in player's name
    practice = _daily(client)["state"]
    assert practice["practice"]
    assert ranked["state"]["seed_commitment"] == guest["seed_commitment"] == commitment(
        daily.daily_seed(services.daily.secret(), NOON.date()))
    # no hints in the ranked attempt, with an error that says why
    game_id, token = ranked["game_id"], ranked["token"]
    refused = client.get(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert_error(refused, 403, "daily_no_hints")
    # the rest is played by the token alone (as a script would, without the cookie)
    client.delete_cookie(SESSION_COOKIE)
    # a game that is no daily one says so too
    plain = client.post("/api/games", json={"player_name": "Gus", "seed": 3}).get_json()
    assert (plain["state"]["daily"], plain["state"]["practice"]) == (False, True)
    # the ranking so far: the ranked attempt once it has ended
    assert client.get("/api/daily").get_json()["ranking"] == []
    final = play_unassisted(client, game_id, token)
    today = client.get("/api/daily").get_json()
    assert (today["date"], today["seed"], today["over"]) == ("2026-11-28", None, False)
    assert today["commitment"] == guest["seed_commitment"]
    assert [(e["place"], e["name"], e["score"], e["game_id"]) for e in today["ranking"]] == [
        (1, "Ann", final["scores"][0], game_id)]
    assert (today["ranked_players"], today["practice_games"]) == (1, 2)
    # the events of the finished game hold no seed
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    assert "seed_revealed" not in {e["type"] for e in events}


def test_a_past_date_reveals_its_seed_and_its_final_ranking(
        client: FlaskClient, services: Services) -> None:
    services.core.clock = lambda: NOON
    claim(client, "Ann")
    ranked = _daily(client)
    resigned = client.post(f"/api/games/{ranked['game_id']}/resign",
                           headers=bearer(ranked["token"]) | SAME_SITE)
    assert resigned.status_code == 200, resigned.get_json()
    services.core.clock = lambda: NOON + timedelta(days=1)
    past = client.get("/api/daily/2026-11-28").get_json()
    assert past["over"] and commitment(past["seed"]) == past["commitment"]
    assert past["best_game_id"] == ranked["game_id"]
    assert [e["name"] for e in past["ranking"]] == ["Ann"]
    today = client.get("/api/daily").get_json()
    assert today["date"] == "2026-11-29" and today["seed"] is None
    assert client.get("/api/daily/2026-11-29").get_json() == today


def test_daily_errors(client: FlaskClient, services: Services) -> None:
    services.core.clock = lambda: NOON
    details = assert_error(client.get("/api/daily/2026-11-29"), 404, "daily_not_yet")
    assert details == {"date": "2026-11-29"}
    for bad in ("yesterday", "2026-13-01", "2026-1-1", "２０２６-11-28"):
        assert_error(client.get(f"/api/daily/{bad}"), 400, "invalid_request")
    fixed = client.post("/api/games", json={"daily": True, "player_name": "Gus",
                                            "difficulty": "easy", "seed": 4})
    details = assert_error(fixed, 400, "invalid_request")
    assert set(details["fields"]["json"]) == {"difficulty", "seed"}
    assert_error(client.post("/api/games", json={"daily": True, "player_name": " "}),
                 422, "invalid_name")
    assert_error(client.post("/api/games", json={"daily": "maybe", "player_name": "Gus"}),
                 400, "invalid_request")


def test_the_openapi_document_has_the_daily_endpoints(client: FlaskClient) -> None:
    paths = client.get("/api/openapi.json").get_json()["paths"]
    assert {"/api/daily", "/api/daily/{day}"} <= set(paths)
    assert paths["/api/daily/{day}"]["parameters"][0]["schema"]["format"] == "date"
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert {"daily", "practice"} <= set(schemas["State"]["properties"])
    assert "daily" in schemas["NewGame"]["properties"]
