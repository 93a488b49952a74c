"""The live games list without a browser: ``/live.json`` (what live.js polls to keep
``/live`` current) holds the same rows as the page, in the same order (the latest
move first), by the same rule as ``GET /api/games?status=active``: an online game's
open seat is named once claimed, a game that ends, is abandoned or is past its time
(even before the sweep wrote its abandonment) leaves both; an unchanged list is a
304 to a poll that sends its ETag.

``/live.json`` is a page's data, not part of the API (no response schema in the
OpenAPI document), so it is read with a plain test client; the API's answers here
go through the checking one.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import update

from service.services import Services
from service.store import events_table, games_table, utcnow

from .helpers import CheckedClient, bearer, create_game

ROW = re.compile(r'<tr data-game-id="([0-9a-f]+)"')


def live_json(app: Flask) -> dict[str, Any]:
    response = FlaskClient(app, app.response_class).get("/live.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-cache"
    data: dict[str, Any] = response.get_json()
    return data


def page_ids(client: CheckedClient) -> list[str]:
    """The game ids of the rows `/live` renders, in order."""
    return ROW.findall(client.get("/live").get_data(as_text=True))


def active_ids(client: CheckedClient) -> set[str]:
    return {g["game_id"] for g in client.get("/api/games?status=active").get_json()["games"]}


def one_action(client: CheckedClient, game_id: str, token: str) -> None:
    state = client.get(f"/api/games/{game_id}").get_json()["state"]
    body: dict[str, Any] = {"expected_version": state["version"]}
    if state["legal"]["lines"]:
        x, y = state["legal"]["lines"][0]
        response = client.post(f"/api/games/{game_id}/lines", json=body | {"x": x, "y": y},
                               headers=bearer(token))
    else:
        response = client.post(f"/api/games/{game_id}/advance", json=body,
                               headers=bearer(token))
    assert response.status_code == 200, response.get_json()


def test_live_json_is_the_page_s_list_by_the_api_s_rule(
        app: Flask, client: CheckedClient, services: Services) -> None:
    empty = live_json(app)
    assert empty == {"games": [], "total": 0,
                     "caption": "0 games with a move in the last 10 minutes, the latest move first."}
    html = client.get("/live").get_data(as_text=True)
    assert re.search(r'<div class="table-wrap" id="live-list" hidden>', html)
    assert re.search(r'<p id="live-empty">Nobody is playing', html)
    assert 'data-poll-ms="5000"' in html and 'data-source="/live.json"' in html
    assert re.search(r'<script type="module" src="/assets/live/main\.js[^"]*"></script>', html)

    ranked = create_game(client, seed=None, player_name="Deniz")
    online = create_game(client, mode="online", player_name="Nil")
    played = create_game(client, player_name="Ece")
    one_action(client, played["game_id"], played["token"])

    data = live_json(app)
    ids = [g["game_id"] for g in data["games"]]
    assert ids[0] == played["game_id"]  # the latest move first
    assert ids == page_ids(client)
    assert set(ids) == active_ids(client) == {ranked["game_id"], online["game_id"],
                                              played["game_id"]}
    assert (data["total"], data["caption"]) == (
        3, "3 games with a move in the last 10 minutes, the latest move first.")
    rows = {g["game_id"]: g for g in data["games"]}
    first = rows[ranked["game_id"]]
    assert first == {
        "game_id": ranked["game_id"], "version": 1, "round": 1, "ranked": True,
        "assisted": False,
        "player_name": "Deniz", "second_seat": "Computer", "score1": 0, "score2": 0,
        "last_move": first["last_move"], "kind": "moderate", "field": "7 × 9",
        "length": "1 step · 1 round", "watch_url": f"/watch/{ranked['game_id']}",
        "first_url": "/players/Deniz", "second_url": None,  # a computer has no page
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", first["last_move"])
    assert rows[online["game_id"]]["second_seat"] == "(open seat)"
    assert rows[played["game_id"]]["version"] > 1
    assert rows[played["game_id"]]["ranked"] is False
    assert rows[played["game_id"]]["length"].startswith(f"{rows[played['game_id']]['version']} steps")

    # the friend claims the seat: the name replaces "(open seat)"
    code = online["invite"]["code"]
    claimed = client.post(f"/api/games/{online['game_id']}/claim",
                          json={"code": code, "name": "Bora"})
    assert claimed.status_code == 201
    row = next(g for g in live_json(app)["games"] if g["game_id"] == online["game_id"])
    assert (row["second_seat"], row["version"]) == ("Bora", 2)

    # a week later nobody moved: past their time, not yet abandoned, the games are
    # gone from the list, the page and the API alike; then the sweep abandons them
    services.clock = lambda: utcnow() + timedelta(days=8)
    assert live_json(app)["games"] == [] and page_ids(client) == []
    assert active_ids(client) == set()
    swept = services.retention.abandon_stale(now=utcnow() + timedelta(days=8))
    assert {game_id for game_id, _ in swept.abandoned} == {
        ranked["game_id"], online["game_id"], played["game_id"]}
    services.clock = utcnow
    data = live_json(app)
    assert (data["games"], data["total"]) == ([], 0)
    assert page_ids(client) == [] and active_ids(client) == set()


def test_a_game_past_its_time_leaves_while_the_others_stay(
        app: Flask, client: CheckedClient, services: Services) -> None:
    old = create_game(client, player_name="Selin")
    young = create_game(client, player_name="Umut", seed=9)
    # `old` was last moved just over the retention time ago (SQUARES_ABANDON_AFTER)
    then = utcnow() - services.abandon_after - timedelta(minutes=1)
    with services.store.engine.begin() as conn:
        conn.execute(update(events_table).where(events_table.c.game_id == old["game_id"])
                     .values(recorded_at=then))
        conn.execute(update(games_table).where(games_table.c.game_id == old["game_id"])
                     .values(created_at=then, updated_at=then))
    assert [g["game_id"] for g in live_json(app)["games"]] == page_ids(client)
    assert page_ids(client) == [young["game_id"]]
    assert active_ids(client) == {young["game_id"]}
    assert services.queries.get_summary(old["game_id"]).status == "active"  # not yet swept


def test_an_unchanged_list_is_a_304_to_a_poll_with_its_etag(
        app: Flask, client: CheckedClient) -> None:
    plain = FlaskClient(app, app.response_class)
    created = create_game(client, player_name="Ada")
    first = plain.get("/live.json")
    etag = first.headers["ETag"]
    again = plain.get("/live.json", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["Content-Security-Policy"]  # the security headers on a 304 too
    one_action(client, created["game_id"], created["token"])
    moved = plain.get("/live.json", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.get_json()["games"][0]["version"] > 1


def test_names_are_text_in_the_page_and_the_json(app: Flask, client: CheckedClient) -> None:
    create_game(client, player_name="<b>Ada</b>")
    html = client.get("/live").get_data(as_text=True)
    assert "&lt;b&gt;Ada&lt;/b&gt;" in html and "<b>Ada" not in html
    assert live_json(app)["games"][0]["player_name"] == "<b>Ada</b>"


def test_live_lists_the_games_moved_in_the_last_ten_minutes(
        app: Flask, client: CheckedClient, services: Services) -> None:
    """Issue 35, item 6: a game whose latest move is older than ten minutes leaves
    /live (the API's ``status=active`` still has it; the replays list shows it)."""
    quiet = create_game(client, player_name="Selin")
    busy = create_game(client, player_name="Umut", seed=9)
    then = utcnow() - timedelta(minutes=11)
    with services.store.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.game_id == quiet["game_id"])
                     .values(updated_at=then))
    assert page_ids(client) == [g["game_id"] for g in live_json(app)["games"]] == [
        busy["game_id"]]
    assert active_ids(client) == {quiet["game_id"], busy["game_id"]}
    assert live_json(app)["caption"].startswith("1 game with a move in the last 10 minutes")
    one_action(client, quiet["game_id"], quiet["token"])  # a move brings it back, first
    assert page_ids(client) == [quiet["game_id"], busy["game_id"]]
    assert "Replays" in client.get("/live").get_data(as_text=True)
