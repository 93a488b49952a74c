"""``Connection: close`` only on an answer given before its request body was read
whole (`service.http.headers.close_after_unread_body`).

Servers hand the app its body in two ways: a stream of exactly ``Content-Length``
bytes, or (``wsgi.input_terminated``, as granian does) one the server ends itself,
which werkzeug bounds by ``MAX_CONTENT_LENGTH`` instead. Under the second, every
write once said ``Connection: close``: each move cost the client a new connection,
and the next request often met the other worker, whose cache did not have the game.
"""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import CheckedClient

SERVER_STREAMS = {
    "a stream of Content-Length bytes": {},
    "a stream the server ends (granian)": {"wsgi.input_terminated": True},
}


@pytest.fixture(params=sorted(SERVER_STREAMS))
def environ(request: pytest.FixtureRequest) -> dict[str, Any]:
    return SERVER_STREAMS[request.param]


def test_writes_whose_body_was_read_keep_the_connection(client: CheckedClient,
                                                        environ: dict[str, Any]) -> None:
    created = client.post("/api/games", json={"player_name": "Ann", "difficulty": "easy"},
                          environ_overrides=environ)
    assert created.status_code == 201
    assert "Connection" not in created.headers
    state = created.get_json()["state"]
    x, y = state["legal"]["lines"][0]
    moved = client.post(f"/api/games/{state['game_id']}/lines",
                        json={"x": x, "y": y, "expected_version": state["version"]},
                        headers={"Authorization": f"Bearer {created.get_json()['token']}"},
                        environ_overrides=environ)
    assert moved.status_code == 200
    assert "Connection" not in moved.headers


def test_an_answer_before_the_body_is_read_closes_the_connection(
        client: CheckedClient, environ: dict[str, Any]) -> None:
    # no route takes a POST here: 405 before anything reads the body
    refused = client.post("/healthz", json={"padding": "x" * 100},
                          environ_overrides=environ)
    assert refused.status_code == 405
    assert refused.headers.get("Connection") == "close"


def test_an_oversized_body_closes_the_connection(client: CheckedClient,
                                                environ: dict[str, Any]) -> None:
    refused = client.post("/api/games", data=b"x" * (65 * 1024),
                          content_type="application/json", environ_overrides=environ)
    assert refused.status_code == 413
    assert refused.headers.get("Connection") == "close"
