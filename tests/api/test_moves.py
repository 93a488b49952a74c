"""Moves: POST lines / advance / computer-turn, tokens, versions and the rule errors.

Every refused move is checked to leave the game exactly as it was (same version,
same events).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from service.api import response_schemas as s
from service.services import Services
from tests.factories import GameFactory, build_stream, store_stream

from .helpers import (
    CheckedClient,
    assert_error,
    assert_valid,
    bearer,
    create_game,
    snapshot,
    state_of,
)


@contextmanager
def unchanged(client: CheckedClient, game_id: str) -> Iterator[None]:
    before = snapshot(client, game_id)
    yield
    assert snapshot(client, game_id) == before


def empty_slots(state: dict[str, Any]) -> list[list[int]]:
    drawn = {(line["x"], line["y"]) for line in state["lines"]}
    return [[x, y] for y in range(state["height"]) for x in range(state["width"])
            if (x + y) % 2 == 1 and (x, y) not in drawn]


class Game:
    """A vs_computer game on a 9 x 11 field, moved through the API."""

    def __init__(self, client: CheckedClient, **body: Any) -> None:
        body.setdefault("height", 9)
        body.setdefault("width", 11)
        body.setdefault("seed", 1)
        body.setdefault("difficulty", "easy")
        created = create_game(client, **body)
        self.client = client
        self.id: str = created["game_id"]
        self.token: str = created["token"]
        self.state: dict[str, Any] = created["state"]

    def post(self, action: str, body: Any = None, token: str | None = "own") -> Any:
        headers = bearer(self.token if token == "own" else token) if token else {}
        return self.client.post(f"/api/games/{self.id}/{action}", json=body, headers=headers)

    def ok(self, action: str, body: Any = None) -> dict[str, Any]:
        response = self.post(action, body)
        assert response.status_code == 200, response.get_json()
        result: dict[str, Any] = response.get_json()
        assert_valid(s.MoveResultSchema, result)
        self.state = result["state"]
        return result

    def line(self, x: int, y: int, **extra: Any) -> dict[str, Any]:
        return self.ok("lines", {"x": x, "y": y, **extra})

    def refused(self, action: str, body: Any, status: int, code: str,
                token: str | None = "own") -> dict[str, Any]:
        with unchanged(self.client, self.id):
            return assert_error(self.post(action, body, token), status, code)


@pytest.fixture
def game(client: CheckedClient) -> Game:
    return Game(client)


# -- lines and advance ------------------------------------------------------------------


def test_RULES_T2_place_a_stage1_line_that_forms_a_square(game: Game) -> None:
    x, y = game.state["legal"]["lines"][0]
    result = game.line(x, y, expected_version=1)
    assert result["game_id"] == game.id
    [event] = result["events"]
    assert (event["type"], event["seq"]) == ("line_placed", 2)
    assert event["data"]["seat"] == 1 and (event["data"]["x"], event["data"]["y"]) == (x, y)
    assert event["recorded_at"].endswith("Z")
    assert {"x": x, "y": y, "by": "P"} in result["state"]["lines"]
    assert result["state"]["version"] == 2 and result["state"]["scores"][0] == 1
    assert result["state"]["current_turn"]["lines"] == [[x, y]]
    assert state_of(game.client, game.id) == result["state"]


def test_RULES_T1_stage1_line_without_square_is_409(game: Game) -> None:
    legal = game.state["legal"]["lines"]
    x, y = next(p for p in empty_slots(game.state) if p not in legal)
    details = game.refused("lines", {"x": x, "y": y}, 409, "stage1_needs_square")
    assert (details["x"], details["y"]) == (x, y)


def test_RULES_T1_T3_T4_stages_through_the_api(client: CheckedClient) -> None:
    """advance -> stage 2; one line; advance -> stage 3 with three pieces; advance ->
    the computer's whole turn comes back in the same answer. (9 x 13: a 9 x 11 stage 3
    has no 3-line piece since rules edition 3.)"""
    game = Game(client, width=13)
    result = game.ok("advance", {"expected_version": 1})
    assert [e["type"] for e in result["events"]] == ["stage_advanced"]
    assert game.state["stage"] == 2 and game.state["legal"]["can_advance"] is False
    game.refused("advance", {}, 409, "stage2_line_missing")
    x, y = game.state["legal"]["lines"][0]
    game.line(x, y)
    assert game.state["legal"] == {"seat": 1, "lines": [], "can_advance": True}
    x2, y2 = empty_slots(game.state)[0]
    game.refused("lines", {"x": x2, "y": y2}, 409, "stage2_line_done")
    result = game.ok("advance", None)
    assert [e["type"] for e in result["events"]] == ["stage_advanced"] + ["piece_inserted"] * 3
    assert [e["data"]["size"] for e in result["events"][1:]] == [3, 2, 1]
    assert game.state["stage"] == 3 and len(game.state["last_pieces"]) == 3
    x3, y3 = empty_slots(game.state)[0]
    game.refused("lines", {"x": x3, "y": y3}, 409, "wrong_stage")
    version = game.state["version"]
    result = game.ok("advance", {"expected_version": version})
    seats = [e["data"].get("seat") for e in result["events"]]
    assert seats[0] == 1 and set(seats[1:]) == {2}  # the human's advance, then seat 2
    assert "move_explained" in [e["type"] for e in result["events"]]  # RULES A2
    assert [e["seq"] for e in result["events"]] == list(
        range(version + 1, version + 1 + len(result["events"])))
    state = game.state
    assert (state["turn"], state["stage"], state["round"]) == (1, 1, 2)
    assert state["last_turn"]["seat"] == 2 and state["explanations"][0]["seat"] == 2


def test_advance_accepts_an_empty_body(game: Game) -> None:
    response = game.client.post(f"/api/games/{game.id}/advance", headers=bearer(game.token))
    assert response.status_code == 200
    assert response.get_json()["state"]["stage"] == 2


@pytest.mark.parametrize(("x", "y", "status", "code"), [
    (0, 1, 409, "slot_taken"),  # a wall (RULES I1, F4)
    (0, 0, 422, "not_a_line_slot"),  # a dot (RULES F2)
    (1, 1, 422, "not_a_line_slot"),  # a box
    (-1, 0, 422, "out_of_field"),
    (0, -2, 422, "out_of_field"),
    (11, 0, 422, "out_of_field"),
    (1, 9, 422, "out_of_field"),
    (10**30, 1, 422, "out_of_field"),
    (-(2**63), 2**63, 422, "out_of_field"),
])
def test_RULES_F2_F4_line_outside_or_not_a_slot(game: Game, x: int, y: int, status: int,
                                                code: str) -> None:
    details = game.refused("lines", {"x": x, "y": y}, status, code)
    assert (details["x"], details["y"]) == (x, y)


def test_RULES_F4_a_drawn_line_cannot_be_drawn_again(game: Game) -> None:
    x, y = game.state["legal"]["lines"][0]
    game.line(x, y)
    game.refused("lines", {"x": x, "y": y}, 409, "slot_taken")


# -- tokens -----------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["lines", "advance", "computer-turn"])
def test_missing_token_is_401_with_www_authenticate(game: Game, action: str) -> None:
    for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Basic YWxpOnZlbGk="},
                    {"Authorization": game.token}):
        with unchanged(game.client, game.id):
            response = game.client.post(f"/api/games/{game.id}/{action}",
                                        json={"x": 1, "y": 2}
                                        if action == "lines" else {}, headers=headers)
            assert_error(response, 401, "token_missing")
            assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("action", ["lines", "advance", "computer-turn"])
def test_wrong_or_other_games_token_is_403(client: CheckedClient, game: Game,
                                           action: str) -> None:
    other = create_game(client)
    body = {"x": 1, "y": 2} if action == "lines" else {}
    for token in (other["token"], "not-the-token", game.token + "x", game.token[:-1],
                  "t" * 4000, "ü"):
        game.refused(action, body, 403, "token_invalid", token=token)


def test_bearer_scheme_is_case_insensitive(game: Game) -> None:
    response = game.client.post(f"/api/games/{game.id}/advance",
                                headers={"Authorization": f"bearer {game.token}"})
    assert response.status_code == 200


def test_a_token_moves_only_its_own_game(client: CheckedClient, game: Game) -> None:
    other = create_game(client)
    response = client.post(f"/api/games/{other['game_id']}/advance", headers=bearer(other["token"]))
    assert response.status_code == 200
    assert state_of(client, game.id)["version"] == 1


def test_unknown_game_is_404_even_with_a_token(game: Game) -> None:
    for action in ("lines", "advance", "computer-turn"):
        body = {"x": 1, "y": 2} if action == "lines" else None
        response = game.client.post(f"/api/games/{'0' * 32}/{action}", json=body,
                                    headers=bearer(game.token))
        assert_error(response, 404, "game_not_found")


# -- versions (RULES V3) ----------------------------------------------------------------


@pytest.mark.parametrize("action", ["lines", "advance"])
def test_RULES_V3_stale_expected_version_is_409_with_current_version(game: Game,
                                                                     action: str) -> None:
    x, y = game.state["legal"]["lines"][0]
    game.line(x, y, expected_version=1)
    x2, y2 = game.state["legal"]["lines"][0] if game.state["legal"]["lines"] else (1, 2)
    for stale in (1, 3, 1000, 2**31 - 1):
        body = {"expected_version": stale}
        if action == "lines":
            body.update(x=x2, y=y2)
        details = game.refused(action, body, 409, "version_conflict")
        assert details["current_version"] == 2


@pytest.mark.parametrize("version", [0, -1, 2**31, 10**30, "2", 1.0, True, [1]])
def test_expected_version_of_a_wrong_type_or_range_is_400(game: Game, version: Any) -> None:
    details = game.refused("advance", {"expected_version": version}, 400, "invalid_request")
    assert "expected_version" in details["fields"]["json"]


def test_RULES_V3_expected_version_null_means_any(game: Game) -> None:
    game.ok("advance", {"expected_version": None})
    assert game.state["version"] == 2


# -- turns ------------------------------------------------------------------------------


def test_a_computer_turn_left_unplayed_is_played_by_the_next_command(
        client: CheckedClient, services: Services) -> None:
    """A vs_computer game stored with the computer to move (a crash came between the
    human's write and the computer's): the human's next command first plays the
    computer's turn, then its own; the answer holds both, in order."""
    stream = build_stream(seed=5, player_name="Ali", height=9, width=11, turns=1)
    assert stream.state.turn == 2 and not stream.state.over
    stored = store_stream(services, stream)
    game_id, token = stored.game_id, stored.token
    version = stream.state.version
    response = client.post(f"/api/games/{game_id}/advance", json={}, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    result = response.get_json()
    seqs = [e["seq"] for e in result["events"]]
    assert seqs == list(range(version + 1, version + 1 + len(seqs)))
    seats = [e["data"].get("seat") for e in result["events"]]
    assert seats[-1] == 1 and set(seats[:-1]) <= {2, None} and len(seats) > 1
    assert result["state"]["turn"] == 1 and result["state"]["stage"] == 2
    again = client.post(f"/api/games/{game_id}/computer-turn", headers=bearer(token))
    assert assert_error(again, 409, "not_computer_turn")["turn"] == 1
    assert services.admin.verify(game_id) == []


def test_a_computer_turn_left_unplayed_is_played_by_the_next_read(
        client: CheckedClient, services: Services) -> None:
    stream = build_stream(seed=6, player_name="Ali", turns=1)  # 19 x 33: no early end
    stored = store_stream(services, stream)
    assert services.admin.waiting_on_computer()[0].game_id == stored.game_id
    state = client.get(f"/api/games/{stored.game_id}").get_json()["state"]
    assert state["turn"] == 1 and state["version"] > stream.state.version
    hint = client.get(f"/api/games/{stored.game_id}/hint", headers=bearer(stored.token))
    assert hint.get_json()["seat"] == 1
    assert services.admin.waiting_on_computer() == []


def test_computer_turn_in_a_humans_turn_is_409(game: Game) -> None:
    details = game.refused("computer-turn", None, 409, "not_computer_turn")
    assert details["turn"] == 1


def test_RULES_T5_a_finished_game_refuses_every_move(client: CheckedClient,
                                                     services: Services) -> None:
    finished = GameFactory.create(services=services, finished=True, small=True)
    game_id, token = finished.game_id, finished.token
    assert state_of(client, game_id)["over"] is True
    with unchanged(client, game_id):
        assert_error(client.post(f"/api/games/{game_id}/lines", json={"x": 1, "y": 0},
                                 headers=bearer(token)), 409, "game_over")
        assert_error(client.post(f"/api/games/{game_id}/advance", headers=bearer(token)),
                     409, "game_over")
        assert_error(client.post(f"/api/games/{game_id}/computer-turn",
                                 headers=bearer(token)), 409, "not_computer_turn")
        assert_error(client.get(f"/api/games/{game_id}/hint"), 409, "game_over")
    state = state_of(client, game_id)
    assert state["legal"] == {"seat": None, "lines": [], "can_advance": False}
