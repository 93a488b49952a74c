"""Issue 23 through the API: hints are a player's action in an online game, a chosen
seed makes a practice game that never enters the high score table, and the state and
summary say which a game is."""

from __future__ import annotations

from typing import Any

from .helpers import CheckedClient, assert_error, bearer, create_game, play_to_end, state_of


def _online_with_friend(client: CheckedClient, **body: Any) -> tuple[str, dict[int, str]]:
    created = create_game(client, mode="online", player_name="Ann", **body)
    game_id = created["game_id"]
    claim = client.post(f"/api/games/{game_id}/claim",
                        json={"code": created["invite"]["code"], "name": "Bob"})
    assert claim.status_code == 201
    return game_id, {1: created["token"], 2: claim.get_json()["token"]}


def test_RULES_online_games_have_no_hints_unless_their_creator_turns_them_on(
        client: CheckedClient) -> None:
    game_id, tokens = _online_with_friend(client)
    state = state_of(client, game_id)
    assert state["hints"] is False
    for headers in ({}, bearer(tokens[1]), bearer(tokens[2])):
        assert_error(client.get(f"/api/games/{game_id}/hint", headers=headers),
                     403, "hints_off")


def test_RULES_online_hints_only_for_the_token_of_the_seat_to_move(
        client: CheckedClient) -> None:
    game_id, tokens = _online_with_friend(client, hints=True)
    state = state_of(client, game_id)
    mover, other = state["turn"], 3 - state["turn"]
    assert state["hints"] is True and mover == state["first_seat"]
    hint_url = f"/api/games/{game_id}/hint"
    assert_error(client.get(hint_url), 401, "token_missing")  # not a spectator
    assert_error(client.get(hint_url, headers=bearer("x" * 43)), 403, "token_invalid")
    assert_error(client.get(hint_url, headers=bearer(tokens[other])), 409, "not_your_turn")
    answer = client.get(hint_url, headers=bearer(tokens[mover]))
    assert answer.status_code == 200 and answer.get_json()["seat"] == mover


def test_RULES_vs_computer_and_two_player_games_keep_their_hints_for_their_token(
        client: CheckedClient) -> None:
    for body in ({}, {"mode": "two_players", "second_name": "Cem"}):
        created = create_game(client, **body)
        game_id = created["game_id"]
        assert state_of(client, game_id)["hints"] is True
        # RULES E1: a hint is the player's own (a spectator's would unrank the game)
        assert_error(client.get(f"/api/games/{game_id}/hint"), 401, "token_missing")
        answer = client.get(f"/api/games/{game_id}/hint", headers=bearer(created["token"]))
        assert answer.status_code == 200 and answer.get_json()["assisted"] is True


def test_RULES_a_practice_game_never_enters_the_high_score_table(
        client: CheckedClient) -> None:
    created = create_game(client, player_name="Ali", difficulty="easy", seed=42)
    assert created["state"]["ranked"] is False and created["state"]["seed"] == "42"
    final, _ = play_to_end(client, created["game_id"], created["token"])
    assert final["over"] and final["ranked"] is False
    summary = client.get(f"/api/games/{created['game_id']}").get_json()["summary"]
    assert summary["status"] == "finished" and summary["ranked"] is False
    table = client.get("/api/highscores?limit=1000").get_json()["high_scores"]
    assert [e for e in table if e["game_id"] == created["game_id"]] == []


def test_RULES_a_ranked_game_shows_its_commitment_and_no_seed_while_it_runs(
        client: CheckedClient) -> None:
    created = create_game(client, seed=None)
    state = created["state"]
    assert state["ranked"] is True and state["seed"] is None
    assert len(state["seed_commitment"]) == 64
    assert created["events"][0]["data"]["seed"] is None
    summary = client.get(f"/api/games/{created['game_id']}").get_json()["summary"]
    assert summary["ranked"] is True
