"""Helpers for the JSON API tests: a test client that checks every answer against the
marshmallow schemas, error assertions and a game driver that plays from the hints."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from marshmallow import Schema
from werkzeug.test import TestResponse

from service.api import account
from service.api import response_schemas as s
from service.api.analysis import AnalysisSchema
from service.api.highscores import HighScoreListSchema
from service.api.online import InviteStatusSchema, RematchSchema, RematchWaitsSchema
from service.api.players import PlayerSchema
from squares_testing.play import until_over

GAME = r"/api/games/[^/]+"

# (method, path pattern) -> the schema of its 2xx JSON answers
RESPONSE_SCHEMAS: list[tuple[str, re.Pattern[str], type[Schema]]] = [
    ("GET", re.compile(r"^/(healthz|readyz)$"), s.HealthSchema),
    ("POST", re.compile(r"^/api/games$"), s.CreatedSchema),
    ("GET", re.compile(r"^/api/games$"), s.GameListSchema),
    ("GET", re.compile(rf"^{GAME}$"), s.GameSchema),
    ("POST", re.compile(rf"^{GAME}/(lines|advance|computer-turn|resign|abort)$"),
     s.MoveResultSchema),
    ("POST", re.compile(rf"^{GAME}/claim$"), s.ClaimedSchema),
    ("POST", re.compile(rf"^{GAME}/invite-check$"), InviteStatusSchema),
    ("POST", re.compile(rf"^{GAME}/rematch$"), RematchSchema),
    ("GET", re.compile(rf"^{GAME}/rematch$"), RematchWaitsSchema),
    ("GET", re.compile(rf"^{GAME}/events$"), s.EventListSchema),
    ("GET", re.compile(rf"^{GAME}/replay/[^/]+$"), s.ReplaySchema),
    ("GET", re.compile(rf"^{GAME}/hint$"), s.HintSchema),
    ("GET", re.compile(rf"^{GAME}/analysis$"), AnalysisSchema),
    ("GET", re.compile(r"^/api/highscores$"), HighScoreListSchema),
    ("GET", re.compile(r"^/api/players/.+$"), PlayerSchema),
    ("GET", re.compile(r"^/api/daily(/[^/]+)?$"), s.DailySchema),
    ("GET", re.compile(r"^/api/ratings$"), s.RatingsSchema),
    ("POST", re.compile(r"^/api/account/(claim|sign-in|passkeys)/options$|"
                        r"^/api/account/recovery$"), account.OptionsSchema),
    ("POST", re.compile(r"^/api/account/claim$"), account.ClaimedNameSchema),
    ("POST", re.compile(r"^/api/account/sign-in$"), account.PlayerRefSchema),
    ("GET", re.compile(r"^/api/account$"), account.AccountSchema),
    ("GET", re.compile(r"^/api/account/passkeys$"), account.PasskeyListSchema),
    ("POST", re.compile(r"^/api/account/passkeys$"), account.AddedPasskeySchema),
]

# JSON 2xx answers that have no marshmallow schema of their own
UNCHECKED = ("/api/openapi.json",)


def schema_for(method: str, path: str) -> type[Schema] | None:
    for want_method, pattern, schema in RESPONSE_SCHEMAS:
        if method == want_method and pattern.match(path):
            return schema
    return None


def assert_valid(schema: type[Schema], payload: Any) -> None:
    """`payload` is exactly what `schema` documents (unknown keys are errors too)."""
    errors = schema().validate(payload)
    assert errors == {}, f"{schema.__name__}: {errors}"


class CheckedClient(FlaskClient):
    """A Flask test client that validates every JSON answer it receives.

    Errors (4xx/5xx) must have the one error shape (`ErrorSchema`); 2xx answers of
    the JSON endpoints must match their response schema. `checked` counts the
    answers validated against a response schema, per schema name.
    """

    checked: dict[str, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.checked = {}

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        self._check(response)
        return response

    def _check(self, response: TestResponse) -> None:
        request = response.request
        path, method = request.path, request.method
        is_json = response.mimetype == "application/json"
        if response.status_code >= 400:
            if path.startswith("/api/") or path == "/healthz":
                assert is_json, f"{method} {path}: a non-JSON {response.status_code}"
                assert_valid(s.ErrorSchema, response.get_json())
                self._count("ErrorSchema")
            return
        if method == "HEAD" or not is_json or path in UNCHECKED:
            return
        schema = schema_for(method, path)
        assert schema is not None, f"no response schema known for {method} {path}"
        assert_valid(schema, response.get_json())
        self._count(schema.__name__)

    def _count(self, name: str) -> None:
        self.checked[name] = self.checked.get(name, 0) + 1


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_error(response: TestResponse, status: int, code: str) -> dict[str, Any]:
    """Assert the status and error code; return the error's details."""
    body = response.get_json()
    assert response.status_code == status, (response.status_code, body)
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    details: dict[str, Any] = body["error"]["details"]
    return details


def create_game(client: FlaskClient, **body: Any) -> dict[str, Any]:
    """POST /api/games (a 7 x 9 field with seed 7 unless given: a practice game;
    ``seed=None`` for a ranked one); the 201 answer."""
    body.setdefault("player_name", "Ayşe")
    body.setdefault("height", 7)
    body.setdefault("width", 9)
    body.setdefault("seed", 7)
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    assert response.headers["Location"] == f"/api/games/{created['game_id']}"
    return created


def snapshot(client: FlaskClient, game_id: str) -> tuple[int, list[dict[str, Any]]]:
    """(version, every event): to show that a refused request changed nothing."""
    response = client.get(f"/api/games/{game_id}/events")
    assert response.status_code == 200
    body = response.get_json()
    return body["version"], body["events"]


def state_of(client: FlaskClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200
    state: dict[str, Any] = response.get_json()["state"]
    return state


def table_of_game(client: FlaskClient, game_id: str, limit: int = 1000
                  ) -> list[dict[str, Any]]:
    """The high score table (`GET /api/highscores`) of the game's mode and field size
    (RULES E1, M2: one table per mode of two humans, or against the computer, and size)."""
    summary = client.get(f"/api/games/{game_id}").get_json()["summary"]
    mode = summary["mode"] if summary["mode"] in ("two_players", "online") else "vs_computer"
    response = client.get(f"/api/highscores?limit={limit}&mode={mode}"
                          f"&height={summary['height']}&width={summary['width']}")
    assert response.status_code == 200, response.get_json()
    table: list[dict[str, Any]] = response.get_json()["high_scores"]
    return table


def entries_of(client: FlaskClient, game_id: str) -> list[dict[str, Any]]:
    """The game's own entries in the table of its mode and size."""
    return [e for e in table_of_game(client, game_id) if e["game_id"] == game_id]


def play_hint(client: FlaskClient, game_id: str, token: str,
              state: dict[str, Any]) -> dict[str, Any]:
    """Play the hint for the seat to move; the move's answer. The hint is asked with
    `token` (a hint is the player's); the move names the version read before it (a
    first hint appends hint_used, which leaves that version current, RULES E1)."""
    hint = client.get(f"/api/games/{game_id}/hint", headers=bearer(token))
    assert hint.status_code == 200, hint.get_json()
    move = hint.get_json()
    assert move["seat"] == state["turn"] and move["assisted"] is True
    assert move["version"] in (state["version"], state["version"] + 1)
    body: dict[str, Any] = {"expected_version": state["version"]}
    if move["action"] == "line":
        assert [move["x"], move["y"]] in state["legal"]["lines"], (move, state["legal"])
        body.update(x=move["x"], y=move["y"])
        response = client.post(f"/api/games/{game_id}/lines", json=body,
                               headers=bearer(token))
    else:
        assert state["legal"]["can_advance"], state["legal"]
        response = client.post(f"/api/games/{game_id}/advance", json=body,
                               headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    result: dict[str, Any] = response.get_json()
    events = result["events"]
    assert [e["seq"] for e in events] == list(
        range(move["version"] + 1, move["version"] + 1 + len(events))
    )
    assert result["state"]["version"] == move["version"] + len(events)
    assert result["state"]["assisted"] is True
    return result


def greedy_move(client: FlaskClient, services: Any, game_id: str, token: str,
                state: dict[str, Any]) -> dict[str, Any]:
    """The domain's `Greedy` move for the seat to move, chosen on the stored state (no
    hint asked, so the game stays unassisted) and sent with expected_version; the
    move's answer."""
    from service.domain.commands import PlaceLine
    from squares_testing.greedy import Greedy

    command = Greedy().next_command(services.queries.get_state(game_id))
    body: dict[str, Any] = {"expected_version": state["version"]}
    path = "advance"
    if isinstance(command, PlaceLine):
        body.update(x=command.x, y=command.y)
        path = "lines"
    response = client.post(f"/api/games/{game_id}/{path}", json=body, headers=bearer(token))
    assert response.status_code == 200, response.get_json()
    result: dict[str, Any] = response.get_json()
    return result


def play_unassisted(client: FlaskClient, game_id: str, token: str) -> dict[str, Any]:
    """Play the game to its end without a hint (`squares_testing.play.own_move`): a
    ranked game stays ranked (RULES E1). The final state."""
    from squares_testing.play import flask_send, play_own_moves

    return play_own_moves(flask_send(client), game_id, token)


def play_to_end(client: FlaskClient, game_id: str, token: str,
                max_moves: int = 2000) -> tuple[dict[str, Any], int]:
    """Play the hints until the game is over, each move checked by `play_hint` (so the
    game is assisted: RULES E1); (the final state, the moves played)."""
    moves = [0]

    def move(state: dict[str, Any]) -> dict[str, Any]:
        moves[0] += 1
        return play_hint(client, game_id, token, state)["state"]

    return until_over(state_of(client, game_id), move, max_steps=max_moves), moves[0]


def move_after_first_read(monkeypatch: Any, services: Any, game_id: str,
                          token: str) -> list[int]:
    """Let another writer advance the game right after the next read of its games
    row (inside whatever transaction reads it); returns [the new version] once done."""
    from service.store.games import GameRepository

    moved: list[int] = []
    real_get = GameRepository.get

    def get(self: GameRepository, gid: str, *, for_update: bool = False) -> Any:
        row = real_get(self, gid, for_update=for_update)
        if not moved and gid == game_id:
            moved.append(0)  # first: the advance below reads the row too
            moved[0] = services.play.advance(game_id, token).state.version
        return row

    monkeypatch.setattr(GameRepository, "get", get)
    return moved
