"""Shared by the reliability and bad-input tests: ``squares serve`` on a real database.

Backends (`tests.databases.BACKENDS`): ``sqlite`` (a temp file) always, and
``postgres`` (a fresh database in the cluster of ``SQUARES_TEST_POSTGRES_URL``) when
that variable is set — ``./dev test`` sets it whenever the PostgreSQL server binaries
exist.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from squares_testing.client import ApiClient, Reply
from squares_testing.play import api_send, hint_move
from squares_testing.server import Server, running_server
from tests.databases import BACKENDS as BACKENDS  # the test modules parametrize over it
from tests.databases import fresh_database

# Small fields so that whole games fit in a few seconds.
HEIGHT, WIDTH = 9, 13


@contextlib.contextmanager
def database(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database URL for `backend` (dropped / left in tmp_path at exit)."""
    with fresh_database(backend, tmp_path / "squares.db") as url:
        yield url


@contextlib.contextmanager
def served(backend: str, tmp_path: Path, workers: int = 2,
           threads: int | None = None) -> Iterator[Server]:
    """The server as ``squares serve`` runs it, `workers` processes, on a migrated
    fresh database; always stopped. `threads`: request threads per worker (None:
    squares serve's default, as shipped)."""
    extra = [] if threads is None else ["--threads", str(threads)]
    with database(backend, tmp_path) as url, running_server(
        url, log_path=tmp_path / "serve.log", workers=workers, extra_args=extra
    ) as server:
        yield server


def create_game(client: ApiClient, name: str = "Reliability", seed: int = 7,
                **extra: Any) -> tuple[str, str, dict[str, Any]]:
    """POST /api/games (9 x 13, easy); returns (game_id, token, state)."""
    body = {"player_name": name, "difficulty": "easy", "height": HEIGHT, "width": WIDTH,
            "seed": seed, **extra}
    reply = client.call("POST", "/api/games", body)
    assert reply.status == 201, (reply.status, reply.body[:500])
    return reply.data["game_id"], reply.data["token"], reply.data["state"]


def game_state(client: ApiClient, game_id: str) -> dict[str, Any]:
    reply = client.call("GET", f"/api/games/{game_id}")
    assert reply.status == 200, (reply.status, reply.body[:500])
    return reply.data["state"]


def stored_events(client: ApiClient, game_id: str) -> list[dict[str, Any]]:
    reply = client.call("GET", f"/api/games/{game_id}/events")
    assert reply.status == 200, (reply.status, reply.body[:500])
    return list(reply.data["events"])


def assert_gap_free(events: list[dict[str, Any]], version: int) -> None:
    """RULES V1: the stored stream is exactly seqs 1..version."""
    assert [e["seq"] for e in events] == list(range(1, version + 1))


def assert_error_shape(reply: Reply, statuses: tuple[int, ...] | None = None,
                       code: str | None = None) -> None:
    """A 4xx with ``{"error": {"code", "message", "details"}}`` (and the status/code given)."""
    assert 400 <= reply.status < 500, (reply.status, reply.body[:300])
    if statuses is not None:
        assert reply.status in statuses, (reply.status, reply.body[:300])
    assert "application/json" in reply.content_type, (reply.content_type, reply.body[:300])
    assert isinstance(reply.data, dict), reply.body[:300]
    error = reply.data.get("error")
    assert isinstance(error, dict), reply.data
    assert isinstance(error.get("code"), str) and error["code"], error
    assert isinstance(error.get("message"), str), error
    assert isinstance(error.get("details"), dict), error
    if code is not None:
        assert error["code"] == code, error


def play_hint(client: ApiClient, game_id: str, token: str) -> dict[str, Any]:
    """Play the hint endpoint's move at the current version; returns the new state."""
    state = game_state(client, game_id)
    return dict(hint_move(api_send(client), game_id, token, state)["state"])
