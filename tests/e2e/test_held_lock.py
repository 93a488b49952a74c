"""A held SQLite write lock under the shipped server: the requests behind it wait their
turn, and none waits longer than the lock's patience or is lost.

``squares serve`` runs one request at a time in each app worker (one thread: the
fastest design measured, docs/figures.md). So a request that reaches a worker whose
thread waits on the database's write lock (held here by another program's raw
``BEGIN IMMEDIATE``) waits until that wait ends: when the lock is freed, or after the
patience of 5 s with a 503 ``unavailable`` for the move (tests/api/test_outage_waits.py
times that move alone). ``/healthz`` and reads queued there are then answered at once.

Only 127.0.0.1 is used, every wait is bounded, the server is always stopped.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from service.store import REQUEST
from squares_testing.server import running_server
from tests.databases import sqlite_url

from .test_outages import Answer, Client, assert_no_500

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # how long requests wait is measured

SLACK_S = 1.5  # the clients' own work, a busy machine
READERS = 8
HELD_PAST_PATIENCE_S = REQUEST.lock_s + 1.0  # the move gives up first


def _create(client: Client, name: str) -> dict[str, Any]:
    created = client.call("create", "POST", "/api/games", {
        "player_name": name, "mode": "two_players", "second_name": "Bo", "seed": 7})
    assert created.status == 201, created.data
    return dict(created.data)


def _version(port: int, game: dict[str, Any]) -> int:
    client = Client(port, [])
    try:
        return int(client.call("get", "GET", f"/api/games/{game['game_id']}")
                   .data["state"]["version"])
    finally:
        client.close()


def _advance(port: int, game: dict[str, Any], version: int, answers: list[Answer]) -> None:
    client = Client(port, answers)
    try:
        client.call("move", "POST", f"/api/games/{game['game_id']}/advance",
                    {"expected_version": version}, game["token"])
    finally:
        client.close()


def _read(port: int, game_id: str, answers: list[Answer]) -> None:
    client = Client(port, answers)
    try:
        client.call("healthz", "GET", "/healthz")
        client.call("read", "GET", f"/api/games/{game_id}")
    finally:
        client.close()


def _hold_the_lock_during(path: Path, hold_s: float, port: int,
                          games: list[dict[str, Any]]) -> tuple[list[Answer], float]:
    """Hold the write lock for `hold_s` while a move of each of `games` waits on it
    and `READERS` clients read behind them; (every answer, when the lock was freed)."""
    answers: list[Answer] = []
    versions = [_version(port, game) for game in games]
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    held_at = time.monotonic()
    movers = [threading.Thread(target=_advance, args=(port, game, version, answers))
              for game, version in zip(games, versions, strict=True)]
    readers = [threading.Thread(target=_read, args=(port, games[i % len(games)]["game_id"],
                                                   answers)) for i in range(READERS)]
    try:
        for thread in movers:
            thread.start()
        time.sleep(0.3)  # the moves reach the lock first
        for thread in readers:
            thread.start()
        time.sleep(max(0.0, held_at + hold_s - time.monotonic()))
    finally:
        other.execute("ROLLBACK")
        freed = time.monotonic()
        other.close()
    for thread in movers + readers:
        thread.join(timeout=REQUEST.lock_s * 4)
        assert not thread.is_alive(), "a client got no answer"
    return answers, freed


def test_requests_behind_a_held_write_lock_wait_at_most_its_patience(tmp_path: Path) -> None:
    path = tmp_path / "squares.db"
    with running_server(sqlite_url(path), log_path=tmp_path / "serve.log") as server:
        setup = Client(server.port, [])
        games = [_create(setup, "Ada"), _create(setup, "Cy"), _create(setup, "Eve")]
        setup.close()

        # freed after 1 s: the moves go through, and everything queued is answered then
        answers, freed = _hold_the_lock_during(path, 1.0, server.port, games[:2])
        assert_no_500(answers)
        assert [a.status for a in answers if a.kind == "move"] == [200, 200], answers
        for kind in ("healthz", "read"):
            queued = [a for a in answers if a.kind == kind]
            assert len(queued) == READERS and all(a.status == 200 for a in queued)
            assert max(a.ended for a in queued) <= freed + SLACK_S, queued

        # held past the patience (one move: a second one queued behind it on the same
        # worker would meet the lock freed): the move is refused, and nothing waits
        # longer than that. The game is still in stage 1, so its advance is legal and
        # reaches the lock (the rules refuse an illegal move before it, at once).
        answers, freed = _hold_the_lock_during(path, HELD_PAST_PATIENCE_S, server.port,
                                               games[2:])
        assert_no_500(answers)
        moves = [a for a in answers if a.kind == "move"]
        assert [(a.status, a.code) for a in moves] == [(503, "unavailable")], moves
        assert moves[0].elapsed <= REQUEST.lock_s + SLACK_S, moves
        for kind in ("healthz", "read"):
            queued = [a for a in answers if a.kind == kind]
            assert len(queued) == READERS and all(a.status == 200 for a in queued)
            assert all(a.elapsed <= REQUEST.lock_s + SLACK_S for a in queued), queued
            assert max(a.ended for a in queued) < freed, "they waited for the moves, not the lock"
            print(f"\n[lock held {HELD_PAST_PATIENCE_S:g} s] {kind}: the longest wait "
                  f"{max(a.elapsed for a in queued):.2f} s; the move's 503 after "
                  f"{moves[0].elapsed:.2f} s")

        # and the same workers play on
        after: list[Answer] = []
        for name in ("Di", "Ed", "Flo", "Gus"):
            client = Client(server.port, after)
            game = _create(client, name)
            client.close()
            _advance(server.port, game, _version(server.port, game), after)
        assert [a.status for a in after] == [201, 200] * 4, after
