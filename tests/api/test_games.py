"""Creating, reading and listing games; the board text, hints, health and high scores."""

from __future__ import annotations

from typing import Any

import pytest

from service.api import response_schemas as s
from service.domain.ranking import DEFAULT_HIGH_SCORES
from service.services import Services
from tests.factories import GameFactory, HighScoreFactory

from .helpers import (
    CheckedClient,
    assert_error,
    assert_valid,
    bearer,
    create_game,
    move_after_first_read,
    state_of,
)


def test_healthz_answers_ok_json(client: CheckedClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.get_json() == {"status": "ok"}
    assert_valid(s.HealthSchema, response.get_json())


# -- POST /api/games --------------------------------------------------------------------


def test_RULES_F1_create_defaults_to_19x33_vs_computer_moderate(client: CheckedClient) -> None:
    response = client.post("/api/games", json={"player_name": "Ali"})
    assert response.status_code == 201
    body = response.get_json()
    assert_valid(s.CreatedSchema, body)
    state = body["state"]
    assert (state["height"], state["width"]) == (19, 33)
    assert (state["mode"], state["difficulty"]) == ("vs_computer", "moderate")
    assert body["token"] and len(body["token"]) >= 32
    assert [e["type"] for e in body["events"]] == ["game_created"]
    assert body["events"][0]["seq"] == 1 and state["version"] == 1
    assert response.headers["Location"] == f"/api/games/{body['game_id']}"


def test_RULES_I4_M1_new_game_human_first_round_1_stage_1(client: CheckedClient) -> None:
    state = create_game(client, player_name="  Deniz  ", difficulty="hard")["state"]
    assert (state["round"], state["turn"], state["stage"]) == (1, 1, 1)
    assert state["seats"] == [
        {"seat": 1, "name": "Deniz", "kind": "human", "level": None, "letter": "P"},
        {"seat": 2, "name": "Computer", "kind": "computer", "level": "hard", "letter": "C"},
    ]
    assert state["legal"]["seat"] == 1 and state["legal"]["can_advance"] is True
    assert state["over"] is False and state["winner"] is None
    assert state["last_turn"] is None


def test_RULES_I5_same_seed_same_initial_lines(client: CheckedClient) -> None:
    one = create_game(client, seed=123, height=9, width=11)
    two = create_game(client, seed=123, height=9, width=11)
    other = create_game(client, seed=124, height=9, width=11)
    assert one["game_id"] != two["game_id"] and one["token"] != two["token"]
    assert one["state"]["lines"] == two["state"]["lines"]
    assert one["state"]["lines"] != other["state"]["lines"]
    assert one["events"][0]["data"]["seed"] == "123"  # a practice game's seed is public
    assert one["state"]["seed"] == "123" and one["state"]["ranked"] is False


def test_RULES_M2_two_players_seats(client: CheckedClient) -> None:
    state = create_game(client, mode="two_players", player_name="Ali",
                        second_name="Ayşe Çelik")["state"]
    assert [(x["name"], x["kind"], x["letter"]) for x in state["seats"]] == [
        ("Ali", "human", "P"), ("Ayşe Çelik", "human", "C")]
    assert state["difficulty"] == "none"


def test_RULES_M3_computer_vs_computer_seats(client: CheckedClient) -> None:
    state = create_game(client, mode="computer_vs_computer", difficulty="easy",
                        second_level="hard")["state"]
    assert [(x["kind"], x["level"]) for x in state["seats"]] == [
        ("computer", "easy"), ("computer", "hard")]


@pytest.mark.parametrize(("body", "code", "field"), [
    ({"player_name": ""}, "invalid_name", "player_name"),
    ({"player_name": "  \t "}, "invalid_name", "player_name"),
    ({"player_name": "x" * 33}, "invalid_name", "player_name"),
    ({"player_name": "Ali\x00Veli"}, "invalid_name", "player_name"),
    ({"player_name": "Ali\u3164Veli"}, "invalid_name", "player_name"),  # a blank letter
    ({"player_name": "Ali", "mode": "two_players"}, "invalid_name", "second_name"),
    ({"player_name": "Ali", "mode": "two_players", "second_name": " "}, "invalid_name",
     "second_name"),
    ({"player_name": "Ali", "difficulty": "impossible"}, "invalid_level", "difficulty"),
    ({"player_name": "Ali", "mode": "computer_vs_computer", "second_level": "godlike"},
     "invalid_level", "second_level"),
    ({"player_name": "Ali", "mode": "solo"}, "invalid_mode", None),
    ({"player_name": "Ali", "height": 8}, "invalid_field_size", None),
    ({"player_name": "Ali", "width": 10}, "invalid_field_size", None),
    ({"player_name": "Ali", "height": 5, "width": 5}, "invalid_field_size", None),
    ({"player_name": "Ali", "height": 43}, "invalid_field_size", None),
    ({"player_name": "Ali", "width": 83}, "invalid_field_size", None),
    ({"player_name": "Ali", "height": -7}, "invalid_field_size", None),
    ({"player_name": "Ali", "height": 10**30 + 1, "width": 10**30 + 1}, "invalid_field_size",
     None),
], ids=lambda v: v if isinstance(v, str) else None)
def test_RULES_F1_create_refuses_never_valid_values_with_422(
        client: CheckedClient, body: dict[str, Any], code: str, field: str | None) -> None:
    details = assert_error(client.post("/api/games", json=body), 422, code)
    if field is not None:
        assert details["field"] == field
    assert client.get("/api/games").get_json()["total"] == 0


@pytest.mark.parametrize(("body", "field"), [
    ({}, "player_name"),
    ({"player_name": None}, "player_name"),
    ({"player_name": 5}, "player_name"),
    ({"player_name": ["Ali"]}, "player_name"),
    ({"player_name": "Ali", "height": "19"}, "height"),
    ({"player_name": "Ali", "width": 33.0}, "width"),
    ({"player_name": "Ali", "seed": -1}, "seed"),
    ({"player_name": "Ali", "seed": 2**63}, "seed"),
    ({"player_name": "Ali", "seed": "seven"}, "seed"),
    ({"player_name": "Ali", "difficulty": 3}, "difficulty"),
    ({"player_name": "Ali", "mode": True}, "mode"),
    ({"player_name": "Ali", "colour": "blue"}, "colour"),
])
def test_create_refuses_wrong_types_with_400_field_errors(
        client: CheckedClient, body: dict[str, Any], field: str) -> None:
    details = assert_error(client.post("/api/games", json=body), 400, "invalid_request")
    assert field in details["fields"]["json"]
    assert client.get("/api/games").get_json()["total"] == 0


def test_create_keeps_unicode_and_html_names_literally(client: CheckedClient) -> None:
    name = "<b>Eda Fırat</b> 🎲"
    created = create_game(client, player_name=name)
    assert created["state"]["seats"][0]["name"] == name
    listed = client.get("/api/games").get_json()["games"]
    assert listed[0]["player_name"] == name


# -- GET /api/games/{id} ----------------------------------------------------------------


def test_get_game_returns_state_and_summary(client: CheckedClient) -> None:
    created = create_game(client, player_name="Sinem", height=9, width=11)
    response = client.get(f"/api/games/{created['game_id']}")
    assert response.status_code == 200
    body = response.get_json()
    assert_valid(s.GameSchema, body)
    assert body["state"] == created["state"]
    summary = body["summary"]
    assert summary["game_id"] == created["game_id"]
    assert (summary["status"], summary["player_name"], summary["second_name"]) == (
        "active", "Sinem", "Computer")
    assert summary["version"] == 1 and summary["finished_at"] is None
    assert summary["created_at"].endswith("Z")


@pytest.mark.parametrize("path", [
    "/api/games/{unknown}",
    "/api/games/{unknown}/hint",
    "/api/games/{unknown}/events",
    "/api/games/{unknown}/replay/1",
    "/api/games/{unknown}/board.txt",
    "/api/games/..%2F..%2Fetc%2Fpasswd",
    "/api/games/%00",
    "/api/games/" + "a" * 65,
    "/api/games/d%C3%A9j%C3%A0",
])
def test_unknown_game_is_404_game_not_found(client: CheckedClient, path: str) -> None:
    response = client.get(path.format(unknown="0" * 32))
    if response.status_code == 404 and response.get_json()["error"]["code"] == "not_found":
        return  # a path no route matches (e.g. an encoded slash)
    assert_error(response, 404, "game_not_found")


# -- GET /api/games ---------------------------------------------------------------------


@pytest.fixture
def listed(client: CheckedClient, services: Services) -> dict[str, Any]:
    """Five active games (two of Ali's, one two_players game with Ali as seat 2) and
    two finished ones."""
    ids = {
        "ali1": create_game(client, player_name="Ali")["game_id"],
        "veli": create_game(client, player_name="Veli")["game_id"],
        "ali2": create_game(client, player_name="Ali", difficulty="easy")["game_id"],
        "duo": create_game(client, mode="two_players", player_name="Can",
                           second_name="Ali")["game_id"],
        "cvc": create_game(client, mode="computer_vs_computer")["game_id"],
    }
    for n in range(2):
        ids[f"done{n}"] = GameFactory.create(services=services, finished=True, small=True,
                                             player_name="Bitti").game_id
    return ids


def test_list_games_filters_by_status(client: CheckedClient, listed: dict[str, str]) -> None:
    finished = client.get("/api/games?status=finished").get_json()
    assert finished["total"] == 2
    assert {g["game_id"] for g in finished["games"]} == {listed["done0"], listed["done1"]}
    assert all(g["status"] == "finished" and g["finished_at"] for g in finished["games"])
    active = client.get("/api/games?status=active").get_json()
    assert active["total"] == 5
    assert all(g["status"] == "active" for g in active["games"])
    every = client.get("/api/games").get_json()
    assert every["total"] == 7 and (every["limit"], every["offset"]) == (20, 0)


def test_list_games_filters_by_either_seats_player_name(client: CheckedClient,
                                                        listed: dict[str, str]) -> None:
    body = client.get("/api/games?player=Ali").get_json()
    assert body["total"] == 3
    assert {g["game_id"] for g in body["games"]} == {listed["ali1"], listed["ali2"],
                                                     listed["duo"]}
    both = client.get("/api/games?player=Bitti&status=finished").get_json()
    assert both["total"] == 2
    assert client.get("/api/games?player=Bitti&status=active").get_json()["total"] == 0
    assert client.get("/api/games?player=Nobody").get_json() == {
        "games": [], "total": 0, "limit": 20, "offset": 0}


def test_list_games_pages_newest_first_without_gaps(client: CheckedClient,
                                                    listed: dict[str, str]) -> None:
    pages = []
    for offset in range(0, 8, 3):
        body = client.get(f"/api/games?limit=3&offset={offset}").get_json()
        assert (body["limit"], body["offset"], body["total"]) == (3, offset, 7)
        pages.extend(g["game_id"] for g in body["games"])
    assert sorted(pages) == sorted(listed.values())
    created = [g["created_at"] for g in client.get("/api/games?limit=100").get_json()["games"]]
    assert created == sorted(created, reverse=True)
    beyond = client.get("/api/games?offset=100").get_json()
    assert beyond["games"] == [] and beyond["total"] == 7


@pytest.mark.parametrize("query", [
    "limit=0", "limit=101", "limit=-1", "limit=many", "limit=1.5", "offset=-1",
    "offset=99999999999999999999", "status=paused", "status=", "player=", "player=%00",
    "player=" + "x" * 65,
])
def test_list_games_refuses_bad_queries(client: CheckedClient, query: str) -> None:
    details = assert_error(client.get(f"/api/games?{query}"), 400, "invalid_request")
    assert "query" in details["fields"]


# -- board.txt and hint -----------------------------------------------------------------


def test_board_txt_is_plain_text(client: CheckedClient) -> None:
    created = create_game(client, player_name="Tarık", height=19, width=33)
    response = client.get(f"/api/games/{created['game_id']}/board.txt")
    assert response.status_code == 200
    assert response.mimetype == "text/plain"
    text = response.get_data(as_text=True)
    assert text.startswith("+---+") and "Tarık" in text and text.endswith("\n")
    assert len(text.splitlines()[0]) == 4 * 16 + 1  # 16 boxes of "+---"


def test_RULES_E1_a_hint_names_a_legal_action_and_the_first_makes_the_game_assisted(
        client: CheckedClient) -> None:
    created = create_game(client, height=9, width=11, seed=None)  # ranked
    state, game_id = created["state"], created["game_id"]
    assert (state["assisted"], state["table"]) == (False, "vs_computer")
    url = f"/api/games/{game_id}/hint"
    assert_error(client.get(url), 401, "token_missing")  # a spectator unranks nobody
    assert_error(client.get(url, headers=bearer("x" * 43)), 403, "token_invalid")
    assert state_of(client, game_id)["version"] == 1  # the refusals wrote nothing
    body = client.get(url, headers=bearer(created["token"])).get_json()
    assert_valid(s.HintSchema, body)
    assert body["seat"] == 1
    if body["action"] == "line":
        assert [body["x"], body["y"]] in state["legal"]["lines"]
    else:
        assert set(body) == {"seat", "action", "version", "assisted"}
    # the first hint: one event, hint_used; the board as it was
    assert (body["version"], body["assisted"]) == (2, True)
    after = state_of(client, game_id)
    assert (after["version"], after["assisted"], after["table"]) == (2, True, None)
    assert after["lines"] == state["lines"] and after["legal"] == state["legal"]
    events = client.get(f"/api/games/{game_id}/events?after=1").get_json()["events"]
    assert [(e["type"], e["data"]) for e in events] == [("hint_used", {"seat": 1})]
    # later hints write nothing
    again = client.get(url, headers=bearer(created["token"])).get_json()
    assert again == body and state_of(client, game_id)["version"] == 2


# -- high scores ------------------------------------------------------------------------


def test_RULES_E2_default_high_score_table(client: CheckedClient) -> None:
    response = client.get("/api/highscores")
    assert response.status_code == 200
    entries = response.get_json()["high_scores"]
    expected = sorted(DEFAULT_HIGH_SCORES, key=lambda e: -e[1])
    assert [(e["name"], e["score"]) for e in entries] == expected
    assert [e["rank"] for e in entries] == [1, 2, 3, 4, 5]
    # RULES E2's entries have no level (docs/rules.md, "How each table ranks")
    assert all(e["game_id"] is None and e["difficulty"] is None for e in entries)


def test_RULES_E2_high_scores_descending_with_limit(client: CheckedClient,
                                                    services: Services) -> None:
    for score in (400, 1, 250):
        HighScoreFactory.create(services=services, score=score)
    body = client.get("/api/highscores?limit=3").get_json()
    assert [e["score"] for e in body["high_scores"]] == [400, 325, 250]
    every = client.get("/api/highscores?limit=1000").get_json()["high_scores"]
    assert len(every) == 8
    scores = [e["score"] for e in every]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "limit=ten", "limit="])
def test_high_scores_refuse_bad_limits(client: CheckedClient, query: str) -> None:
    assert_error(client.get(f"/api/highscores?{query}"), 400, "invalid_request")


def test_every_json_endpoint_answer_is_checked_against_its_schema(
        client: CheckedClient) -> None:
    """The checking client validated at least one answer of every response schema."""
    created = create_game(client, height=9, width=11, seed=1)
    game_id, token = created["game_id"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    x, y = created["state"]["legal"]["lines"][0]
    assert client.get("/healthz").status_code == 200
    assert client.get("/api/games").status_code == 200
    assert client.get(f"/api/games/{game_id}").status_code == 200
    assert client.post(f"/api/games/{game_id}/lines", json={"x": x, "y": y},
                       headers=auth).status_code == 200
    assert client.post(f"/api/games/{game_id}/advance", headers=auth).status_code == 200
    assert client.get(f"/api/games/{game_id}/events?after=1").status_code == 200
    assert client.get(f"/api/games/{game_id}/replay/2").status_code == 200
    assert client.get(f"/api/games/{game_id}/hint", headers=auth).status_code == 200
    assert client.get("/api/highscores").status_code == 200
    assert client.get("/api/games/nope").status_code == 404
    assert set(client.checked) == {
        "CreatedSchema", "HealthSchema", "GameListSchema", "GameSchema", "MoveResultSchema",
        "EventListSchema", "ReplaySchema", "HintSchema", "HighScoreListSchema", "ErrorSchema",
    }


def test_get_game_state_and_summary_agree_when_a_move_lands_mid_request(
        client: CheckedClient, services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    created = create_game(client, height=9, width=11, seed=1)
    game_id, token = created["game_id"], created["token"]
    moved = move_after_first_read(monkeypatch, services, game_id, token)
    body = client.get(f"/api/games/{game_id}").get_json()
    assert moved == [2]
    assert body["state"]["version"] == body["summary"]["version"]
    assert body["state"]["stage"] == body["summary"]["stage"]
