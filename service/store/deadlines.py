"""Client-side deadlines on PostgreSQL round trips: what a frozen server cannot stall.

The server's ``statement_timeout`` ends a slow statement, and TCP keepalives with
``tcp_user_timeout`` end a connection whose host or network went away (`engine`).
Neither helps when the server process is frozen (SIGSTOP, a stuck host whose kernel
still answers): its kernel acknowledges every packet, and the driver waits for an
answer without limit. So every round trip of a request's engine is watched (a
statement, a commit or rollback, the ping of an idle pooled connection): one thread looks every
`TICK_S`, and a round trip past its deadline has its socket shut down. The driver
then fails at once with a lost connection, which the pool drops and the API answers
with 503 ``unavailable``; once the server answers again, new connections work.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

TICK_S = 0.25

log = logging.getLogger(__name__)


class Watchdog:
    """Round trips in flight, each with its deadline; one daemon thread cuts the late."""

    def __init__(self, tick_s: float = TICK_S) -> None:
        self.tick_s = tick_s
        self.cut = 0  # connections cut so far
        self._lock = threading.Lock()
        self._watched: dict[int, tuple[float, Any]] = {}  # id(connection) -> (deadline, it)
        self._thread: threading.Thread | None = None

    def arm(self, dbapi_connection: Any, seconds: float) -> None:
        with self._lock:
            self._watched[id(dbapi_connection)] = (time.monotonic() + seconds, dbapi_connection)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="squares-db-deadlines",
                                                daemon=True)
                self._thread.start()

    def disarm(self, dbapi_connection: Any) -> None:
        with self._lock:
            self._watched.pop(id(dbapi_connection), None)

    def _run(self) -> None:
        while True:
            time.sleep(self.tick_s)
            now = time.monotonic()
            with self._lock:  # a round trip disarmed meanwhile is not cut: same lock
                late = [key for key, (deadline, _) in self._watched.items() if deadline <= now]
                for key in late:
                    _, dbapi_connection = self._watched.pop(key)
                    self.cut += 1
                    _shut_down(dbapi_connection)


def _shut_down(dbapi_connection: Any) -> None:
    try:
        fd = dbapi_connection.pgconn.socket
        with socket.socket(fileno=os.dup(fd)) as sock:  # the same socket: shut for all
            sock.shutdown(socket.SHUT_RDWR)
    except Exception:  # noqa: BLE001 - already closed: nothing is waiting on it
        log.debug("a late connection was already closed", exc_info=True)
        return
    log.warning("the database did not answer in time: its connection was cut")


WATCHDOG = Watchdog()


def watch(engine: Engine, statement_s: float, ping_s: float,
          watchdog: Watchdog = WATCHDOG) -> None:
    """Watch every round trip of `engine`'s connections: statements and commits or
    rollbacks for `statement_s`, the ping of an idle pooled connection for `ping_s`.

    Through the dialect's own methods, not the engine's cursor events: an engine with
    any engine event listener dispatches events around every statement, 20-30 µs of
    CPU a statement here (docs/figures.md)."""
    dialect = engine.dialect
    for name, seconds, connection_of in (
            ("do_execute", statement_s, _of_cursor),
            ("do_executemany", statement_s, _of_cursor),
            ("do_execute_no_params", statement_s, _of_cursor),
            ("do_commit", statement_s, _of_connection),
            ("do_rollback", statement_s, _of_connection),
            ("do_ping", ping_s, _of_connection)):
        setattr(dialect, name, _watched(getattr(dialect, name), seconds, watchdog,
                                        connection_of))


def _of_cursor(cursor: Any) -> Any:
    return cursor.connection


def _of_connection(connection: Any) -> Any:
    return getattr(connection, "dbapi_connection", connection)  # a pool fairy's own


def _watched(round_trip: Callable[..., Any], seconds: float, watchdog: Watchdog,
             connection_of: Callable[[Any], Any]) -> Callable[..., Any]:
    """`round_trip(cursor or connection, ...)` (a `Dialect` method) under a deadline on
    the driver's connection, `connection_of` its first argument."""

    def watched(first: Any, *args: Any, **kwargs: Any) -> Any:
        connection = connection_of(first)
        watchdog.arm(connection, seconds)
        try:
            return round_trip(first, *args, **kwargs)
        finally:
            watchdog.disarm(connection)

    return watched
