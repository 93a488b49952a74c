"""Rematches of online games (issue 35, item 2) through the API: the first player to
ask makes a new online game with the seats swapped and an invite for the friend; the
friend accepts by asking too (the old game's token, no code) or by the invite link;
the rematch plays to the end with a token per seat and verifies. Every refusal
writes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import Flask

from service.services import Services
from squares_testing.play import flask_send, play_hints

from .helpers import CheckedClient, assert_error, bearer, create_game, snapshot, state_of


def finished_online(client: CheckedClient, **body: Any) -> dict[str, Any]:
    """Ann (seat 1) and Bob (seat 2) play an online game on 7 x 9 to the end; the
    game id and each seat's token."""
    body.setdefault("seed", 7)
    created = create_game(client, mode="online", player_name="Ann", hints=True, **body)
    game_id = created["game_id"]
    claimed = client.post(f"/api/games/{game_id}/claim",
                          json={"code": created["invite"]["code"], "name": "Bob"}).get_json()
    tokens = {1: created["token"], 2: claimed["token"]}
    assert play_hints(flask_send(client), game_id, tokens)["over"]
    return {"game_id": game_id, "tokens": tokens}


def rematch(client: CheckedClient, game_id: str, token: str | None) -> Any:
    headers = {} if token is None else bearer(token)
    return client.post(f"/api/games/{game_id}/rematch", headers=headers)


def test_a_rematch_swaps_the_seats_and_the_friend_accepts_it(any_app: Flask,
                                                            any_client: CheckedClient) -> None:
    """On SQLite and PostgreSQL."""
    client, services = any_client, any_app.extensions["squares"]
    old = finished_online(client)
    old_id, tokens = old["game_id"], old["tokens"]
    assert client.get(f"/api/games/{old_id}/rematch").get_json() == {"rematch": None}

    made = rematch(client, old_id, tokens[1])  # Ann asks first
    assert made.status_code == 201, made.get_json()
    ann = made.get_json()
    new_id = ann["game_id"]
    assert ann["created"] is True and ann["seat"] == 2 and ann["invite"]["url"].endswith(
        f"/join/{new_id}#code={ann['invite']['code']}")
    state = ann["state"]
    assert [s["name"] for s in state["seats"]] == ["", "Ann"]
    assert state["open_seat"] == 1 and state["mode"] == "online" and state["hints"]
    assert (state["height"], state["width"]) == (7, 9)
    waiting = client.get(f"/api/games/{old_id}/rematch").get_json()["rematch"]
    assert waiting == {"game_id": new_id, "seat": 1, "claimed": False, "by": "Ann"}
    # The lists and pages name the open seat 1 (Ann took seat 2).
    for page in ("/games", "/live", f"/watch/{new_id}", f"/join/{new_id}"):
        html = client.get(page).get_data(as_text=True)
        assert "(open seat)" in html or "Ann invites you" in html, page
    assert "Ann invites you" in client.get(f"/join/{new_id}").get_data(as_text=True)
    # Ann cannot make a second one; nobody moves before Bob joins.
    details = assert_error(rematch(client, old_id, tokens[1]), 409, "rematch_exists")
    assert details["game_id"] == new_id
    assert_error(client.post(f"/api/games/{new_id}/advance", json={},
                             headers=bearer(ann["token"])), 409, "waiting_for_opponent")

    accepted = rematch(client, old_id, tokens[2])  # Bob accepts with his old token
    assert accepted.status_code == 200, accepted.get_json()
    bob = accepted.get_json()
    assert (bob["game_id"], bob["seat"], bob["created"], bob["invite"]) == (new_id, 1, False,
                                                                            None)
    assert [e["type"] for e in bob["events"]] == ["seat_claimed"]
    assert [s["name"] for s in state_of(client, new_id)["seats"]] == ["Bob", "Ann"]
    assert client.get(f"/api/games/{old_id}/rematch").get_json()["rematch"]["claimed"] is True
    assert_error(rematch(client, old_id, tokens[2]), 409, "invite_claimed")

    # Each token moves its own seat: Bob seat 1, Ann seat 2; the rematch plays out,
    # and its stream proves legal (its first event re-created with the creator in seat 2).
    final = play_hints(flask_send(client), new_id, {1: bob["token"], 2: ann["token"]})
    assert final["over"]
    assert services.admin.verify(new_id) == []


def test_the_friend_may_take_the_rematch_by_its_invite_link(client: CheckedClient) -> None:
    old = finished_online(client)
    bob = rematch(client, old["game_id"], old["tokens"][2]).get_json()  # Bob asks first
    assert bob["seat"] == 1 and bob["state"]["open_seat"] == 2
    joined = client.post(f"/api/games/{bob['game_id']}/claim",
                         json={"code": bob["invite"]["code"], "name": "Ann"})
    assert joined.status_code == 201 and joined.get_json()["seat"] == 2
    assert_error(rematch(client, old["game_id"], old["tokens"][1]), 409, "invite_claimed")


def test_a_practice_rematch_keeps_its_seed_so_each_plays_the_other_side(
        client: CheckedClient) -> None:
    old = finished_online(client, seed=11)
    first = state_of(client, old["game_id"])
    made = rematch(client, old["game_id"], old["tokens"][1]).get_json()["state"]
    assert made["ranked"] is False and made["seed"] == first["seed"] == "11"
    assert made["first_seat"] == first["first_seat"]  # the same seat: now the other player's
    ranked = finished_online(client, seed=None)
    again = rematch(client, ranked["game_id"], ranked["tokens"][2]).get_json()["state"]
    assert again["ranked"] is True and again["seed"] is None


def test_refused_rematches_write_nothing(client: CheckedClient, services: Services) -> None:
    running = create_game(client, mode="online", player_name="Ann")
    game_id = running["game_id"]
    before = snapshot(client, game_id)
    assert_error(rematch(client, game_id, running["token"]), 409, "no_rematch")  # nobody came
    code = running["invite"]["code"]
    client.post(f"/api/games/{game_id}/claim", json={"code": code, "name": "Bob"})
    assert_error(rematch(client, game_id, running["token"]), 409, "no_rematch")  # not over
    assert_error(rematch(client, game_id, None), 401, "token_missing")
    assert_error(rematch(client, game_id, "x" * 43), 403, "token_invalid")
    two = create_game(client, mode="two_players", second_name="Cem")
    assert_error(rematch(client, two["game_id"], two["token"]), 409, "not_online")
    assert_error(rematch(client, "0" * 32, "x" * 43), 404, "game_not_found")
    assert snapshot(client, game_id)[0] == before[0] + 1  # the claim only
    assert client.get(f"/api/games/{game_id}/rematch").get_json() == {"rematch": None}


def test_a_rematch_whose_invite_expired_makes_way_for_a_new_one(
        client: CheckedClient, services: Services) -> None:
    old = finished_online(client)
    stale = rematch(client, old["game_id"], old["tokens"][1]).get_json()["game_id"]
    now = services.clock()
    services.clock = lambda: now + timedelta(seconds=services.invite_ttl_seconds + 1)
    assert client.get(f"/api/games/{old['game_id']}/rematch").get_json() == {"rematch": None}
    fresh = rematch(client, old["game_id"], old["tokens"][2])
    assert fresh.status_code == 201, fresh.get_json()
    assert fresh.get_json()["game_id"] != stale and fresh.get_json()["seat"] == 1


def test_the_join_page_asks_what_a_claim_would_meet(client: CheckedClient,
                                                     services: Services) -> None:
    created = create_game(client, mode="online", player_name="Ann")
    game_id, code = created["game_id"], created["invite"]["code"]

    def check(code: str) -> str:
        answer = client.post(f"/api/games/{game_id}/invite-check", json={"code": code})
        assert answer.status_code == 200
        status: str = answer.get_json()["status"]
        return status

    before = snapshot(client, game_id)
    assert check(code) == "open"
    assert check("not-the-code") == check("") == "invite_invalid"
    assert snapshot(client, game_id) == before
    client.post(f"/api/games/{game_id}/claim", json={"code": code, "name": "Bob"})
    assert check(code) == "invite_claimed"
    other = create_game(client, mode="online", player_name="Ann")
    services.invite_ttl_seconds = 0
    late = create_game(client, mode="online", player_name="Ann")
    assert client.post(f"/api/games/{late['game_id']}/invite-check",
                       json={"code": late["invite"]["code"]}).get_json()["status"] == \
        "invite_expired"
    assert client.post(f"/api/games/{other['game_id']}/invite-check",
                       json={"code": other["invite"]["code"]}).get_json()["status"] == "open"
    two = create_game(client, mode="two_players", second_name="Cem")
    assert client.post(f"/api/games/{two['game_id']}/invite-check",
                       json={"code": "x"}).get_json()["status"] == "not_online"
