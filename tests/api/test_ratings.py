"""Rated online games over the API, as two signed-in browsers play one: choosing
rated at creation, the friend's claim, the ratings table (``GET /api/ratings`` and
``/ratings``), a player's rating with its history (``GET /api/players/<name>`` and
their page), and the refusals: a guest, a game that is not online, a player against
their own name."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.domain.ratings import DEFAULT, rate_game

from .account_steps import SAME_SITE, claim
from .helpers import assert_error, bearer


def _signed_in(app: Flask, name: str) -> FlaskClient:
    """A browser of its own (its own cookies) with `name` claimed and signed in."""
    client = app.test_client()
    claim(client, name)
    return client


def _rated_game(creator: FlaskClient, name: str) -> dict[str, Any]:
    response = creator.post("/api/games", headers=SAME_SITE, json={
        "player_name": name, "mode": "online", "rated": True, "height": 7, "width": 7})
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    assert created["state"]["rated"] is True
    return created


def _claim(client: FlaskClient, created: dict[str, Any], name: str) -> Any:
    return client.post(f"/api/games/{created['game_id']}/claim", headers=SAME_SITE,
                       json={"code": created["invite"]["code"], "name": name})


def test_a_rated_game_resigned_moves_both_ratings_into_the_table_and_the_pages(
        app: Flask) -> None:
    ann, bob = _signed_in(app, "Ann"), _signed_in(app, "Bob")
    created = _rated_game(ann, "Ann")
    claimed = _claim(bob, created, "Bob")
    assert claimed.status_code == 201, claimed.get_json()
    resigned = bob.post(f"/api/games/{created['game_id']}/resign",
                        headers={**bearer(claimed.get_json()["token"]), **SAME_SITE})
    assert resigned.status_code == 200, resigned.get_json()
    won, lost = rate_game(DEFAULT, DEFAULT, 1.0)  # Ann won

    guest = app.test_client()
    table = guest.get("/api/ratings").get_json()
    assert table["total"] == 2 and (table["limit"], table["offset"]) == (50, 0)
    assert [(p["place"], p["name"], p["rating"], p["deviation"], p["games"])
            for p in table["players"]] == [
        (1, "Ann", round(won.rating), round(won.deviation), 1),
        (2, "Bob", round(lost.rating), round(lost.deviation), 1)]
    assert table["players"][0]["player_url"] == "/players/Ann"
    second = guest.get("/api/ratings?limit=1&offset=1").get_json()
    assert [(p["place"], p["name"]) for p in second["players"]] == [(2, "Bob")]

    ann_page = guest.get("/api/players/Ann").get_json()
    rating = ann_page["rating"]
    assert (rating["rating"], rating["deviation"], rating["games"]) == (
        round(won.rating), round(won.deviation), 1)
    (change,) = rating["history"]
    assert (change["game_id"], change["opponent"], change["result"]) == (
        created["game_id"], "Bob", "win")
    assert (change["rating_before"], change["rating_after"]) == (1500, round(won.rating))
    assert guest.get("/api/players/Bob").get_json()["rating"]["history"][0]["result"] == "loss"

    page = guest.get("/ratings")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.index(">Ann<") < html.index(">Bob<")
    assert f">{round(won.rating)}<" in html
    player_page = guest.get("/players/Ann").get_data(as_text=True)
    assert 'id="player-rating"' in player_page and f"{round(won.rating)}" in player_page
    assert 'href="/ratings"' in guest.get("/highscores").get_data(as_text=True)


def test_a_casual_game_and_a_guests_name_have_no_rating(app: Flask) -> None:
    ann, bob = _signed_in(app, "Ann"), _signed_in(app, "Bob")
    response = ann.post("/api/games", headers=SAME_SITE, json={
        "player_name": "Ann", "mode": "online", "height": 7, "width": 7})
    created = response.get_json()
    assert created["state"]["rated"] is False
    claimed = _claim(bob, created, "Bob").get_json()
    bob.post(f"/api/games/{created['game_id']}/resign",
             headers={**bearer(claimed["token"]), **SAME_SITE})
    guest = app.test_client()
    assert guest.get("/api/ratings").get_json() == {
        "players": [], "total": 0, "limit": 50, "offset": 0}
    assert guest.get("/api/players/Ann").get_json()["rating"] is None
    assert "No rated game has ended yet." in guest.get("/ratings").get_data(as_text=True)


def test_rated_is_refused_for_a_guest_outside_online_and_against_oneself(
        app: Flask) -> None:
    guest = app.test_client()
    assert_error(guest.post("/api/games", json={
        "player_name": "Guest", "mode": "online", "rated": True}), 409, "rated_needs_sign_in")
    ann = _signed_in(app, "Ann")
    assert_error(ann.post("/api/games", headers=SAME_SITE, json={
        "player_name": "Ann", "mode": "vs_computer", "rated": True}), 422, "invalid_mode")
    assert_error(ann.post("/api/games", headers=SAME_SITE, json={
        "player_name": "Someone else", "mode": "online", "rated": True}),
        409, "rated_needs_sign_in")
    assert_error(ann.post("/api/games", headers=SAME_SITE, json={
        "player_name": "Ann", "daily": True, "rated": True}), 400, "invalid_request")
    created = _rated_game(ann, "Ann")
    join_page = guest.get(f"/join/{created['game_id']}").get_data(as_text=True)
    assert 'id="join-rated"' in join_page  # the friend learns it before giving a name
    assert_error(_claim(ann, created, "Ann"), 409, "rated_against_self")
    assert_error(_claim(guest, created, "Friend"), 409, "rated_needs_sign_in")
    assert_error(guest.get("/api/ratings?limit=101"), 400, "invalid_request")


def test_the_start_form_offers_rated_to_a_signed_in_player_only(app: Flask) -> None:
    assert 'id="rated"' not in app.test_client().get("/").get_data(as_text=True)
    assert 'id="rated"' in _signed_in(app, "Ann").get("/").get_data(as_text=True)
