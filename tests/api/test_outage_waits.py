"""Outages end fast (issue 37): no request waits on the database for more than ~5 s.

SQLite: the write lock held by another program (a raw ``BEGIN IMMEDIATE``), or the
writers' queue held by another process: a move answers 503 ``unavailable`` after
about 5 s (`Patience.lock_s`, not the old 30 s busy timeout), and moves work again as
soon as the lock is free. PostgreSQL frozen (its postmaster and backends stopped with
SIGSTOP, a cluster of this test's own): every request in flight or arriving answers
503 within 5 s (statement deadlines on the client, `store.deadlines`; a frozen
server's kernel keeps acknowledging, so no TCP timeout would fire), and after SIGCONT
the same app answers again by itself.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.store import REQUEST, migrate
from squares_testing.throwaway_postgres import Cluster, cluster
from tests.apps import app_for_tests
from tests.conftest import close_app

from .helpers import CheckedClient, bearer, create_game, state_of
from .test_readiness import _assert_unavailable

pytestmark = pytest.mark.serial  # how long requests wait is measured: run alone

PATIENCE_S = 5.0
SLACK_S = 1.5  # the test client's own work, a busy machine


@contextlib.contextmanager
def app_on(url: str) -> Iterator[Flask]:
    app = app_for_tests({"DATABASE_URL": url})
    app.test_client_class = CheckedClient
    try:
        yield app
    finally:
        close_app(app)


def _advance(app: Flask, game: dict[str, Any], version: int | None = None) -> Any:
    client = app.test_client()
    if version is None:
        version = state_of(client, game["game_id"])["version"]
    return client.post(f"/api/games/{game['game_id']}/advance",
                       json={"expected_version": version}, headers=bearer(game["token"]))


def _timed(call: Any) -> tuple[Any, float]:
    started = time.monotonic()
    answer = call()
    return answer, time.monotonic() - started


@pytest.mark.parametrize("held_by", ["another program's transaction", "the writers' queue"])
def test_a_held_sqlite_write_lock_is_a_503_within_5_s(
        sqlite_database_url: str, held_by: str) -> None:
    assert REQUEST.lock_s == PATIENCE_S
    path = sqlite_database_url.removeprefix("sqlite:///")
    with app_on(sqlite_database_url) as app:
        game = create_game(app.test_client(), mode="two_players", second_name="Bo")
        if held_by == "the writers' queue":
            fd = os.open(path + "-writers", os.O_RDWR | os.O_CREAT, 0o644)
            fcntl.flock(fd, fcntl.LOCK_EX)
            release: Any = lambda: (fcntl.flock(fd, fcntl.LOCK_UN), os.close(fd))  # noqa: E731
        else:
            other = sqlite3.connect(path, isolation_level=None)
            other.execute("BEGIN IMMEDIATE")
            release = lambda: (other.rollback(), other.close())  # noqa: E731
        try:
            refused, took = _timed(lambda: _advance(app, game))
        finally:
            release()
        _assert_unavailable(refused)
        assert PATIENCE_S - 0.5 <= took <= PATIENCE_S + SLACK_S, took
        moved, took = _timed(lambda: _advance(app, game))
        assert moved.status_code == 200, moved.get_json()
        assert took < 1.0


# -- PostgreSQL frozen ------------------------------------------------------------------


def _postmaster_and_backends(made: Cluster) -> list[int]:
    postmaster = int((made.data / "postmaster.pid").read_text().split()[0])
    children = Path(f"/proc/{postmaster}/task/{postmaster}/children").read_text().split()
    return [postmaster, *map(int, children)]


@contextlib.contextmanager
def frozen(made: Cluster) -> Iterator[None]:
    pids = _postmaster_and_backends(made)
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


def test_a_frozen_postgresql_is_a_503_within_5_s_and_the_app_recovers() -> None:
    with cluster(prefix="squares-frozen-pg-") as made:
        if made is None:
            pytest.fail("PostgreSQL server binaries not found (./dev test installs them)")
        migrate(made.url)
        with app_on(made.url) as app:
            client = app.test_client()
            game = create_game(client, mode="two_players", second_name="Bo")
            game_id = game["game_id"]
            answers: list[tuple[int, float]] = []

            def read() -> None:
                answer, took = _timed(lambda: app.test_client().get(f"/api/games/{game_id}"))
                if answer.status_code == 503:
                    _assert_unavailable(answer)
                answers.append((answer.status_code, took))

            version = state_of(client, game_id)["version"]
            with frozen(made):
                readers = [threading.Thread(target=read) for _ in range(8)]
                for reader in readers:
                    reader.start()
                    time.sleep(0.1)
                moved, took = _timed(lambda: _advance(app, game, version))
                for reader in readers:
                    reader.join(30)
            _assert_unavailable(moved)
            assert took <= PATIENCE_S + SLACK_S, took
            assert len(answers) == 8, answers
            assert all(status == 503 and t <= PATIENCE_S + SLACK_S for status, t in answers), \
                answers

            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:  # back by itself: new connections work
                if client.get(f"/api/games/{game_id}").status_code == 200:
                    break
                time.sleep(0.2)
            assert client.get(f"/api/games/{game_id}").status_code == 200
            assert _advance(app, game).status_code == 200
