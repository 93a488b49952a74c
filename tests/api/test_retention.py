"""Retention through the API: the cap on active games per client address (429
``too_many_games``), games past their time gone from ``/live`` and
``?status=active``, and a move on an abandoned game refused (409 ``game_abandoned``)
with nothing written."""

from __future__ import annotations

from datetime import timedelta

from service.services import Services
from service.store import utcnow

from .helpers import CheckedClient, assert_error, bearer, create_game, snapshot, state_of

LATER = timedelta(days=8)


def test_an_address_past_its_cap_of_active_games_gets_a_429(
        client: CheckedClient, services: Services) -> None:
    services.active_games_per_client = 2
    for seed in (1, 2):
        create_game(client, seed=seed)
    refused = client.post("/api/games", json={"player_name": "Ada", "height": 7, "width": 9})
    assert assert_error(refused, 429, "too_many_games") == {"limit": 2}
    assert services.queries.list_games()[1] == 2  # nothing written
    other = client.post("/api/games", json={"player_name": "Ada", "height": 7, "width": 9},
                        environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 201  # another address has its own count


def test_the_cap_counts_only_the_address_s_live_games(client: CheckedClient,
                                                      services: Services) -> None:
    services.active_games_per_client = 1
    create_game(client)
    assert client.post("/api/games", json={"player_name": "Ada"}).get_json()["error"][
        "code"] == "too_many_games"
    services.clock = lambda: utcnow() + LATER  # the first game is past its time
    create_game(client)


def test_games_past_their_time_leave_the_live_list_and_the_active_games(
        client: CheckedClient, services: Services) -> None:
    waiting = create_game(client, mode="online", player_name="Ann")
    other = create_game(client, seed=8)
    services.clock = lambda: utcnow() + timedelta(days=1, seconds=1)  # the invite expired

    page = client.get("/live").get_data(as_text=True)
    # (`other` is not on /live either now: it has had no move for a day, and /live lists
    # the last ten minutes' games, issue 35; the API's active games keep it.)
    assert other["game_id"] not in page and waiting["game_id"] not in page
    active = client.get("/api/games?status=active").get_json()
    assert [g["game_id"] for g in active["games"]] == [other["game_id"]]
    assert active["total"] == 1

    state = state_of(client, waiting["game_id"])  # a read writes the abandonment
    assert (state["over"], state["abandoned"], state["winner"]) == (
        True, "invite_expired", None)
    abandoned = client.get("/api/games?status=abandoned").get_json()["games"]
    assert [(g["game_id"], g["status"]) for g in abandoned] == [
        (waiting["game_id"], "abandoned")]


def test_a_move_on_an_abandoned_game_is_a_409_and_writes_nothing(
        client: CheckedClient, services: Services) -> None:
    created = create_game(client)
    game_id, token = created["game_id"], created["token"]
    assert created["state"]["abandoned"] is None
    services.clock = lambda: utcnow() + LATER
    assert_error(client.post(f"/api/games/{game_id}/advance", json={}, headers=bearer(token)),
                 409, "game_abandoned")
    before = snapshot(client, game_id)
    assert before[0] == 2 and before[1][-1]["type"] == "game_abandoned"
    assert before[1][-1]["data"] == {"reason": "idle"}
    for path, body in (("advance", {}), ("lines", {"x": 1, "y": 0}),
                       ("lines", {"x": 1, "y": 0, "expected_version": 2})):
        details = assert_error(client.post(f"/api/games/{game_id}/{path}", json=body,
                                           headers=bearer(token)), 409, "game_abandoned")
        assert details == {"reason": "idle"}
    assert_error(client.get(f"/api/games/{game_id}/hint"), 409, "game_abandoned")
    assert snapshot(client, game_id) == before
    summary = client.get(f"/api/games/{game_id}").get_json()["summary"]
    assert summary["status"] == "abandoned" and summary["finished_at"] is None
    assert "Abandoned (idle)" in client.get(f"/api/games/{game_id}/board.txt").get_data(
        as_text=True)
