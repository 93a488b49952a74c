"""Which database errors are outages: the database cannot be reached or used right
now (a refused or lost connection, the pool's checkout timeout, the write lock not
had in time, PostgreSQL shutting down or out of disk, SQLite's full disk, I/O error
or unopenable file), as opposed to a bug in a statement.

`EventStore.unit_of_work` turns an outage into the service layer's
`service.errors.DatabaseUnavailable` (the API's 503 ``unavailable``), so no caller
above the store sorts SQLAlchemy's or the drivers' exceptions itself.
"""

from __future__ import annotations

import sqlite3
import sys

from sqlalchemy import exc as sa_exc

from .writer_queue import WriteLockTimeout

# SQLite result codes (the primary code, the low byte of an extended one) that mean
# the file cannot be used now: busy/locked past the busy timeout, out of memory,
# read-only, an I/O error, a full disk, a file that cannot be opened.
SQLITE_OUTAGE_CODES = frozenset({5, 6, 7, 8, 10, 13, 14, 15})
SQLITE_OUTAGE_TEXTS = ("database or disk is full", "disk i/o error", "unable to open",
                       "database is locked", "readonly database")
# PostgreSQL SQLSTATE classes: 08 connection exception, 28 the login is refused,
# 53 insufficient resources (disk full, out of memory, too many connections),
# 57 operator intervention (shutting down, starting up, query cancelled), 58 system
# error (I/O). Others (syntax, constraint, limits of a statement) are bugs.
PG_OUTAGE_CLASSES = frozenset({"08", "28", "53", "57", "58"})
_CHAIN_DEPTH = 8


def database_outage(error: BaseException) -> bool:
    """Whether `error` (or what it was raised from) says that the database cannot be
    reached or used right now, as opposed to a bug in a statement."""
    seen: set[int] = set()
    current: BaseException | None = error
    for _ in range(_CHAIN_DEPTH):
        if current is None or id(current) in seen:
            return False
        seen.add(id(current))
        if _is_outage(current):
            return True
        # SQLAlchemy's error wraps the driver's (``orig``); others may be raised from one
        orig = current.orig if isinstance(current, sa_exc.DBAPIError) else None
        current = orig if isinstance(orig, BaseException) else current.__cause__
    return False


def _is_outage(error: BaseException) -> bool:
    if isinstance(error, (sa_exc.DisconnectionError, sa_exc.TimeoutError, WriteLockTimeout)):
        return True  # a dead connection SQLAlchemy gave up on; the pool's checkout
        # timeout; SQLite's write lock not had in time
    if isinstance(error, sa_exc.DBAPIError):
        if error.connection_invalidated:
            return True  # SQLAlchemy recognised a disconnect
        # raised while connecting (no statement yet): the database is not there
        return error.statement is None and isinstance(
            error, (sa_exc.OperationalError, sa_exc.InterfaceError))
    return _driver_outage(error)


def _driver_outage(error: BaseException) -> bool:
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF in SQLITE_OUTAGE_CODES
        text = str(error).lower()
        return any(t in text for t in SQLITE_OUTAGE_TEXTS)
    # psycopg's errors come from psycopg, imported by then (an import here would cost
    # every SQLite-only process its memory)
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None and isinstance(error, psycopg.Error):
        if isinstance(error, psycopg.InterfaceError):
            return True  # the connection is closed or lost
        sqlstate = error.sqlstate
        if sqlstate is None:  # no answer from a server: refused, reset, timed out
            return isinstance(error, psycopg.OperationalError)
        return sqlstate[:2] in PG_OUTAGE_CLASSES
    return False


def first_line(error: BaseException) -> str:
    """The first line of what the driver said (SQLAlchemy's wrapper adds the statement)."""
    lines = str(getattr(error, "orig", None) or error).strip().splitlines()
    return lines[0] if lines else type(error).__name__
