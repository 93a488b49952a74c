"""Engines: database URLs, and SQLite's pragmas and write transactions.

SQLite pragmas on every connection: ``journal_mode=WAL``, ``foreign_keys=ON``,
``busy_timeout=30000`` and ``synchronous=FULL``. FULL is a deliberate choice: a move
acknowledged to a player is on disk even after a power cut (NORMAL in WAL mode may
lose the last commits then; it never corrupts). ``SQUARES_SQLITE_SYNCHRONOUS=NORMAL``
overrides it (the store benchmark compares both).

A write transaction on SQLite begins with ``BEGIN IMMEDIATE`` (it takes the write
lock up front, so concurrent writers queue on the busy timeout instead of failing
half-way); `write_engine` gives connections that do so.
"""

from __future__ import annotations

import itertools
import json
import os
import time
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection

from .. import config

SQLITE_BUSY_TIMEOUT_MS = 30_000
# A database that does not answer costs a request at most these (then 503
# `unavailable`): a connect, and a wait for a free pooled connection.
PG_CONNECT_TIMEOUT_S = 3
POOL_TIMEOUT_S = 5


def _json_dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def sqlite_synchronous() -> str:
    value = os.environ.get("SQUARES_SQLITE_SYNCHRONOUS", "FULL").upper()
    if value not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"SQUARES_SQLITE_SYNCHRONOUS={value!r}")
    return value


def make_engine(url: str | None = None) -> Engine:
    """An engine for `url` (default `config.database_url()`), SQLite pragmas set; a
    relative SQLite path is taken from the current directory."""
    url = config.sqlalchemy_url(config.absolute_sqlite_url(url or config.database_url()))
    if url.startswith("sqlite"):
        config.ensure_sqlite_dir(url)
        engine = create_engine(url, json_serializer=_json_dumps)
        _configure_sqlite(engine)
        return engine
    # libpq waits for a server that accepts and never answers without limit.
    return create_engine(url, json_serializer=_json_dumps, pool_pre_ping=True,
                         pool_timeout=POOL_TIMEOUT_S,
                         connect_args={"connect_timeout": PG_CONNECT_TIMEOUT_S})


def write_engine(engine: Engine) -> Engine:
    """The same pool; on SQLite its transactions begin with ``BEGIN IMMEDIATE``."""
    return engine.execution_options(squares_write=True)


def _configure_sqlite(engine: Engine) -> None:
    synchronous = sqlite_synchronous()
    locked_error = engine.dialect.loaded_dbapi.OperationalError

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin() emit BEGIN itself (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
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

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("squares_write")
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")
