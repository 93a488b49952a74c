"""Resigning and aborting through the API (docs/rules.md, "Resigning and aborting"),
on SQLite and PostgreSQL: ``POST /api/games/{id}/resign`` and ``.../abort`` with a
seat's token, authorised as moves are; a resigned game is finished (the other seat
won) and enters no table, an aborted one ends with no result. Every refusal writes
nothing."""

from __future__ import annotations

from typing import Any

from .helpers import (
    CheckedClient,
    assert_error,
    bearer,
    create_game,
    entries_of,
    snapshot,
    state_of,
)


def _post(client: CheckedClient, game_id: str, what: str, token: str | None) -> Any:
    headers = bearer(token) if token is not None else {}
    return client.post(f"/api/games/{game_id}/{what}", headers=headers)


def _summary(client: CheckedClient, game_id: str) -> dict[str, Any]:
    summary: dict[str, Any] = client.get(f"/api/games/{game_id}").get_json()["summary"]
    return summary


def _online(client: CheckedClient, claimed: bool = True) -> tuple[str, str, str | None]:
    """An online game: (its id, the creator's token, the friend's once claimed)."""
    created = create_game(client, mode="online", player_name="Ann", seed=None)
    game_id = created["game_id"]
    if not claimed:
        return game_id, created["token"], None
    response = client.post(f"/api/games/{game_id}/claim",
                           json={"code": created["invite"]["code"], "name": "Bob"})
    assert response.status_code == 201, response.get_json()
    return game_id, created["token"], response.get_json()["token"]


def _move(client: CheckedClient, game_id: str, token: str, state: dict[str, Any]
          ) -> dict[str, Any]:
    """One move of the seat to move: its stage-2 line (the first free slot) when it
    is in stage 2 with none drawn, else an advance (a whole turn is four). The new
    state."""
    if state["stage"] == 2 and not state["legal"]["can_advance"]:
        x, y = state["legal"]["lines"][0]
        response = client.post(f"/api/games/{game_id}/lines", headers=bearer(token),
                               json={"x": x, "y": y, "expected_version": state["version"]})
    else:
        response = client.post(f"/api/games/{game_id}/advance", headers=bearer(token),
                               json={"expected_version": state["version"]})
    assert response.status_code == 200, response.get_json()
    moved: dict[str, Any] = response.get_json()["state"]
    return moved


# -- resigning -----------------------------------------------------------------------


def test_resigning_against_the_computer_ends_the_game_unranked_the_computer_winning(
        any_client: CheckedClient) -> None:
    created = create_game(any_client, seed=None)  # ranked: its seed is secret
    game_id, token = created["game_id"], created["token"]
    state = _move(any_client, game_id, token, created["state"])  # into stage 2
    assert created["state"]["table"] == "vs_computer" and state["seed"] is None
    response = _post(any_client, game_id, "resign", token)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [e["type"] for e in body["events"]] == ["game_resigned", "game_over",
                                                   "seed_revealed"]
    assert body["events"][0]["data"] == {"seat": 1}
    assert body["events"][1]["data"]["winner"] == 2
    final = body["state"]
    assert (final["over"], final["winner"], final["resigned"], final["aborted"]) == (
        True, 2, 1, None)
    assert final["seed"] is not None and final["table"] is None
    assert final["legal"] == {"seat": None, "lines": [], "can_advance": False}
    summary = _summary(any_client, game_id)
    assert (summary["status"], summary["winner"]) == ("finished", 2)
    assert summary["finished_at"] is not None
    assert entries_of(any_client, game_id) == []  # no high score
    # the stream has them, as the replay and the live feed show every event
    assert [e["type"] for e in snapshot(any_client, game_id)[1][-3:]] == [
        "game_resigned", "game_over", "seed_revealed"]
    feed = any_client.get(f"/api/games/{game_id}/live").get_data(as_text=True)
    assert "event: game_resigned" in feed
    step = any_client.get(f"/api/games/{game_id}/replay/{final['version'] - 2}").get_json()
    assert step["event"]["type"] == "game_resigned" and not step["state"]["over"]


def test_a_finished_game_refuses_a_resignation_and_the_moves_after_one(
        any_client: CheckedClient) -> None:
    created = create_game(any_client)
    game_id, token = created["game_id"], created["token"]
    assert _post(any_client, game_id, "resign", token).status_code == 200
    before = snapshot(any_client, game_id)
    assert_error(_post(any_client, game_id, "resign", token), 409, "game_over")
    assert_error(any_client.post(f"/api/games/{game_id}/advance", json={},
                                 headers=bearer(token)), 409, "game_over")
    assert snapshot(any_client, game_id) == before


def test_a_resignation_needs_the_game_s_token(any_client: CheckedClient) -> None:
    created = create_game(any_client)
    game_id = created["game_id"]
    other = create_game(any_client)["token"]
    before = snapshot(any_client, game_id)
    assert_error(_post(any_client, game_id, "resign", None), 401, "token_missing")
    assert_error(_post(any_client, game_id, "resign", other), 403, "token_invalid")
    assert_error(_post(any_client, "0" * 32, "resign", other), 404, "game_not_found")
    assert snapshot(any_client, game_id) == before


def test_on_one_screen_the_seat_to_move_resigns(any_client: CheckedClient) -> None:
    created = create_game(any_client, mode="two_players", second_name="Cem")
    game_id, token = created["game_id"], created["token"]
    state = created["state"]
    for _ in range(4):  # seat 1's whole turn (advance, line, advance, advance)
        state = _move(any_client, game_id, token, state)
    assert state["turn"] == 2
    final = _post(any_client, game_id, "resign", token).get_json()["state"]
    assert (final["resigned"], final["winner"]) == (2, 1)


def test_online_either_player_resigns_on_either_turn_and_the_other_wins(
        any_client: CheckedClient) -> None:
    for resigning in (1, 2):
        game_id, ann, bob = _online(any_client)
        assert bob is not None
        token = ann if resigning == 1 else bob
        response = _post(any_client, game_id, "resign", token)
        assert response.status_code == 200, response.get_json()
        final = response.get_json()["state"]
        assert (final["resigned"], final["winner"]) == (resigning, 3 - resigning)
        assert _summary(any_client, game_id)["winner"] == 3 - resigning
        assert entries_of(any_client, game_id) == []  # no online table either


def test_online_a_resignation_before_the_friend_joined_is_refused(
        any_client: CheckedClient) -> None:
    game_id, ann, _ = _online(any_client, claimed=False)
    before = snapshot(any_client, game_id)
    assert_error(_post(any_client, game_id, "resign", ann), 409, "waiting_for_opponent")
    assert snapshot(any_client, game_id) == before


# -- aborting -------------------------------------------------------------------------


def test_an_online_game_is_aborted_before_both_moved_with_no_result(
        any_client: CheckedClient) -> None:
    game_id, ann, bob = _online(any_client)
    assert bob is not None
    state = state_of(any_client, game_id)
    mover = ann if state["turn"] == 1 else bob
    for _ in range(4):  # the first seat's whole turn (advance, line, advance, advance)
        state = _move(any_client, game_id, mover, state)
    waiter = bob if mover == ann else ann  # has not moved: may still abort
    response = _post(any_client, game_id, "abort", waiter)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert [e["type"] for e in body["events"]] == ["game_aborted", "seed_revealed"]
    final = body["state"]
    assert (final["over"], final["winner"], final["aborted"], final["resigned"]) == (
        True, None, 2 if waiter == bob else 1, None)
    summary = _summary(any_client, game_id)
    assert (summary["status"], summary["winner"], summary["finished_at"]) == (
        "aborted", None, None)
    listed = any_client.get("/api/games?status=aborted").get_json()["games"]
    assert [g["game_id"] for g in listed] == [game_id]
    assert entries_of(any_client, game_id) == []
    before = snapshot(any_client, game_id)
    assert_error(_post(any_client, game_id, "abort", mover), 409, "game_over")
    assert_error(_post(any_client, game_id, "resign", mover), 409, "game_over")
    assert snapshot(any_client, game_id) == before


def test_the_creator_aborts_before_the_friend_joins_and_the_invite_is_spent(
        any_client: CheckedClient) -> None:
    created = create_game(any_client, mode="online", player_name="Ann")
    game_id, code = created["game_id"], created["invite"]["code"]
    response = _post(any_client, game_id, "abort", created["token"])
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["state"]["aborted"] == 1
    check = any_client.post(f"/api/games/{game_id}/invite-check", json={"code": code})
    assert check.get_json()["status"] == "invite_expired"
    assert_error(any_client.post(f"/api/games/{game_id}/claim",
                                 json={"code": code, "name": "Bob"}), 409, "game_over")


def test_an_abort_once_both_moved_is_409_abort_too_late(any_client: CheckedClient) -> None:
    game_id, ann, bob = _online(any_client)
    assert bob is not None
    state = state_of(any_client, game_id)
    tokens = {1: ann, 2: bob}
    for _ in range(5):  # the first seat's whole turn, then the second seat's advance
        state = _move(any_client, game_id, tokens[state["turn"]], state)
    before = snapshot(any_client, game_id)
    for token in (ann, bob):
        assert_error(_post(any_client, game_id, "abort", token), 409, "abort_too_late")
    assert snapshot(any_client, game_id) == before


def test_only_an_online_game_is_aborted_and_only_with_a_seat_s_token(
        any_client: CheckedClient) -> None:
    created = create_game(any_client)
    game_id, token = created["game_id"], created["token"]
    before = snapshot(any_client, game_id)
    assert_error(_post(any_client, game_id, "abort", token), 409, "abort_online_only")
    online, ann, _ = _online(any_client, claimed=False)
    assert_error(_post(any_client, online, "abort", None), 401, "token_missing")
    assert_error(_post(any_client, online, "abort", token), 403, "token_invalid")
    assert snapshot(any_client, game_id) == before
    assert not state_of(any_client, online)["over"]
