"""The operator's view of the real service: ``squares serve`` as docs/operating.md runs it
(the app server's default 2 workers, the streams server, the analyst, the metrics
server) with ``SQUARES_METRICS_PORT`` and ``SQUARES_LOG_FORMAT=json``.

- The metrics server serves every process's metrics summed, on 127.0.0.1 only and
  on a port of their own (the app's port has no /metrics); a worker that is replaced
  takes none of the counts with it; the open-streams gauge follows a live stream;
  hundreds of idle connections to the metrics port hold no thread, and it still
  answers.
- Every request is one JSON line on standard output with its request id (the
  client's, echoed back), method, route, status, duration, game id and client; no
  line holds a token or an invite code.

Only 127.0.0.1 is used; every wait is bounded; the server is always stopped.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from squares_testing.net import HOST, free_port
from squares_testing.processes import child_pids, status_kb
from squares_testing.server import Server, serving, squares_command
from tests.databases import sqlite_url

pytestmark = pytest.mark.e2e

REPO = Path(__file__).resolve().parents[2]
START_S = 60.0


@dataclass
class Served:
    server: Server
    metrics_port: int
    out: Path
    err: Path

    @property
    def port(self) -> int:
        return self.server.port

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], Any]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=10)
        try:
            data = None if body is None else json.dumps(body)
            sent = {"Content-Type": "application/json"} if body is not None else {}
            conn.request(method, path, body=data, headers={**sent, **(headers or {})})
            answer = conn.getresponse()
            raw = answer.read()
            parsed = json.loads(raw) if raw.startswith(b"{") else raw
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, parsed
        finally:
            conn.close()

    def metrics(self) -> dict[str, float]:
        """Every sample the metrics port serves: ``name{labels}`` -> value."""
        conn = http.client.HTTPConnection(HOST, self.metrics_port, timeout=10)
        try:
            conn.request("GET", "/metrics")
            answer = conn.getresponse()
            assert answer.status == 200
            text = answer.read().decode()
        finally:
            conn.close()
        samples = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, number = line.rpartition(" ")
                samples[name] = float(number)
        return samples

    def worker_pids(self) -> list[int]:
        return self.server.worker_pids()

    def metrics_server_pid(self) -> int:
        found = [pid for pid in child_pids(self.server.master_pid)
                 if "service.serve.metrics_server" in Path(f"/proc/{pid}/cmdline").read_text()]
        assert len(found) == 1, found
        return found[0]

    def access_lines(self) -> list[dict[str, Any]]:
        lines = self.out.read_text(errors="replace").splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the module: each test looks at what changes while it runs (the
    metrics grow, the log lines carry its own request ids)."""
    tmp_path = tmp_path_factory.mktemp("operator")
    metrics_port = free_port()
    env = {**os.environ, "DATABASE_URL": sqlite_url(tmp_path / "squares.db"),
           "SQUARES_METRICS_PORT": str(metrics_port), "SQUARES_LOG_FORMAT": "json"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    with serving(lambda port: [*squares_command(), "serve", "--port", str(port)],
                 log_path=out, err_path=err, env=env, cwd=tmp_path, timeout=START_S,
                 workers=2, live=True) as server:
        yield Served(server, metrics_port, out, err)


def healthz_count(server: Served) -> float:
    return server.metrics().get('squares_http_request_duration_seconds_count'
                                '{method="GET",route="/healthz",status="200"}', 0.0)


def eventually(check: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def listening_addresses(port: int) -> set[str]:
    """The local addresses with a listening TCP socket on `port` (/proc/net/tcp{,6})."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            address, _, hex_port = local.rpartition(":")
            if state == "0A" and int(hex_port, 16) == port:
                found.add(address)
    return found


def test_metrics_are_summed_over_the_workers_on_loopback_only(served: Served) -> None:
    assert listening_addresses(served.metrics_port) == {"0100007F"}  # 127.0.0.1
    assert served.request("GET", "/metrics")[0] == 404  # not on the app's port
    before = healthz_count(served)
    for _ in range(30):  # a new connection each: both workers answer some
        assert served.request("GET", "/healthz")[0] == 200
    assert healthz_count(served) - before == 30
    victim = served.worker_pids()[0]
    os.kill(victim, signal.SIGKILL)  # a crash: the app server starts another in its place
    assert eventually(lambda: victim not in served.worker_pids()
                      and len(served.worker_pids()) == 2, timeout=20)
    assert healthz_count(served) - before >= 30  # the replaced worker's counts stay


def test_a_game_shows_in_the_metrics_and_in_json_request_logs(served: Served) -> None:
    base = served.metrics()
    status, headers, created = served.request(
        "POST", "/api/games", {"player_name": "Ops", "height": 7, "width": 9, "seed": 5,
                               "difficulty": "easy"}, {"X-Request-ID": "op-check-1"})
    assert status == 201 and headers["x-request-id"] == "op-check-1"
    game_id, token = created["game_id"], created["token"]
    auth = {"Authorization": f"Bearer {token}"}
    hint = served.request("GET", f"/api/games/{game_id}/hint", headers=auth)[2]
    body = {"expected_version": created["state"]["version"]}
    if hint["action"] == "line":
        body.update(x=hint["x"], y=hint["y"])
    status, headers, _ = served.request(
        "POST", f"/api/games/{game_id}/{'lines' if hint['action'] == 'line' else 'advance'}",
        body, auth)
    assert status == 200 and len(headers["x-request-id"]) == 32  # made by the server
    assert served.request("GET", "/api/games/nope", headers={"X-Request-ID": "bad id"}
                          )[1]["x-request-id"] != "bad id"
    online = served.request("POST", "/api/games", {"player_name": "Host", "mode": "online",
                                                  "height": 7, "width": 9})[2]
    code = online["invite"]["code"]

    now = served.metrics()
    grew = {name: now[name] - base.get(name, 0.0) for name in now}
    assert grew['squares_games_started_total{mode="vs_computer"}'] == 1
    assert grew['squares_games_started_total{mode="online"}'] == 1
    assert grew['squares_events_appended_total{type="game_created"}'] == 2
    assert grew['squares_ai_decision_seconds_count{level="expert",purpose="hint"}'] == 1
    assert grew['squares_http_request_duration_seconds_count'
                '{method="POST",route="/api/games",status="201"}'] == 2

    lines = eventually(lambda: [line for line in served.access_lines()
                                if line["request_id"] == "op-check-1"])
    assert len(lines) == 1
    line = lines[0]
    assert {k: line[k] for k in ("method", "route", "status", "client", "logger")} == {
        "method": "POST", "route": "/api/games", "status": 201, "client": "127.0.0.1",
        "logger": "squares.access"}
    assert isinstance(line["duration_ms"], (int, float)) and line["duration_ms"] > 0
    moves = [line for line in served.access_lines() if line.get("game_id") == game_id]
    assert {line["route"] for line in moves} >= {"/api/games/<game_id>/hint"}
    logged = served.out.read_text() + served.err.read_text()
    assert token not in logged and online["token"] not in logged and code not in logged


def test_the_open_streams_gauge_follows_a_live_stream(served: Served) -> None:
    created = served.request("POST", "/api/games", {"player_name": "Watcher", "height": 7,
                                                    "width": 9})[2]
    conn = http.client.HTTPConnection(HOST, served.server.live_port, timeout=10)
    try:
        conn.request("GET", f"/api/games/{created['game_id']}/live")
        answer = conn.getresponse()
        assert answer.status == 200
        assert eventually(lambda: served.metrics().get("squares_live_streams_open") == 1)
    finally:
        conn.close()
    assert eventually(lambda: served.metrics().get("squares_live_streams_open") == 0)


@pytest.mark.serial  # the answer is timed: run alone
def test_idle_connections_to_the_metrics_port_hold_no_thread(served: Served) -> None:
    pid = served.metrics_server_pid()
    assert served.metrics()  # answers, and every thread it needs is started
    threads_before = status_kb(pid, "Threads")
    idle = [socket.create_connection((HOST, served.metrics_port)) for _ in range(300)]
    try:
        half = []
        for _ in range(50):  # and some that send half a request, then nothing
            sock = socket.create_connection((HOST, served.metrics_port))
            sock.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
            half.append(sock)
        started = time.monotonic()
        assert served.metrics()
        assert time.monotonic() - started < 2.0
        assert status_kb(pid, "Threads") == threads_before
        # their reads time out: the half-sent requests are closed
        for sock in half[:5]:
            sock.settimeout(15)
            assert sock.recv(1) == b""
        for sock in half:
            sock.close()
    finally:
        for sock in idle:
            sock.close()
