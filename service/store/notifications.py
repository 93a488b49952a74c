"""Listening for new events (PostgreSQL): each append announces its game and last
seq on `NOTIFY_CHANNEL` (`pg_append`; a new game's first events,
`events.EventRepository.insert`), delivered on commit; `listen` opens a connection
of its own for ``LISTEN`` (autocommit, outside the pool, for as long as the listener
wants) and hands out what arrives as (game id, seq).

The notification's payload, ``<game id>:<seq>``, is written (`payload`) and read
(`parse_payload`) here only, so both writers and the listener agree on it.

Notifications are not replayed to a listener that was down: a listener reads the
current versions itself after (re)connecting.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

NOTIFY_CHANNEL = "squares_events"
CONNECT_TIMEOUT_S = 10


def payload(game_id: str, seq: int) -> str:
    """The payload announcing that `game_id` has events up to `seq`."""
    return f"{game_id}:{seq}"


def parse_payload(text: str) -> tuple[str, int] | None:
    """(game id, seq) of a `payload`, or None for anything else on the channel. The
    seq follows the last colon: a game id could hold one, a seq cannot."""
    game_id, _, seq = text.rpartition(":")
    if not (game_id and seq.isascii() and seq.isdigit()):
        return None
    return game_id, int(seq)


class ListenerLost(Exception):
    """The listening connection could not be opened, or was lost."""


class Listener:
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def changes(self, timeout: float) -> Iterator[tuple[str, int]]:
        """(game id, seq) of each notification within `timeout` seconds."""
        for notify in self._conn.notifies(timeout=timeout):
            change = parse_payload(notify.payload)
            if change is not None:
                yield change


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
