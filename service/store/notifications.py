"""Listening for new events (PostgreSQL): each append announces its game and last
seq on `NOTIFY_CHANNEL` (`pg_append`; a new game's first events,
`events.EventRepository.insert`), delivered on commit; `listen` opens a connection
of its own for ``LISTEN`` (autocommit, outside the pool, for as long as the listener
wants) and hands out what arrives as (game id, seq).

Notifications are not replayed to a listener that was down: a listener reads the
current versions itself after (re)connecting.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .events import NOTIFY_CHANNEL

CONNECT_TIMEOUT_S = 10


class ListenerLost(Exception):
    """The listening connection could not be opened, or was lost."""


class Listener:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def changes(self, timeout: float) -> Iterator[tuple[str, int]]:
        """(game id, seq) of each notification within `timeout` seconds."""
        for notify in self._conn.notifies(timeout=timeout):
            game_id, _, seq = notify.payload.rpartition(":")
            if seq.isdigit():
                yield game_id, int(seq)


@contextmanager
def listen(libpq_dsn: str) -> Iterator[Listener]:
    """A `Listener` on its own connection to `libpq_dsn`; `ListenerLost` when that
    connection fails (at the start or while it is used)."""
    import psycopg

    try:
        with psycopg.connect(libpq_dsn, autocommit=True,
                             connect_timeout=CONNECT_TIMEOUT_S) as conn:
            conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
            yield Listener(conn)
    except psycopg.Error as exc:
        raise ListenerLost(str(exc)) from exc
