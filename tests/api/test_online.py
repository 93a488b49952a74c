"""Online games through the API: the invite, the one-time claim, a token per seat,
expiry, and the high score class ``online``. Every refusal writes nothing."""

from __future__ import annotations

import json
import threading
from typing import Any
from urllib.parse import urlsplit

from flask import Flask

from service.ops import settings
from service.services import Services
from squares_testing.play import flask_send, play_own_moves

from .helpers import (
    CheckedClient,
    assert_error,
    bearer,
    create_game,
    entries_of,
    play_hint,
    snapshot,
    state_of,
)


def _online(client: CheckedClient, **body: Any) -> dict[str, Any]:
    return create_game(client, mode="online", player_name="Ann", **body)


def _claim(client: CheckedClient, game_id: str, code: str, name: str = "Bob") -> Any:
    return client.post(f"/api/games/{game_id}/claim", json={"code": code, "name": name})


def test_creating_an_online_game_gives_seat_1_token_and_an_invite_link(
        client: CheckedClient) -> None:
    created = _online(client)
    invite = created["invite"]
    url = urlsplit(invite["url"])
    assert url.path == f"/join/{created['game_id']}"
    assert url.fragment == f"code={invite['code']}"  # never sent to a server
    assert invite["expires_at"].endswith("Z")
    state = created["state"]
    assert state["mode"] == "online" and state["difficulty"] == "none"
    assert state["open_seat"] == 2 and state["seats"][1]["name"] == ""
    assert state["legal"] == {"seat": None, "lines": [], "can_advance": False}
    assert client.get(url.path).status_code == 200  # the join page


def test_other_modes_have_no_invite_and_no_open_seat(client: CheckedClient) -> None:
    created = create_game(client)
    assert created["invite"] is None and created["state"]["open_seat"] is None


def test_nobody_moves_before_the_friend_joins(client: CheckedClient) -> None:
    created = _online(client)
    game_id, token = created["game_id"], created["token"]
    before = snapshot(client, game_id)
    assert_error(client.post(f"/api/games/{game_id}/advance", json={}, headers=bearer(token)),
                 409, "waiting_for_opponent")
    assert snapshot(client, game_id) == before


def test_a_claim_names_seat_2_and_gives_it_its_own_token(client: CheckedClient) -> None:
    created = _online(client)
    game_id = created["game_id"]
    response = _claim(client, game_id, created["invite"]["code"], "  Bob  ")
    assert response.status_code == 201, response.get_json()
    claimed = response.get_json()
    assert claimed["seat"] == 2 and claimed["token"] != created["token"]
    assert [e["type"] for e in claimed["events"]] == ["seat_claimed"]
    assert claimed["events"][0]["data"] == {"seat": 2, "name": "Bob"}
    state = state_of(client, game_id)
    assert state["open_seat"] is None and state["seats"][1]["name"] == "Bob"
    assert state["legal"]["seat"] == state["first_seat"] == state["turn"]
    summary = client.get(f"/api/games/{game_id}").get_json()["summary"]
    assert summary["second_name"] == "Bob"
    # neither secret is in the stream
    stream = json.dumps(snapshot(client, game_id)[1])
    assert created["invite"]["code"] not in stream and claimed["token"] not in stream


def test_refused_claims_write_nothing(client: CheckedClient, services: Services) -> None:
    created = _online(client)
    game_id, code = created["game_id"], created["invite"]["code"]
    before = snapshot(client, game_id)
    assert_error(_claim(client, game_id, "not-the-code"), 403, "invite_invalid")
    assert_error(_claim(client, game_id, code, "   "), 422, "invalid_name")
    assert_error(_claim(client, game_id, code, "a\u0000b"), 422, "invalid_name")
    assert_error(client.post(f"/api/games/{game_id}/claim", json={"name": "Bob"}),
                 400, "invalid_request")
    assert_error(_claim(client, "no-such-game", code), 404, "game_not_found")
    assert snapshot(client, game_id) == before
    assert _claim(client, game_id, code).status_code == 201
    after = snapshot(client, game_id)
    assert_error(_claim(client, game_id, code, "Eve"), 409, "invite_claimed")
    assert_error(_claim(client, game_id, "not-the-code", "Eve"), 403, "invite_invalid")
    assert snapshot(client, game_id) == after


def test_a_game_that_is_not_online_cannot_be_claimed(client: CheckedClient) -> None:
    created = create_game(client, mode="two_players", second_name="Cem")
    assert_error(_claim(client, created["game_id"], "anything"), 409, "not_online")


def test_an_invitation_expires(client: CheckedClient, services: Services) -> None:
    services.invite_ttl_seconds = 0  # expired the moment it is made
    created = _online(client)
    game_id = created["game_id"]
    before = snapshot(client, game_id)
    details = assert_error(_claim(client, game_id, created["invite"]["code"]),
                           410, "invite_expired")
    assert details["expired_at"] == created["invite"]["expires_at"]  # the API's one form
    assert snapshot(client, game_id) == before
    assert state_of(client, game_id)["open_seat"] == 2


def test_each_token_moves_only_its_own_seat(client: CheckedClient) -> None:
    created = _online(client, hints=True)
    game_id = created["game_id"]
    tokens = {1: created["token"],
              2: _claim(client, game_id, created["invite"]["code"]).get_json()["token"]}
    state = state_of(client, game_id)
    first, second = state["first_seat"], 3 - state["first_seat"]
    before = snapshot(client, game_id)
    assert_error(client.post(f"/api/games/{game_id}/advance", json={},
                             headers=bearer(tokens[second])), 409, "not_your_turn")
    assert_error(client.post(f"/api/games/{game_id}/advance", json={},
                             headers=bearer("x" * 43)), 403, "token_invalid")
    assert snapshot(client, game_id) == before
    while state["turn"] == first:  # the first seat plays its whole turn
        state = play_hint(client, game_id, tokens[first], state)["state"]
    before = snapshot(client, game_id)
    assert_error(client.post(f"/api/games/{game_id}/advance", json={},
                             headers=bearer(tokens[first])), 409, "not_your_turn")
    assert snapshot(client, game_id) == before
    assert play_hint(client, game_id, tokens[second], state)["state"]["turn"] == second


def test_RULES_M2_online_both_humans_enter_the_online_table(
        client: CheckedClient, services: Services) -> None:
    created = _online(client, seed=None, hints=True)  # ranked
    game_id = created["game_id"]
    tokens = {1: created["token"],
              2: _claim(client, game_id, created["invite"]["code"]).get_json()["token"]}
    state = play_own_moves(flask_send(client), game_id, tokens)  # no hint asked
    entries = sorted((e["name"], e["score"], e["difficulty"])
                     for e in entries_of(client, game_id))
    assert entries == sorted([("Ann", state["scores"][0], "online"),
                              ("Bob", state["scores"][1], "online")])
    main = client.get("/api/highscores?height=7&width=9&limit=1000").get_json()
    assert [e for e in main["high_scores"] if e["game_id"] == game_id] == []
    assert services.admin.verify(game_id) == []


def test_concurrent_claims_give_the_seat_once(any_app: Flask) -> None:
    client = any_app.test_client()
    created = _online(client)
    game_id, code = created["game_id"], created["invite"]["code"]
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def claim(n: int) -> None:
        with any_app.test_client() as own:
            barrier.wait()
            response = own.post(f"/api/games/{game_id}/claim",
                                json={"code": code, "name": f"Friend {n}"})
            statuses.append(response.status_code)

    threads = [threading.Thread(target=claim, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(statuses) == [201] + [409] * 5
    version, events = snapshot(client, game_id)
    assert version == 2 and [e["type"] for e in events] == ["game_created", "seat_claimed"]


def test_the_claim_is_documented(client: CheckedClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    operation = spec["paths"]["/api/games/{game_id}/claim"]["post"]
    assert {"201", "403", "409", "410", "422"} <= set(operation["responses"])


def test_invite_links_use_the_public_address_when_one_is_set(app: Flask) -> None:
    app.extensions[settings.EXTENSION] = settings.of_app(app).replace(
        public_url="https://squares.example")
    created = _online(app.test_client())
    assert created["invite"]["url"] == (f"https://squares.example/join/{created['game_id']}"
                                        f"#code={created['invite']['code']}")


def test_the_pages_name_the_open_seat_and_the_online_class(client: CheckedClient) -> None:
    created = _online(client)
    game_id = created["game_id"]
    for page in ("/games", "/live", f"/watch/{game_id}", f"/games/{game_id}"):
        html = client.get(page).get_data(as_text=True)
        assert "(open seat)" in html and "online" in html, page
        assert '"who-2">Computer<' not in html and ">none<" not in html, page
    _claim(client, game_id, created["invite"]["code"], "Bob")
    html = client.get("/games").get_data(as_text=True)
    assert "Bob" in html and "(open seat)" not in html


def test_the_join_page_of_a_game_that_is_not_online_says_so(client: CheckedClient) -> None:
    game_id = create_game(client)["game_id"]
    html = client.get(f"/join/{game_id}").get_data(as_text=True)
    assert "no seat to join" in html and "join/main.js" not in html
    assert client.get("/join/no-such-game").status_code == 404
