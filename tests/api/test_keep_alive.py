"""``Connection: close`` only on an answer given before its request body was read
whole (`service.protocol.headers.close_after_unread_body`).

Servers hand the app its body in two ways: a stream of exactly ``Content-Length``
bytes, or (``wsgi.input_terminated``, as granian does) one the server ends itself,
which werkzeug bounds by ``MAX_CONTENT_LENGTH`` instead. Under the second, every
write once said ``Connection: close``: each move cost the client a new connection,
and the next request often met the other worker, whose cache did not have the game.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import pytest

from service.protocol import headers

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


class UntoldStream(io.BytesIO):
    """A server's body stream that cannot tell its position (werkzeug hands the app
    the server's own stream when the server ends it and no MAX_CONTENT_LENGTH is set)."""

    def tell(self) -> int:
        raise OSError("not seekable")


def test_a_body_stream_that_cannot_tell_closes_the_connection_and_says_why(
        client: CheckedClient, caplog: pytest.LogCaptureFixture) -> None:
    client.application.config["MAX_CONTENT_LENGTH"] = None
    headers._warn_cannot_tell.cache_clear()  # said once a process: here, whatever ran before
    body = b'{"player_name": "Ann", "difficulty": "easy"}'
    with caplog.at_level(logging.WARNING, logger="service.protocol.headers"):
        created = client.post("/api/games", data=body, content_type="application/json",
                              environ_overrides={"wsgi.input": UntoldStream(body),
                                                 "wsgi.input_terminated": True})
    assert created.status_code == 201
    assert created.headers.get("Connection") == "close"  # read or not: it cannot know
    assert "cannot tell its position" in caplog.text
