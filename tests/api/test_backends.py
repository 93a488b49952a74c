"""A few API paths on every configured database (SQLite; PostgreSQL when
``SQUARES_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

from typing import Any

from .helpers import assert_error, bearer, create_game, entries_of, play_unassisted, snapshot


def test_RULES_E1_whole_game_and_its_single_high_score(any_client: Any) -> None:
    created = create_game(any_client, player_name="Eda Fırat", difficulty="easy",
                          seed=None)  # ranked: a chosen seed never enters the table
    game_id, token = created["game_id"], created["token"]
    final = play_unassisted(any_client, game_id, token)  # no hint: RULES E1
    assert_error(any_client.post(f"/api/games/{game_id}/advance", headers=bearer(token)), 409,
                 "game_over")
    mine = entries_of(any_client, game_id)
    assert [(e["name"], e["score"]) for e in mine] == [("Eda Fırat", final["scores"][0])]
    listed = any_client.get("/api/games?status=finished&player=Eda%20F%C4%B1rat").get_json()
    assert [g["game_id"] for g in listed["games"]] == [game_id]


def test_RULES_V3_stale_version_and_bad_requests_change_nothing(any_client: Any) -> None:
    created = create_game(any_client, height=9, width=11, seed=1)
    game_id, token = created["game_id"], created["token"]
    x, y = created["state"]["legal"]["lines"][0]
    ok = any_client.post(f"/api/games/{game_id}/lines",
                         json={"x": x, "y": y, "expected_version": 1}, headers=bearer(token))
    assert ok.status_code == 200
    before = snapshot(any_client, game_id)
    stale = any_client.post(f"/api/games/{game_id}/advance", json={"expected_version": 1},
                            headers=bearer(token))
    assert assert_error(stale, 409, "version_conflict")["current_version"] == 2
    for body in ({"x": 10**30, "y": 1}, {"x": -1, "y": 0}, {"x": 0, "y": 0}):
        response = any_client.post(f"/api/games/{game_id}/lines", json=body,
                                   headers=bearer(token))
        assert response.status_code == 422
    huge = any_client.get(f"/api/games?offset={2**31 - 1}")
    assert huge.status_code == 200 and huge.get_json()["games"] == []
    assert snapshot(any_client, game_id) == before
