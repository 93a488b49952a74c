"""Outages against the real service (``squares serve``: 2 granian app workers, the streams server).

PostgreSQL stopped for 5 s under load (a cluster of this test's own, so that it can
be stopped and started again on the same port and data directory): every answer is a
normal one or a 503 ``unavailable`` with ``Retry-After`` (never a 500), no request
takes 10 s, ``/readyz`` answers 503 naming only the failing part, and once PostgreSQL
is back the same workers play on (the pool's ping of an idle connection, and its
recycling after a failed statement) and nothing acknowledged is lost.

A full SQLite disk (the file on a 4 MiB tmpfs, filled up; root only): a move answers
503 ``unavailable``, nothing of it is stored, and once there is room again moves
work. Without root, tests/api/test_readiness.py covers a full file in-process.

Only 127.0.0.1 is used, every loop is bounded, every server and cluster is stopped.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from service.protocol.statuses import OUTAGE_RETRY_AFTER_S as RETRY_AFTER_S
from service.protocol.statuses import UNAVAILABLE_MESSAGE
from squares_testing.client import ApiClient, ConnectionFailed
from squares_testing.server import Server, migrate_database, squares_command, start_server
from squares_testing.throwaway_postgres import Cluster, cluster
from squares_testing.traffic import Ledger, missing_acknowledged
from tests.databases import sqlite_url

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # timed under pressure: run alone

REPO = Path(__file__).resolve().parents[2]
CLIENTS = 6
OUTAGE_S = 5.0
MAX_REQUEST_S = 10.0
RECOVERY_S = 15.0
HEIGHT, WIDTH = 9, 13


# -- a PostgreSQL cluster that can be stopped and started again ------------------------


@contextlib.contextmanager
def own_cluster() -> Iterator[Cluster]:
    """A throwaway cluster whose server can be stopped and started again on the same
    data directory and port."""
    with cluster(prefix="squares-outage-pg-") as made:
        if made is None:
            pytest.fail("PostgreSQL server binaries not found (./dev test installs them)")
        yield made


# -- clients that see every answer, its headers and its time ---------------------------


@dataclass
class Answer:
    kind: str
    status: int | None  # None: no HTTP answer at all
    data: Any
    headers: dict[str, str]
    started: float  # time.monotonic()
    elapsed: float

    @property
    def ended(self) -> float:
        return self.started + self.elapsed

    @property
    def code(self) -> str | None:
        if isinstance(self.data, dict) and isinstance(self.data.get("error"), dict):
            return str(self.data["error"].get("code"))
        return None


class Client:
    """`ApiClient` to 127.0.0.1:`port` whose every answer (or lack of one) goes to
    `answers`, with its time."""

    def __init__(self, port: int, answers: list[Answer]) -> None:
        # longer than any request may take: it is measured
        self.api, self.answers = ApiClient(port, timeout=MAX_REQUEST_S * 3), answers

    def close(self) -> None:
        self.api.close()

    def call(self, kind: str, method: str, path: str, body: Any = None,
             token: str | None = None) -> Answer:
        started = time.monotonic()
        try:
            reply = self.api.call(method, path, body, token=token)
        except ConnectionFailed:
            answer = Answer(kind, None, None, {}, started, time.monotonic() - started)
        else:
            answer = Answer(kind, reply.status, reply.data, reply.headers, reply.started,
                            reply.elapsed)
        self.answers.append(answer)
        return answer


def play(port: int, index: int, stop: threading.Event, answers: list[Answer],
         ledger: Ledger, max_requests: int = 3000) -> None:
    """Play whole games (vs the computer) from the hints, moves with expected_version,
    until `stop`; a refused or failed move re-reads the game."""
    client = Client(port, answers)
    budget = max_requests
    game_no = 0
    try:
        while not stop.is_set() and budget > 0:
            budget -= 1
            game_no += 1
            created = client.call("create", "POST", "/api/games", {
                "player_name": f"outage {index}", "difficulty": "easy", "height": HEIGHT,
                "width": WIDTH, "seed": index * 1000 + game_no})
            if created.status != 201:
                time.sleep(0.1)
                continue
            game_id, token = created.data["game_id"], created.data["token"]
            ledger.tokens[game_id] = token
            ledger.add(game_id, created.data["events"])
            state = created.data["state"]
            base = f"/api/games/{game_id}"
            while not state["over"] and not stop.is_set() and budget > 0:
                budget -= 3
                body: dict[str, Any] = {"expected_version": state["version"]}
                hint = client.call("hint", "GET", f"{base}/hint", token=token)
                if hint.status == 200 and hint.data["action"] == "line":
                    body.update(x=hint.data["x"], y=hint.data["y"])
                elif hint.status != 200 and state["legal"]["lines"]:
                    # no hint (the database is down?): a legal line of the last state
                    body.update(zip("xy", state["legal"]["lines"][0], strict=True))
                moved = client.call("move", "POST",
                                    f"{base}/{'lines' if 'x' in body else 'advance'}",
                                    body, token)
                if moved.status == 200:
                    ledger.add(game_id, moved.data["events"])
                    state = moved.data["state"]
                    continue
                time.sleep(0.05)  # refused or failed: do not spin, then re-read the game
                read = client.call("get", "GET", base)
                if read.status == 200:
                    state = read.data["state"]
    finally:
        client.close()


def poll_readyz(port: int, stop: threading.Event, answers: list[Answer]) -> None:
    client = Client(port, answers)
    try:
        for _ in range(2000):
            if stop.is_set():
                break
            client.call("readyz", "GET", "/readyz")
            time.sleep(0.2)
    finally:
        client.close()


def assert_no_500(answers: list[Answer]) -> None:
    """Every answer is a normal one or the outage's 503; no connection was cut."""
    for a in answers:
        assert a.status is not None, f"{a.kind}: no HTTP answer"
        if a.kind == "readyz":
            assert a.status in (200, 503), (a.status, a.data)
            continue
        assert a.status < 500 or a.status == 503, (a.kind, a.status, a.data)
        if a.status == 503:
            assert a.data == {"error": {"code": "unavailable", "message": UNAVAILABLE_MESSAGE,
                                        "details": {}}}, a.data
            assert a.headers.get("retry-after") == str(RETRY_AFTER_S), a.headers


def run_verify(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*squares_command(), "verify", "--all"], capture_output=True,
                          text=True, timeout=120, cwd=REPO,
                          env={**os.environ, "DATABASE_URL": url})


def first_move_after(answers: list[Answer], moment: float) -> Answer | None:
    moves = [a for a in answers if a.kind == "move" and a.status == 200 and a.started >= moment]
    return min(moves, key=lambda a: a.ended, default=None)


# -- PostgreSQL stopped under load -------------------------------------------------------


def test_postgres_stopped_for_5_s_under_load(tmp_path: Path) -> None:
    with own_cluster() as cluster:
        migrate_database(cluster.url)
        server = start_server(cluster.url, log_path=tmp_path / "serve.log",
                              extra_args=["--threads", "8"])
        stop = threading.Event()
        answers: list[Answer] = []
        ledgers = [Ledger() for _ in range(CLIENTS)]
        threads = [threading.Thread(target=play, args=(server.port, i, stop, answers,
                                                       ledgers[i]), daemon=True)
                   for i in range(CLIENTS)]
        threads.append(threading.Thread(target=poll_readyz, daemon=True,
                                        args=(server.port, stop, answers)))
        try:
            workers = sorted(server.wait_workers())
            for t in threads:
                t.start()
            time.sleep(2.0)  # play a little first
            down_from = time.monotonic()
            cluster.stop()
            down = time.monotonic()
            time.sleep(OUTAGE_S)
            up_from = time.monotonic()
            cluster.start()
            up = time.monotonic()
            deadline = up + RECOVERY_S
            while first_move_after(answers, up) is None and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1.0)  # and play on a little
            stop.set()
            for t in threads:
                t.join(timeout=60)
            assert not any(t.is_alive() for t in threads), "a client did not stop"
            report(answers, down_from, down, up_from, up)

            assert_no_500(answers)
            longest = max(answers, key=lambda a: a.elapsed)
            assert longest.elapsed < MAX_REQUEST_S, (longest.kind, longest.elapsed)
            outage = [a for a in answers if a.started >= down and a.ended <= up_from]
            assert any(a.status == 503 and a.kind != "readyz" for a in outage), \
                Counter((a.kind, a.status) for a in outage)
            ready = [a for a in outage if a.kind == "readyz"]
            assert ready and all(a.status == 503 for a in ready), [a.status for a in ready]
            for a in ready:
                assert a.data["error"]["code"] == "not_ready"
                assert a.data["error"]["message"] == "the database does not answer"
                text = json.dumps(a.data)
                assert "127.0.0.1" not in text and str(cluster.port) not in text, text
            # back by itself: the same workers, moves and /readyz succeed again
            recovered = first_move_after(answers, up)
            assert recovered is not None, f"no move succeeded within {RECOVERY_S} s"
            assert any(a.kind == "readyz" and a.status == 200 and a.started >= up
                       for a in answers)
            assert sorted(server.worker_pids()) == workers, "a worker was restarted"
            assert server.proc.poll() is None
            ledger = Ledger()
            for one in ledgers:
                ledger.merge(one)
            assert ledger.acknowledged > 0
            assert missing_acknowledged(server.port, ledger) == []
            log = server.log_tail(1_000_000)
            assert "the database is not available" in log  # the errors went to the log
            assert "unhandled error" not in log
        finally:
            stop.set()
            for t in threads:
                if t.ident is not None:
                    t.join(timeout=30)
            server.stop()
        verify = run_verify(cluster.url)
        assert verify.returncode == 0, verify.stdout[-3000:] + verify.stderr[-3000:]


def report(answers: list[Answer], down_from: float, down: float, up_from: float,
           up: float) -> None:
    outage = [a for a in answers if a.started >= down and a.ended <= up_from]
    overlapping = [a for a in answers if a.ended >= down_from and a.started <= up]
    recovered = first_move_after(answers, up)
    longest = max(answers, key=lambda a: a.elapsed)
    print(f"\n[postgres stopped {up_from - down:.1f} s; pg_ctl stop {down - down_from:.2f} s, "
          f"start {up - up_from:.2f} s] {len(answers)} answers in all")
    print("  during the outage:", dict(sorted(Counter(
        f"{a.kind} {a.status}" for a in outage).items())))
    print("  overlapping it (stop to start):", dict(sorted(Counter(
        f"{a.kind} {a.status}" for a in overlapping).items())))
    print(f"  longest request: {longest.kind} {longest.status} {longest.elapsed * 1000:.0f} ms;"
          f" longest during the outage: "
          f"{max((a.elapsed for a in overlapping), default=0) * 1000:.0f} ms")
    if recovered is not None:
        print(f"  first 2xx move {recovered.ended - up:.2f} s after PostgreSQL was up "
              f"({recovered.ended - up_from:.2f} s after pg_ctl start began)")
    print(f"  moves: {sum(1 for a in answers if a.kind == 'move' and a.status == 200)} "
          "acknowledged in all")


# -- a full SQLite disk -----------------------------------------------------------------


@contextlib.contextmanager
def tiny_filesystem(path: Path, size: str = "4m") -> Iterator[Path]:
    if os.geteuid() != 0:
        pytest.fail("mounting a tmpfs needs root, as ./dev test and CI run here")
    path.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs",
                              str(path)], capture_output=True, text=True, timeout=30)
    if mounted.returncode != 0:
        pytest.fail(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        if subprocess.run(["umount", str(path)], capture_output=True,
                          timeout=30).returncode != 0:
            subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=30)


def fill(path: Path, limit_bytes: int = 64 << 20) -> int:
    """Write zeros to `path` until the filesystem is full; the bytes written."""
    written = 0
    chunk = b"\0" * 4096
    with path.open("wb", buffering=0) as f:
        while written < limit_bytes:
            try:
                written += f.write(chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                break
    return written


def events_of(client: Client, game_id: str) -> tuple[int, list[Any]]:
    answer = client.call("events", "GET", f"/api/games/{game_id}/events")
    assert answer.status == 200, (answer.status, answer.data)
    return answer.data["version"], answer.data["events"]


def move(client: Client, game_id: str, token: str) -> Answer:
    state = client.call("get", "GET", f"/api/games/{game_id}").data["state"]
    body: dict[str, Any] = {"expected_version": state["version"]}
    if state["legal"]["lines"]:
        x, y = state["legal"]["lines"][0]
        body.update(x=x, y=y)
    return client.call("move", "POST",
                       f"/api/games/{game_id}/{'lines' if 'x' in body else 'advance'}",
                       body, token)


def test_a_full_sqlite_disk_is_a_503_and_nothing_is_half_written(tmp_path: Path) -> None:
    with tiny_filesystem(tmp_path / "tiny") as tiny:
        url = sqlite_url(tiny / "squares.db")
        migrate_database(url)
        server: Server | None = None
        try:
            server = start_server(url, log_path=tmp_path / "serve.log")
            answers: list[Answer] = []
            client = Client(server.port, answers)
            # two humans: a move is one transaction (no computer turn after it)
            created = client.call("create", "POST", "/api/games", {
                "player_name": "Ada", "mode": "two_players", "second_name": "Bo",
                "height": HEIGHT, "width": WIDTH, "seed": 5})
            assert created.status == 201, created.data
            game_id, token = created.data["game_id"], created.data["token"]
            for _ in range(3):
                assert move(client, game_id, token).status == 200
            filler = tiny / "filler"
            filled = fill(filler)
            refused = None
            for _ in range(50):  # the first write that needs a new block fails
                before = events_of(client, game_id)
                answer = move(client, game_id, token)
                if answer.status != 200:
                    refused = answer
                    break
            assert refused is not None, "the disk never filled up"
            assert_no_500(answers)
            assert refused.status == 503 and refused.code == "unavailable"
            assert refused.headers["retry-after"] == str(RETRY_AFTER_S)
            assert events_of(client, game_id) == before  # nothing of it is stored
            new_game = client.call("create", "POST", "/api/games", {"player_name": "Cy"})
            assert new_game.status == 503 and new_game.code == "unavailable"
            log = server.log_tail(200_000)
            assert "database or disk is full" in log or "disk I/O error" in log
            filler.unlink()  # room again: the same server goes on
            after = move(client, game_id, token)
            assert after.status == 200, after.data
            version, events = events_of(client, game_id)
            # the move's events (one line, or an advance with its pieces) follow the
            # ones from before the full disk, with no gap
            assert after.data["state"]["version"] == version > before[0]
            assert events[: before[0]] == before[1]
            assert [e["seq"] for e in events] == list(range(1, version + 1))
            client.close()
            print(f"\n[sqlite on a 4 MiB tmpfs] filled with {filled} bytes: "
                  f"move {refused.status} {refused.code} in {refused.elapsed * 1000:.0f} ms; "
                  f"after unlinking the filler: move {after.status}")
        finally:
            if server is not None:
                server.stop()
        verify = run_verify(url)
        assert verify.returncode == 0, verify.stdout[-3000:] + verify.stderr[-3000:]
