"""One address cannot shut the live port with requests it never finishes, on the
server exactly as ``squares serve`` runs it (`squares_testing.server.start_server`).

From 127.0.0.1, more half-sent stream requests (the blank line after the headers
never comes) than the stream caps allow and than a connection cap of 1,024 above them:
a stream request from another address (127.0.0.2) is still answered, ``200`` with
``text/event-stream``, while they are open; and the server closes each of them after
the header timeout, without an answer.
"""

from __future__ import annotations

import contextlib
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from squares_testing.client import ApiClient
from squares_testing.net import HOST
from squares_testing.server import Server, migrate_database, start_server

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # a thousand sockets: run alone

HALF_SENT = 1100
TOTAL_STREAMS = 20  # SQUARES_LIVE_TOTAL: far fewer than the half-sent connections
HEADER_TIMEOUT_S = 3  # SQUARES_HEADER_TIMEOUT_S
CLOSED_WITHIN_S = 30  # generous: "closed at all", for every half-sent connection


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path / 'squares.db'}"
    migrate_database(url)
    env = {"SQUARES_LIVE_TOTAL": str(TOTAL_STREAMS),
           "SQUARES_HEADER_TIMEOUT_S": str(HEADER_TIMEOUT_S)}
    started = start_server(url, log_path=tmp_path / "server.log", workers=1, env=env)
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def enough_descriptors() -> Iterator[None]:
    """This process's soft limit on open files raised (to the hard one) for the test's
    sockets, and put back after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = HALF_SENT + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            pytest.fail(f"the hard limit on open files ({hard}) is below {wanted}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def half_sent(port: int, game_id: str) -> socket.socket:
    sock = socket.create_connection((HOST, port), source_address=(HOST, 0))
    sock.sendall(f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: {HOST}\r\n".encode())
    return sock


def still_open(sock: socket.socket) -> bool:
    """Nothing to read yet and no end: the server holds the connection."""
    sock.setblocking(False)
    try:
        sock.recv(1)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)
    return False


def closed_without_answer(sock: socket.socket, deadline: float) -> bool:
    """The server closes `sock` by `deadline` (an end or a reset), having sent nothing."""
    sock.settimeout(max(0.1, deadline - time.monotonic()))
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def stream_head(port: int, game_id: str, source: str) -> bytes:
    """A whole stream request from `source`: what comes back up to the end of the
    answer's headers (or whatever came in 10 s)."""
    with socket.create_connection((HOST, port), timeout=10,
                                  source_address=(source, 0)) as sock:
        sock.sendall(f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: {HOST}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        seen = b""
        with contextlib.suppress(TimeoutError):
            while b"\r\n\r\n" not in seen:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                seen += chunk
        return seen


def test_half_sent_requests_from_one_address_shut_out_nobody_and_are_closed(
        server: Server, enough_descriptors: None) -> None:
    reply = ApiClient(server.port, timeout=10).call(
        "POST", "/api/games", {"player_name": "Ada", "height": 7, "width": 9, "seed": 3})
    assert reply.status == 201, reply.body[:300]
    game_id = reply.data["game_id"]
    assert server.live_port is not None
    waiting: list[socket.socket] = []
    try:
        for _ in range(HALF_SENT):
            waiting.append(half_sent(server.live_port, game_id))
        head = stream_head(server.live_port, game_id, "127.0.0.2")
        assert head.startswith(b"HTTP/1.1 200"), head[:300]
        assert b"content-type: text/event-stream" in head.lower(), head[:300]
        # answered while they were held, not once the header timeout had let them go
        assert still_open(waiting[-1])
        deadline = time.monotonic() + CLOSED_WITHIN_S
        left_open = [i for i, sock in enumerate(waiting)
                     if not closed_without_answer(sock, deadline)]
        assert not left_open, f"{len(left_open)} of {HALF_SENT} half-sent requests still open"
    finally:
        for sock in waiting:
            sock.close()
