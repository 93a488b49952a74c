"""A database that cannot be reached or used: 503 ``unavailable`` with ``Retry-After``
(never a 500, nothing half-written), and ``/readyz`` naming only the failing part.

In-process (the Flask test client): which errors count as an outage
(`service.store.outages.database_outage`), a full SQLite file (``PRAGMA max_page_count``
on every connection of the app's pool), an unreachable PostgreSQL, a schema that is
behind. The real outages against ``squares serve`` are in tests/e2e/test_outages.py.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from flask import Flask
from sqlalchemy import event
from sqlalchemy import exc as sa_exc

from service.protocol.statuses import OUTAGE_RETRY_AFTER_S as RETRY_AFTER_S
from service.protocol.statuses import UNAVAILABLE_MESSAGE
from service.services import Services
from service.store import downgrade
from service.store.migrations import head_revisions
from service.store.outages import database_outage
from service.store.queries import Queries
from tests.apps import app_for_tests
from tests.conftest import close_app

from .helpers import CheckedClient, assert_error, bearer, create_game, snapshot, state_of

UNREACHABLE = "postgresql://nobody@127.0.0.1:1/nothing"


def _app(url: str) -> Flask:
    app = app_for_tests({"DATABASE_URL": url})
    app.test_client_class = CheckedClient
    return app


def _sqlite_error(message: str, code: int) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorcode = code  # type: ignore[attr-defined]
    return error


def _wrapped(orig: Exception, statement: str | None = "SELECT 1",
             cls: type[sa_exc.DBAPIError] = sa_exc.OperationalError) -> sa_exc.DBAPIError:
    return cls(statement, {}, orig)


# -- which errors are outages ----------------------------------------------------------


@pytest.mark.parametrize("error", [
    _wrapped(_sqlite_error("database or disk is full", 13)),
    _wrapped(_sqlite_error("disk I/O error", 4874)),  # SQLITE_IOERR_SHORT_READ
    _wrapped(_sqlite_error("unable to open database file", 14), statement=None),
    _wrapped(_sqlite_error("database is locked", 5)),
    _wrapped(sqlite3.OperationalError("database or disk is full")),  # no code: the text
    _wrapped(psycopg.OperationalError("connection failed: Connection refused"),
             statement=None),
    _wrapped(psycopg.OperationalError("server closed the connection unexpectedly")),
    _wrapped(psycopg.errors.AdminShutdown("terminating connection")),
    _wrapped(psycopg.errors.DiskFull("could not extend file")),
    _wrapped(psycopg.errors.TooManyConnections("too many clients")),
    _wrapped(psycopg.InterfaceError("the connection is closed"), cls=sa_exc.InterfaceError),
    sa_exc.TimeoutError("QueuePool limit of size 5 overflow 10 reached"),
    sa_exc.DisconnectionError("gone"),
    psycopg.OperationalError("connection failed"),  # a raw driver error
    _sqlite_error("database or disk is full", 13),
], ids=lambda e: f"{type(e).__name__}:{str(e)[:30]}")
def test_outages_are_recognised(error: Exception) -> None:
    assert database_outage(error)


def test_an_error_raised_from_an_outage_is_one() -> None:
    try:
        try:
            raise _wrapped(_sqlite_error("database or disk is full", 13))
        except sa_exc.OperationalError as exc:
            raise RuntimeError("while appending") from exc
    except RuntimeError as outer:
        assert database_outage(outer)


@pytest.mark.parametrize("error", [
    _wrapped(_sqlite_error("no such table: games", 1)),
    _wrapped(_sqlite_error('near "SELEC": syntax error', 1)),
    _wrapped(sqlite3.InterfaceError("Error binding parameter 1"), cls=sa_exc.InterfaceError),
    _wrapped(psycopg.errors.ProgramLimitExceeded("index row size exceeds maximum")),
    _wrapped(psycopg.errors.UndefinedTable("relation does not exist"),
             cls=sa_exc.ProgrammingError),
    _wrapped(psycopg.errors.UniqueViolation("duplicate key"), cls=sa_exc.IntegrityError),
    sa_exc.InvalidRequestError("a bug"),
    RuntimeError("disk on fire"),
], ids=lambda e: f"{type(e).__name__}:{str(e)[:30]}")
def test_bugs_are_not_outages(error: Exception) -> None:
    assert not database_outage(error)


# -- the answers -----------------------------------------------------------------------


def _assert_unavailable(response: Any) -> None:
    assert_error(response, 503, "unavailable")
    assert response.get_json()["error"] == {"code": "unavailable",
                                            "message": UNAVAILABLE_MESSAGE, "details": {}}
    assert response.headers["Retry-After"] == str(RETRY_AFTER_S)


def test_a_lost_database_is_a_503_with_retry_after_and_a_bug_stays_500(
        client: CheckedClient, services: Services, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    lost = _wrapped(psycopg.OperationalError(
        "connection to server at \"10.1.2.3\", port 5432 failed: Connection refused"),
        statement=None)

    def down(*_: Any, **__: Any) -> Any:
        raise lost

    monkeypatch.setattr(Queries, "high_scores", down)
    monkeypatch.setattr(Queries, "games", down)
    with caplog.at_level(logging.ERROR, logger="service.http.errors"):
        response = client.get("/api/highscores")
    _assert_unavailable(response)
    text = response.get_data(as_text=True)
    assert "10.1.2.3" not in text and "5432" not in text and "refused" not in text
    records = [r for r in caplog.records if r.name == "service.http.errors"]
    assert len(records) == 1 and records[0].exc_info is not None  # logged once, traceback
    assert "10.1.2.3" in caplog.text
    page = client.get("/games", headers={"Accept": "text/html"})
    assert page.status_code == 503 and page.mimetype == "text/html"
    assert page.headers["Retry-After"] == str(RETRY_AFTER_S)

    def bug(*_: Any, **__: Any) -> Any:
        raise _wrapped(_sqlite_error("no such column: scroe", 1))

    monkeypatch.setattr(Queries, "high_scores", bug)
    assert_error(client.get("/api/highscores"), 500, "internal_error")


@pytest.fixture
def filling(sqlite_database_url: str) -> Iterator[tuple[Flask, dict[str, int]]]:
    """The app on a SQLite file whose connections all stop at ``limit["pages"]`` pages
    (0: no limit) — a full disk, as far as SQLite is concerned."""
    app = _app(sqlite_database_url)
    limit = {"pages": 0}
    engine = app.extensions["squares"].store.engine

    @event.listens_for(engine, "connect")
    def _max_pages(dbapi_connection: Any, _record: Any) -> None:
        if limit["pages"]:
            dbapi_connection.execute(f"PRAGMA max_page_count={limit['pages']}")

    yield app, limit
    close_app(app)


def _page_count(app: Flask) -> int:
    with app.extensions["squares"].store.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA page_count").scalar_one())


def _move(client: CheckedClient, game_id: str, auth: dict[str, str]) -> Any:
    """Play the hint's move (a line or the end of a stage) at the current version."""
    state = state_of(client, game_id)
    assert not state["over"]
    hint = client.get(f"/api/games/{game_id}/hint", headers=auth).get_json()
    body: dict[str, Any] = {"expected_version": state["version"]}
    if hint["action"] == "line":
        body.update(x=hint["x"], y=hint["y"])
    return client.post(f"/api/games/{game_id}/{'lines' if 'x' in body else 'advance'}",
                       json=body, headers=auth)


def test_a_full_sqlite_file_is_a_503_and_nothing_is_half_written(
        filling: tuple[Flask, dict[str, int]], caplog: pytest.LogCaptureFixture) -> None:
    app, limit = filling
    client = app.test_client()
    engine = app.extensions["squares"].store.engine
    # two humans: one move is one transaction (no computer turn after it)
    game = create_game(client, mode="two_players", second_name="Bo", height=19, width=33)
    game_id, auth = game["game_id"], bearer(game["token"])
    limit["pages"] = _page_count(app)  # not one page more than the file has now
    engine.dispose()
    refused = None
    for _ in range(400):  # each move fills the last pages a little more
        before = snapshot(client, game_id)
        response = _move(client, game_id, auth)
        if response.status_code != 200:
            refused = response
            break
    assert refused is not None, "the file never filled up"
    assert len(before[1]) > 2  # a few moves fitted into the pages the file had
    _assert_unavailable(refused)
    assert "database or disk is full" in caplog.text
    assert snapshot(client, game_id) == before  # nothing of the refused move is stored
    limit["pages"] = 0  # room again
    engine.dispose()
    moved = _move(client, game_id, auth)
    assert moved.status_code == 200, moved.get_json()
    # the same move now goes in whole: an advance brings its pieces, so count its events
    version, events = snapshot(client, game_id)
    assert version == moved.get_json()["state"]["version"] > before[0]
    assert events[: len(before[1])] == before[1]
    assert [e["seq"] for e in events] == list(range(1, version + 1))
    assert events[before[0]]["type"] in ("line_placed", "stage_advanced")


# -- /readyz ---------------------------------------------------------------------------


def test_readyz_names_only_the_failing_part_when_the_database_does_not_answer(
        caplog: pytest.LogCaptureFixture) -> None:
    app = _app(UNREACHABLE)
    try:
        with caplog.at_level(logging.WARNING, logger="service.store.event_store"):
            response = app.test_client().get("/readyz")
        assert assert_error(response, 503, "not_ready") == {}
        assert response.get_json()["error"]["message"] == "the database does not answer"
        text = response.get_data(as_text=True)
        assert "127.0.0.1" not in text and ":1" not in text and "refused" not in text.lower()
        assert "127.0.0.1" in caplog.text  # the detail is in the log
    finally:
        close_app(app)


def test_readyz_names_a_schema_that_is_behind(client: CheckedClient,
                                              sqlite_database_url: str) -> None:
    assert client.get("/readyz").get_json() == {"status": "ok"}
    downgrade(sqlite_database_url, "0002")
    response = client.get("/readyz")
    assert assert_error(response, 503, "not_ready") == {}
    message = response.get_json()["error"]["message"]
    assert message.startswith("the database schema is not the newest migration")
    assert f"not {head_revisions()[0]}" in message
    assert "sqlite" not in message.lower() and "/" not in message
