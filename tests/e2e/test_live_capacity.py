"""Open live streams cost memory, not a thread (issue 20), and slow clients stall
nobody, on the server exactly as ``squares serve`` runs it
(`squares_testing.server.start_server`: the app server with its 2 workers, the
streams server on the next port), on SQLite; what needs the proxy, behind
``deploy/nginx.conf``.

- many more open streams than any thread count, never read: `/healthz` and moves
  still answer quickly;
- over a cap a stream is refused at once (429 / 503 with Retry-After), never queued;
- connections whose headers never finish do not stall anyone and are closed after
  the header timeout; headers and URLs over their limits are refused (431, 414);
- bodies sent slowly stall nobody behind the proxy (bare, each holds a thread);
- SIGTERM with streams open: every stream ends within 2 s with a last ``retry:``,
  and the server exits within 10 s.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from squares_testing.client import ApiClient
from squares_testing.net import HOST
from squares_testing.nginx import running_nginx
from squares_testing.server import Server, migrate_database, start_server

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # timed under pressure: run alone

STREAMS = 300  # far above the requests the app server's threads hold (2 x 4)


@contextlib.contextmanager
def capacity_server(tmp_path: Path) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path / 'squares.db'}"
    migrate_database(url)
    env = {"SQUARES_LIVE_PER_CLIENT": str(STREAMS + 10), "SQUARES_HEADER_TIMEOUT_S": "2"}
    started = start_server(url, log_path=tmp_path / "server.log", env=env)
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that leave it running: each closes what it opened, and
    the server must stay quick for whoever comes next anyway."""
    with capacity_server(tmp_path_factory.mktemp("capacity")) as started:
        yield started


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own (it is stopped by the test)."""
    with capacity_server(tmp_path) as started:
        yield started


def new_game(client: ApiClient) -> tuple[str, str]:
    reply = client.call("POST", "/api/games", {"player_name": "Ada", "height": 9,
                                               "width": 13, "seed": 5})
    assert reply.status == 201, reply.body[:300]
    return reply.data["game_id"], reply.data["token"]


def open_stream(port: int, game_id: str, source: str = HOST) -> socket.socket:
    """A stream request (from `source`) whose answer is never read (a sleeping tab)."""
    sock = socket.create_connection((HOST, port), source_address=(source, 0))
    sock.sendall(f"GET /api/games/{game_id}/live HTTP/1.1\r\nHost: {HOST}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    return sock


def read_until(sock: socket.socket, marker: bytes, timeout: float) -> bytes:
    sock.settimeout(timeout)
    seen = b""
    deadline = time.monotonic() + timeout
    while marker not in seen and time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        if not chunk:
            break
        seen += chunk
    return seen


def timed(client: ApiClient, method: str, path: str, **kwargs: object) -> tuple[int, float]:
    started = time.monotonic()
    reply = client.call(method, path, **kwargs)  # type: ignore[arg-type]
    return reply.status, time.monotonic() - started


def test_hundreds_of_unread_streams_leave_health_and_moves_quick(server: Server) -> None:
    client = ApiClient(server.port, timeout=10)
    game_id, token = new_game(client)
    streams = [open_stream(server.live_port, game_id) for _ in range(STREAMS)]
    try:
        # each stream was accepted: its headers and the first event arrive
        for sock in streams[:: STREAMS // 10]:
            assert b"200 OK" in read_until(sock, b"game_created", 10)
        health = [timed(client, "GET", "/healthz") for _ in range(20)]
        assert all(status == 200 for status, _ in health)
        assert max(seconds for _, seconds in health) < 2.0, health
        status, seconds = timed(client, "POST", f"/api/games/{game_id}/advance", body={},
                                token=token)
        assert status == 200 and seconds < 5.0
    finally:
        for sock in streams:
            sock.close()


def test_over_the_cap_a_stream_is_refused_at_once_with_retry_after(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'squares.db'}"
    migrate_database(url)
    env = {"SQUARES_LIVE_PER_CLIENT": "3", "SQUARES_LIVE_TOTAL": "5"}
    capped = start_server(url, log_path=tmp_path / "server.log", workers=1, env=env)
    try:
        client = ApiClient(capped.port, timeout=10)
        game_id, _ = new_game(client)
        live = capped.live_port
        held = [open_stream(live, game_id) for _ in range(3)]
        for sock in held:
            assert b"200 OK" in read_until(sock, b"retry:", 10)
        started = time.monotonic()
        answer = read_until(open_stream(live, game_id), b"}}", 10)
        assert answer.startswith(b"HTTP/1.1 429") and time.monotonic() - started < 1.0
        assert b"retry-after: 5" in answer.lower() and b"too_many_streams" in answer
        # the per-process cap: two more from other addresses fill it, the next is 503
        others = [open_stream(live, game_id, source) for source in ("127.0.0.2", "127.0.0.3")]
        for sock in others:
            assert b"200 OK" in read_until(sock, b"retry:", 10)
        started = time.monotonic()
        sock = open_stream(live, game_id, "127.0.0.4")
        answer = read_until(sock, b"}}", 10)
        assert answer.startswith(b"HTTP/1.1 503") and time.monotonic() - started < 1.0
        assert b"retry-after: 5" in answer.lower() and b"streams_full" in answer
        for opened in [*held, *others, sock]:
            opened.close()
    finally:
        capped.stop()


def test_unfinished_headers_stall_nobody_and_time_out(server: Server) -> None:
    slow = []
    for _ in range(100):
        sock = socket.create_connection((HOST, server.port))
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")  # never the blank line
        slow.append(sock)
    client = ApiClient(server.port, timeout=5)
    health = [timed(client, "GET", "/healthz") for _ in range(20)]
    assert all(status == 200 for status, _ in health)
    assert max(seconds for _, seconds in health) < 2.0
    # the header timeout (2 s here): each slow connection is closed
    started = time.monotonic()
    for sock in slow[:10]:
        assert read_until(sock, b"\r\n\r\n", 10) == b""  # closed, no answer
    assert time.monotonic() - started < 5.0
    for sock in slow:
        sock.close()


def test_behind_the_proxy_unfinished_bodies_hold_no_request_thread(
        server: Server, tmp_path: Path) -> None:
    """More half-sent bodies than the app server has threads (2 x 4), through nginx
    (deploy/nginx.conf), which reads a body whole before it passes the request on: the
    app never waits for one, and nothing is written."""
    # the file names two instances: both lines name this one
    with running_nginx([f"{HOST}:{server.port}"] * 2, logs_to=tmp_path / "nginx") as nginx:
        client = ApiClient(nginx.port, timeout=10)
        game_id, token = new_game(client)
        slow = []
        for _ in range(80):
            sock = socket.create_connection((HOST, nginx.port))
            sock.sendall(f"POST /api/games/{game_id}/lines HTTP/1.1\r\nHost: {HOST}\r\n"
                         f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                         "Content-Length: 100\r\n\r\n{\"x\": ".encode())
            slow.append(sock)
        status, seconds = timed(client, "POST", f"/api/games/{game_id}/advance", body={},
                                token=token)
        assert status == 200 and seconds < 2.0
        health = [timed(client, "GET", "/healthz") for _ in range(10)]
        assert all(status == 200 for status, _ in health)
        assert max(seconds for _, seconds in health) < 2.0, health
        for sock in slow:
            sock.close()
        reply = client.call("GET", f"/api/games/{game_id}/events")
        assert [e["type"] for e in reply.data["events"]][-1] != "line_placed"  # none written


def test_a_chunked_body_arrives_whole(server: Server) -> None:
    client = ApiClient(server.port, timeout=10)
    body = b'{"player_name": "Chunky", "height": 7, "width": 9, "seed": 2}'
    sock = socket.create_connection((HOST, server.port))
    sock.sendall(f"POST /api/games HTTP/1.1\r\nHost: {HOST}\r\n".encode()
                 + b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                 + b"%x\r\n%s\r\n" % (20, body[:20]) + b"%x\r\n%s\r\n" % (len(body) - 20, body[20:])
                 + b"0\r\n\r\n")
    answer = read_until(sock, b"}}", 10)
    sock.close()
    assert answer.startswith(b"HTTP/1.1 201"), answer[:300]
    games = client.call("GET", "/api/games?player=Chunky").data["games"]
    assert len(games) == 1


def test_sigterm_ends_every_stream_with_a_retry_and_the_server_exits(own_server: Server) -> None:
    server = own_server
    client = ApiClient(server.port, timeout=10)
    game_id, _ = new_game(client)
    streams = [open_stream(server.live_port, game_id) for _ in range(50)]
    for sock in streams:
        assert b"game_created" in read_until(sock, b"game_created", 10)
    stopped_at = time.monotonic()
    server.proc.send_signal(15)
    ends = []
    for sock in streams:
        tail = read_until(sock, b"0\r\n\r\n", 5)  # the chunked body's end
        ends.append(time.monotonic() - stopped_at)
        assert b"retry:" in tail, tail
        assert sock.recv(1) == b""
        sock.close()
    assert max(ends) < 2.0, max(ends)
    server.proc.wait(timeout=10)
    assert time.monotonic() - stopped_at < 10.0


@pytest.mark.parametrize(("sent", "status"), [
    (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 200_000 + b"\r\n\r\n", 431),
    (b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414),
    (b"NOT HTTP AT ALL\r\n\r\n", 400),
])
def test_what_the_app_server_refuses_itself_is_refused_and_closed(
        server: Server, sent: bytes, status: int) -> None:
    sock = socket.create_connection((HOST, server.port))
    sock.sendall(sent)
    answer = read_until(sock, b"\r\n\r\n", 10)
    assert answer.startswith(b"HTTP/1.1 %d" % status), answer[:200]
    assert sock.recv(1) == b""  # and the connection is closed
    sock.close()
