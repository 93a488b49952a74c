"""Over the real ``squares serve`` (granian): a client keeps one connection for a whole
game, and a request refused before its body is read is told ``Connection: close``
(`tests/api/test_keep_alive.py` checks the same in the app)."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import urlsplit

import pytest

from .conftest import LiveServer

pytestmark = pytest.mark.e2e


def call(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None,
         token: str | None = None) -> tuple[int, Any, bool]:
    """(status, JSON answer, whether the server closes the connection after it)."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=None if body is None else json.dumps(body).encode(),
                 headers=headers)
    response = conn.getresponse()
    data = json.loads(response.read())
    return response.status, data, response.will_close


def test_one_connection_carries_a_game_and_its_moves(live_server: LiveServer) -> None:
    url = urlsplit(live_server.base_url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    try:
        status, created, closes = call(conn, "POST", "/api/games",
                                       {"player_name": "Kim", "difficulty": "easy"})
        assert (status, closes) == (201, False)
        sock = conn.sock
        game, token, state = created["game_id"], created["token"], created["state"]
        for _ in range(6):
            if state["legal"]["lines"]:
                x, y = state["legal"]["lines"][0]
                status, moved, closes = call(conn, "POST", f"/api/games/{game}/lines",
                                             {"x": x, "y": y,
                                              "expected_version": state["version"]}, token)
            else:
                status, moved, closes = call(conn, "POST", f"/api/games/{game}/advance",
                                             {"expected_version": state["version"]}, token)
            assert (status, closes) == (200, False), moved
            state = moved["state"]
        assert conn.sock is sock  # never reconnected
        status, refused, closes = call(conn, "POST", "/healthz", {"padding": "x" * 100})
        assert (status, closes) == (405, True), refused
    finally:
        conn.close()
