"""Two instances, one PostgreSQL database: moves made through instance A reach a
live stream (``GET /api/games/{id}/live``) open on instance B (issue 15, item 6).

Two separate servers (as ``squares serve`` runs them, as two machines would)
share one fresh PostgreSQL database. B learns of A's commits only through
PostgreSQL (``NOTIFY`` on commit, B's ``LISTEN`` watcher): nothing else connects them.
Each move's events must reach B's stream in order, each once, soon after A's answer.

Needs ``SQUARES_TEST_POSTGRES_URL`` (``scripts/run_tests.py`` always sets it).
"""

from __future__ import annotations

import contextlib
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from squares_testing.client import ApiClient
from squares_testing.net import HOST
from squares_testing.server import Server, start_server
from tests.databases import fresh_postgres_database
from tests.live.sse import SseClient

pytestmark = pytest.mark.e2e

# a stream notices a client that went within a second: a quick graceful stop
ENV = {"SQUARES_LIVE_HEARTBEAT_S": "1"}
MEDIAN_LIMIT_S = 0.250
MAX_LIMIT_S = 1.0


@pytest.fixture
def cluster(postgres_template: str, tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    """Instances A and B: two `squares serve` on one fresh (migrated) database."""
    with fresh_postgres_database(postgres_template, prefix="squares_cluster") as url:
        a = start_server(url, log_path=tmp_path / "a.log", workers=2,
                         env=ENV)
        try:
            b = start_server(url, log_path=tmp_path / "b.log", workers=2,
                             env=ENV)
            try:
                yield a, b
            finally:
                b.stop()
        finally:
            a.stop()


class Watcher:
    """Reads one SSE stream in a thread; records (seq, arrival time) of every event."""

    def __init__(self, port: int, game_id: str) -> None:
        self.sse = SseClient(HOST, port, f"/api/games/{game_id}/live", timeout=10.0)
        assert self.sse.status == 200, self.sse.response.read()
        self.arrivals: list[tuple[int, float, str | None]] = []
        self.error: BaseException | None = None
        self._cond = threading.Condition()
        self._closing = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while True:
                message = self.sse.next(timeout=30.0)
                now = time.monotonic()
                if message is None:
                    return
                if message.id is not None:
                    with self._cond:
                        self.arrivals.append((message.id, now, message.event))
                        self._cond.notify_all()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            if not self._closing:
                self.error = exc
        finally:
            with self._cond:
                self._cond.notify_all()

    def wait_for(self, seqs: set[int], timeout: float) -> dict[int, float]:
        """Arrival times of `seqs` (waits until all arrived or `timeout` passed)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                got = {seq: at for seq, at, _ in self.arrivals if seq in seqs}
                left = deadline - time.monotonic()
                if seqs <= got.keys() or left <= 0 or self.error is not None \
                        or not self._thread.is_alive():
                    return got
                self._cond.wait(left)

    def close(self) -> None:
        self._closing = True
        sock = self.sse.conn.sock
        if sock is not None:  # wakes the reader thread, blocked in recv
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        self.sse.close()
        self._thread.join(timeout=5)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _ok(reply: Any, what: str) -> dict[str, Any]:
    assert 200 <= reply.status < 300, f"{what}: {reply.status} {reply.body[:300]!r}"
    data: dict[str, Any] = reply.data
    return data


def test_moves_on_instance_a_reach_a_stream_on_instance_b(
        cluster: tuple[Server, Server]) -> None:
    a, b = cluster
    client = ApiClient(a.port, timeout=30.0)
    created = _ok(client.call("POST", "/api/games", {
        "player_name": "Ada", "height": 19, "width": 33, "seed": 3}), "create")
    game_id, token = created["game_id"], created["token"]
    base = f"/api/games/{game_id}"

    t0 = time.monotonic()
    watcher = Watcher(b.live_port or b.port, game_id)
    try:
        backlog = watcher.wait_for({1}, timeout=5.0)
        print(f"\nstream on B open with its backlog after {ms(time.monotonic() - t0)}")
        assert 1 in backlog, "B's stream did not send the backlog (game_created)"

        def move(name: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
            sent = time.monotonic()
            data = _ok(client.call("POST", path, body, token=token), name)
            answered = time.monotonic()
            seqs = {int(e["seq"]) for e in data["events"]}
            assert seqs, f"{name} appended no event"
            got = watcher.wait_for(seqs, timeout=5.0)
            missing = sorted(seqs - got.keys())
            assert not missing, f"{name}: events {missing} never reached B ({watcher.error!r})"
            for seq in sorted(seqs):
                since_sent = got[seq] - sent
                since_answer = got[seq] - answered
                latencies.append(since_sent)
                rows.append(f"{name:<10} seq {seq:>3}: {since_sent * 1000:7.1f} ms after "
                            f"A's request was sent, {since_answer * 1000:+7.1f} ms after "
                            f"its answer (request took {(answered - sent) * 1000:.1f} ms)")
            return data

        latencies: list[float] = []
        rows: list[str] = []
        state = move("advance-1", f"{base}/advance", {})["state"]
        assert state["stage"] == 2
        x, y = state["legal"]["lines"][0]
        state = move("line", f"{base}/lines", {"x": x, "y": y})["state"]
        state = move("advance-2", f"{base}/advance", {})["state"]  # pieces
        final = move("end-turn", f"{base}/advance", {})["state"]  # the computer plays
        version = int(final["version"])
        # anything the computer appended after A's answer (none when it plays in-request)
        watcher.wait_for(set(range(1, version + 1)), timeout=5.0)

        print()
        print("\n".join(rows))
        median, worst = statistics.median(latencies), max(latencies)
        print(f"{len(latencies)} events: median {median * 1000:.1f} ms, "
              f"max {worst * 1000:.1f} ms (A's request sent -> arrival on B)")

        seqs = [seq for seq, _, _ in watcher.arrivals]
        assert watcher.error is None, watcher.error
        assert len(seqs) == len(set(seqs)), f"duplicated events: {seqs}"
        assert seqs == list(range(1, version + 1)), f"missing or out of order: {seqs}"
        assert median < MEDIAN_LIMIT_S, f"median {median * 1000:.1f} ms"
        assert worst < MAX_LIMIT_S, f"max {worst * 1000:.1f} ms"
    finally:
        t1 = time.monotonic()
        watcher.close()
        client.close()
        print(f"stream closed in {ms(time.monotonic() - t1)}")
