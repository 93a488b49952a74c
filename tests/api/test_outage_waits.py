"""Outages end fast (issue 37): no request waits on the database for more than ~5 s.

SQLite: the write lock held by another program (a raw ``BEGIN IMMEDIATE``), or the
writers' queue held by another process: a move answers 503 ``unavailable`` after
about 5 s (`Patience.lock_s`, not the old 30 s busy timeout), and moves work again as
soon as the lock is free. PostgreSQL frozen (its postmaster and backends stopped with
SIGSTOP, a cluster of this test's own): every request in flight or arriving answers
503 within 5 s (statement deadlines on the client, `store.deadlines`; a frozen
server's kernel keeps acknowledging, so no TCP timeout would fire), and after SIGCONT
the same app answers again by itself.

The three scenarios mostly wait (5 s each), on databases of their own: they run at
once, in threads (`outcomes`, one per module), and each test checks its own.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.store import REQUEST, migrate
from squares_testing.throwaway_postgres import Cluster, cluster
from tests.apps import app_for_tests
from tests.conftest import close_app
from tests.databases import copy_sqlite

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


HELD_BY = {"another program's transaction": "program", "the writers' queue": "queue"}


def held_sqlite_lock(url: str, held_by: str) -> dict[str, Any]:
    """A move behind the write lock held by `held_by`, then one after it is freed:
    each answer and how long it took."""
    path = url.removeprefix("sqlite:///")
    with app_on(url) as app:
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
            refused, refused_took = _timed(lambda: _advance(app, game))
        finally:
            release()
        moved, moved_took = _timed(lambda: _advance(app, game))
        return {"refused": refused, "refused_took": refused_took,
                "moved": moved, "moved_took": moved_took}


@pytest.fixture(scope="module")
def outcomes(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory,
             ) -> Iterator[dict[str, Future[dict[str, Any]]]]:
    """Every scenario of this module, started at once: name -> its outcome."""
    tmp = tmp_path_factory.mktemp("outage-waits")
    scenarios: dict[str, Callable[[], dict[str, Any]]] = {
        held_by: (lambda held_by=held_by, name=name: held_sqlite_lock(
            copy_sqlite(sqlite_template, tmp / f"{name}.db"), held_by))
        for held_by, name in HELD_BY.items()}
    scenarios["frozen postgresql"] = frozen_postgresql
    with ThreadPoolExecutor(len(scenarios)) as pool:
        yield {name: pool.submit(_after, i * STAGGER_S, run)
               for i, (name, run) in enumerate(scenarios.items())}


# The scenarios start this far apart, so that their outages are not logged at the
# same moment: Python 3.11's traceback formatting parses source lines with `ast`,
# whose recursion count is shared by threads, and two threads formatting at once
# can raise "SystemError: AST constructor recursion depth mismatch" (CPython
# gh-106905), which pytest's log capture turns into the request's error. Seen once
# here with two held SQLite locks timing out together.
STAGGER_S = 0.7


def _after(delay_s: float, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    time.sleep(delay_s)
    return run()


@pytest.mark.parametrize("held_by", list(HELD_BY))
def test_a_held_sqlite_write_lock_is_a_503_within_5_s(
        outcomes: dict[str, Future[dict[str, Any]]], held_by: str) -> None:
    assert REQUEST.lock_s == PATIENCE_S
    outcome = outcomes[held_by].result(timeout=60)
    _assert_unavailable(outcome["refused"])
    assert PATIENCE_S - 0.5 <= outcome["refused_took"] <= PATIENCE_S + SLACK_S, outcome
    assert outcome["moved"].status_code == 200, outcome["moved"].get_json()
    assert outcome["moved_took"] < 1.0, outcome


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


def frozen_postgresql() -> dict[str, Any]:
    """A move and 8 reads while a cluster of its own is frozen, then reads until the
    app answers again (at most 15 s) and a move: each answer, and how long it took."""
    with cluster(prefix="squares-frozen-pg-") as made:
        if made is None:
            return {"missing": True}
        migrate(made.url)
        with app_on(made.url) as app:
            client = app.test_client()
            game = create_game(client, mode="two_players", second_name="Bo")
            game_id = game["game_id"]
            answers: list[tuple[Any, float]] = []

            def read() -> None:
                answers.append(_timed(lambda: app.test_client().get(f"/api/games/{game_id}")))

            version = state_of(client, game_id)["version"]
            with frozen(made):
                readers = [threading.Thread(target=read) for _ in range(8)]
                for reader in readers:
                    reader.start()
                    time.sleep(0.1)
                moved, took = _timed(lambda: _advance(app, game, version))
                for reader in readers:
                    reader.join(30)

            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:  # back by itself: new connections work
                if client.get(f"/api/games/{game_id}").status_code == 200:
                    break
                time.sleep(0.2)
            return {"moved": moved, "took": took, "answers": answers,
                    "read_after": client.get(f"/api/games/{game_id}").status_code,
                    "moved_after": _advance(app, game).status_code}


def test_a_frozen_postgresql_is_a_503_within_5_s_and_the_app_recovers(
        outcomes: dict[str, Future[dict[str, Any]]]) -> None:
    outcome = outcomes["frozen postgresql"].result(timeout=90)
    if outcome.get("missing"):
        pytest.fail("PostgreSQL server binaries not found (./dev test installs them)")
    _assert_unavailable(outcome["moved"])
    assert outcome["took"] <= PATIENCE_S + SLACK_S, outcome["took"]
    answers = outcome["answers"]
    assert len(answers) == 8, answers
    for answer, took in answers:
        _assert_unavailable(answer)
        assert took <= PATIENCE_S + SLACK_S, [t for _, t in answers]
    assert outcome["read_after"] == 200
    assert outcome["moved_after"] == 200
