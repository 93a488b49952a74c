"""Whole games through the API only: vs_computer unassisted and from the hints, two
players sharing a token, computer against computer; and what they leave in the high
score tables (RULES E1, M2; tests/api/test_trusted_highscores.py has the attacks)."""

from __future__ import annotations

from typing import Any

import pytest

from service.services import Services
from squares_testing.play import flask_send, own_move, play_own_moves

from .helpers import (
    CheckedClient,
    assert_error,
    bearer,
    create_game,
    entries_of,
    play_to_end,
    play_unassisted,
    snapshot,
    state_of,
)


def assert_events_fold_to(client: CheckedClient, game_id: str, services: Services,
                          final: dict[str, Any]) -> list[dict[str, Any]]:
    """The stream is gap-free (RULES V1), the game verifies, and the last replay step
    is the final state (RULES V2)."""
    version, events = snapshot(client, game_id)
    assert [e["seq"] for e in events] == list(range(1, version + 1))
    assert version == final["version"]
    assert services.admin.verify(game_id) == []
    last = client.get(f"/api/games/{game_id}/replay/{version}").get_json()
    assert last["state"] == final
    return events


@pytest.mark.parametrize(("height", "width"), [(7, 9), (9, 11)])
def test_RULES_E1_T5_whole_unassisted_game_enters_the_high_score_once(
        client: CheckedClient, services: Services, height: int, width: int) -> None:
    created = create_game(client, player_name="Sinem Okur", difficulty="easy",
                          height=height, width=width, seed=None)  # ranked
    game_id, token = created["game_id"], created["token"]
    final = play_unassisted(client, game_id, token)
    assert final["over"] is True and final["legal"]["seat"] is None
    assert final["assisted"] is False and final["table"] == "vs_computer"
    assert final["winner"] in (0, 1, 2)
    assert _empty(final) == []  # RULES T5: no empty slot left
    events = assert_events_fold_to(client, game_id, services, final)
    types = [e["type"] for e in events]
    assert types.count("game_over") == 1 and types.count("high_scores_entered") == 1
    game_over = events[types.index("game_over")]["data"]
    assert game_over["scores"] == final["scores"]

    summary = client.get(f"/api/games/{game_id}").get_json()["summary"]
    assert summary["status"] == "finished" and summary["finished_at"] is not None
    assert [summary["score1"], summary["score2"]] == final["scores"]
    listed = client.get("/api/games?status=finished").get_json()["games"]
    assert [g["game_id"] for g in listed] == [game_id]

    [entry] = entries_of(client, game_id)
    assert (entry["name"], entry["score"], entry["difficulty"], entry["height"],
            entry["width"], entry["mode"], entry["hints_recorded"]) == (
        "Sinem Okur", final["scores"][0], "easy", height, width, "vs_computer", True)
    # more requests, refused or not, never enter it again
    for _ in range(2):
        assert_error(client.post(f"/api/games/{game_id}/advance", headers=bearer(token)),
                     409, "game_over")
        assert_error(client.post(f"/api/games/{game_id}/lines", json={"x": 1, "y": 0},
                                 headers=bearer(token)), 409, "game_over")
        assert_error(client.get(f"/api/games/{game_id}/hint", headers=bearer(token)), 409,
                     "game_over")
        assert client.get(f"/api/games/{game_id}").status_code == 200
        assert client.get("/api/highscores?limit=3").status_code == 200
    assert len(entries_of(client, game_id)) == 1
    assert snapshot(client, game_id)[0] == final["version"]


def test_RULES_E1_a_game_played_from_the_hints_ends_and_replays_but_enters_no_table(
        client: CheckedClient, services: Services) -> None:
    created = create_game(client, player_name="Sinem Okur", difficulty="easy",
                          seed=None)  # ranked, 7 x 9
    game_id, token = created["game_id"], created["token"]
    final, moves = play_to_end(client, game_id, token)  # a hint before every move
    assert moves >= 2 and final["over"] and final["winner"] in (0, 1, 2)
    assert (final["assisted"], final["table"]) == (True, None)
    events = assert_events_fold_to(client, game_id, services, final)
    types = [e["type"] for e in events]
    assert types.count("hint_used") == 1 and "high_scores_entered" not in types
    assert entries_of(client, game_id) == []
    summary = client.get(f"/api/games/{game_id}").get_json()["summary"]
    assert (summary["status"], summary["assisted"], summary["ranked"]) == (
        "finished", True, True)


def _empty(state: dict[str, Any]) -> list[tuple[int, int]]:
    drawn = {(line["x"], line["y"]) for line in state["lines"]}
    return [(x, y) for y in range(state["height"]) for x in range(state["width"])
            if (x + y) % 2 == 1 and (x, y) not in drawn]


def test_RULES_E2_a_finished_games_entry_ranks_in_its_level_before_the_defaults(
        client: CheckedClient) -> None:
    """A table ranks each level on its own, the hardest first; the default entries,
    which have no level, come after every level (docs/rules.md, "How each table
    ranks")."""
    created = create_game(client, player_name="Ali", difficulty="easy", seed=None,
                          height=19, width=33)  # the default field: its table has them
    final = play_own_moves(flask_send(client), created["game_id"], created["token"])
    table = client.get("/api/highscores?limit=6").get_json()["high_scores"]
    assert len(table) == 6
    entry, *defaults = table
    assert (entry["name"], entry["difficulty"], entry["rank"]) == ("Ali", "easy", 1)
    assert entry["score"] == final["scores"][0]
    scores = [e["score"] for e in defaults]
    assert scores == sorted(scores, reverse=True)
    assert [e["difficulty"] for e in defaults] == [None] * 5
    assert [e["rank"] for e in defaults] == [1, 2, 3, 4, 5]


def test_RULES_M2_two_players_share_one_token_and_both_enter_their_table(
        client: CheckedClient, services: Services) -> None:
    created = create_game(client, mode="two_players", player_name="Ali",
                          second_name="Ayşe Çelik", height=9, width=11, seed=None)
    game_id, token = created["game_id"], created["token"]
    state = created["state"]
    seats_moved: set[int] = set()
    moves = 0
    while not state["over"]:
        result = own_move(flask_send(client), game_id, token, state)
        # no computer ever moves: each answer holds only the moving seat's events
        assert {e["data"].get("seat") for e in result["events"]} <= {state["turn"], None}
        assert "move_explained" not in [e["type"] for e in result["events"]]
        seats_moved.add(state["turn"])
        state = result["state"]
        moves += 1
        assert moves < 2000
    assert seats_moved == {1, 2}
    assert_events_fold_to(client, game_id, services, state)
    entries = sorted(entries_of(client, game_id), key=lambda e: e["name"])
    assert [(e["name"], e["score"], e["difficulty"], e["mode"]) for e in entries] == [
        ("Ali", state["scores"][0], "two_players", "two_players"),
        ("Ayşe Çelik", state["scores"][1], "two_players", "two_players"),
    ]
    main = client.get("/api/highscores?height=9&width=11&limit=1000").get_json()
    assert [e for e in main["high_scores"] if e["game_id"] == game_id] == []
    assert_error(client.post(f"/api/games/{game_id}/computer-turn", headers=bearer(token)),
                 409, "not_computer_turn")


def test_RULES_M2_seat_two_is_refused_the_computer_turn_endpoint(
        client: CheckedClient) -> None:
    created = create_game(client, mode="two_players", player_name="Ali", second_name="Veli")
    response = client.post(f"/api/games/{created['game_id']}/computer-turn",
                           headers=bearer(created["token"]))
    assert assert_error(response, 409, "not_computer_turn")["turn"] == 1


def test_RULES_M3_computer_vs_computer_driven_by_computer_turn(
        client: CheckedClient, services: Services) -> None:
    created = create_game(client, mode="computer_vs_computer", difficulty="easy",
                          second_level="moderate", height=9, width=11, seed=99)
    game_id, token = created["game_id"], created["token"]
    path = f"/api/games/{game_id}/computer-turn"
    assert_error(client.post(path), 401, "token_missing")
    assert_error(client.post(path, headers=bearer("nope")), 403, "token_invalid")
    # humans cannot move here
    assert_error(client.post(f"/api/games/{game_id}/advance", headers=bearer(token)), 409,
                 "not_your_turn")
    state = created["state"]
    turns = 0
    while not state["over"]:
        response = client.post(path, headers=bearer(token))
        assert response.status_code == 200, response.get_json()
        result = response.get_json()
        seat = state["turn"]
        assert result["events"][0]["seq"] == state["version"] + 1
        assert {e["data"].get("seat") for e in result["events"]} <= {seat, None}
        explained = [e for e in result["events"] if e["type"] == "move_explained"]
        assert explained and explained[0]["data"]["level"] == ("easy", "moderate")[seat - 1]
        state = result["state"]
        assert state["over"] or state["turn"] == 3 - seat
        turns += 1
        assert turns < 500
    assert turns >= 2
    assert_events_fold_to(client, game_id, services, state)
    assert entries_of(client, game_id) == []  # RULES M3: no high score
    assert_error(client.post(path, headers=bearer(token)), 409, "not_computer_turn")
    assert state_of(client, game_id)["over"] is True
