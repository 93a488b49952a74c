"""Engines: database URLs, and SQLite's pragmas and write transactions.

SQLite pragmas on every connection: ``journal_mode=WAL``, ``foreign_keys=ON``,
``busy_timeout`` (the engine's `Patience`) and ``synchronous=FULL``. FULL is a deliberate choice: a move
acknowledged to a player is on disk even after a power cut (NORMAL in WAL mode may
lose the last commits then; it never corrupts). The setting ``SQUARES_SQLITE_SYNCHRONOUS=NORMAL``
overrides it (the store benchmark compares both).

A write transaction on SQLite begins with ``BEGIN IMMEDIATE`` (it takes the write
lock up front, so concurrent writers queue on the busy timeout instead of failing
half-way); `write_engine` gives connections that do so. The driver's own transaction
handling is off, so `begin_sqlite` opens each transaction: the unit of work calls it,
and an engine made for migrations (`for_migrations`, Alembic opens its transactions
itself) calls it from SQLAlchemy's ``begin`` event. Only there: an engine with a
connection event listener makes every statement on it dispatch events, about a
quarter of a short read's CPU.

How long a database may keep a caller waiting is the engine's `Patience`: `REQUEST`
(the server's: a request meets its 503 within 5 s of an outage: a held SQLite write
lock, a PostgreSQL server that is gone or frozen) or `ADMIN` (the CLI's commands and
migrations, which may wait longer for their long statements and locks).
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DisconnectionError

from ..ops.database_urls import absolute_sqlite_url, sqlalchemy_url, sqlite_file
from . import private_files
from .deadlines import watch


@dataclass(frozen=True)
class Patience:
    """The longest waits of one engine's callers."""

    lock_s: float  # SQLite: for the write lock (the writers' queue, then the busy timeout)
    connect_s: int  # PostgreSQL: a connect (libpq's connect_timeout, at least 2)
    pool_s: float  # for a free pooled connection
    statement_s: float | None  # PostgreSQL's statement_timeout (None: none)
    deadline_s: float | None  # a round trip, on the client (`deadlines`; None: none)
    ping_s: float  # the ping of an idle pooled connection (`ping_after_idle`), on the client


REQUEST = Patience(lock_s=5.0, connect_s=2, pool_s=4.0, statement_s=3.0, deadline_s=4.0,
                   ping_s=1.5)
ADMIN = Patience(lock_s=30.0, connect_s=10, pool_s=30.0, statement_s=None, deadline_s=None,
                 ping_s=10.0)
SQLITE_BUSY_TIMEOUT_MS = round(REQUEST.lock_s * 1000)
PING_AFTER_IDLE_S = 1.0  # PostgreSQL: a pooled connection idle this long is pinged
_RETURNED_AT = "squares_returned_at"  # a pooled connection's info: back in the pool then
_PATIENCE: WeakKeyDictionary[Engine, Patience] = WeakKeyDictionary()
# TCP keepalives: a connection whose host or network went away fails within ~10 s,
# also an idle pooled one (libpq's parameters)
PG_KEEPALIVES = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                 "keepalives_count": 3, "tcp_user_timeout": 10_000}


def _json_dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def make_engine(url: str, patience: Patience = REQUEST, synchronous: str = "FULL", *,
                for_migrations: bool = False) -> Engine:
    """An engine for `url`, SQLite pragmas set (`synchronous`: the setting
    ``SQUARES_SQLITE_SYNCHRONOUS``); a relative SQLite path is taken from the current
    directory, and made private to this user before SQLite opens it (`private_files`).
    `for_migrations`: SQLite transactions begun by ``conn.begin()`` alone (Alembic's)
    are real ones too."""
    url = sqlalchemy_url(absolute_sqlite_url(url))
    if url.startswith("sqlite"):
        database = sqlite_file(url)
        if database is not None:  # its folders 0700, its files 0600
            private_files.prepare(database)
        engine = create_engine(url, json_serializer=_json_dumps)
        _configure_sqlite(engine, round(patience.lock_s * 1000), synchronous)
        if for_migrations:
            event.listen(engine, "begin", begin_sqlite)
        _PATIENCE[engine] = patience
        return engine
    # libpq waits for a server that accepts and never answers without limit.
    connect_args: dict[str, Any] = {"connect_timeout": patience.connect_s, **PG_KEEPALIVES}
    if patience.statement_s is not None:
        connect_args["options"] = f"-c statement_timeout={round(patience.statement_s * 1000)}"
    engine = create_engine(url, json_serializer=_json_dumps,
                           pool_timeout=patience.pool_s, connect_args=connect_args)
    if patience.deadline_s is not None:
        watch(engine, patience.deadline_s, patience.ping_s)
    ping_after_idle(engine)
    _PATIENCE[engine] = patience
    return engine


def ping_after_idle(engine: Engine, idle_s: float = PING_AFTER_IDLE_S) -> None:
    """The pool's pre-ping (a round trip before a connection is lent), only for a
    connection that has been back in the pool for `idle_s` or more. Under load a
    connection goes out again within milliseconds, and ``pool_pre_ping``'s round trip
    on every loan made a loan cost 590 µs of CPU instead of 430 (docs/figures.md). A
    connection lent without a ping that finds the server gone fails its first
    statement: that request answers 503, and SQLAlchemy then recycles every pooled
    connection as old as it. A ping that fails (`do_ping`, under the round-trip
    deadline of `deadlines`) gets a new connection instead, as ``pool_pre_ping``'s
    does (the pool's ``checkout`` event)."""

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info[_RETURNED_AT] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _lend(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        returned = record.info.get(_RETURNED_AT)  # none: connected just now
        if returned is None or time.monotonic() - returned < idle_s:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as exc:  # noqa: BLE001 - any failure: a new connection
            raise DisconnectionError(f"a pooled connection failed its ping: {exc}") from exc


def patience_of(engine: Engine) -> Patience:
    """The patience `engine` was made with (`REQUEST` for one made elsewhere)."""
    return _PATIENCE.get(engine, REQUEST)


def write_engine(engine: Engine) -> Engine:
    """The same pool; on SQLite its transactions begin with ``BEGIN IMMEDIATE``."""
    return engine.execution_options(squares_write=True)


def _configure_sqlite(engine: Engine, busy_timeout_ms: int, synchronous: str) -> None:
    locked_error = engine.dialect.loaded_dbapi.OperationalError

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin() emit BEGIN itself (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        # Switching a new file to WAL needs its exclusive lock, and SQLite answers
        # "database is locked" at once (no busy wait) when two processes open a new
        # file together (two workers migrating it): try again for a while.
        for attempt in itertools.count(1):
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except locked_error as exc:
                if "locked" not in str(exc) or attempt >= 200:
                    raise
                time.sleep(0.01)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()


def begin_sqlite(conn: Connection) -> None:
    """Open the driver's transaction of SQLAlchemy's `conn.begin()` on SQLite
    (``BEGIN IMMEDIATE`` on a `write_engine` connection); on the driver's
    connection: a statement through SQLAlchemy costs as much as the rest of a read."""
    dbapi = conn.connection.dbapi_connection
    if dbapi is not None and not dbapi.in_transaction:
        write = conn.get_execution_options().get("squares_write")
        dbapi.execute("BEGIN IMMEDIATE" if write else "BEGIN")
