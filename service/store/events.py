"""The events table: insert a stream's new events, load a stream back, and the one
codec between an event and its row (`row_values` one way, `RawEvent.decode` the
other), which PostgreSQL's one-statement append (`pg_append`) uses too.

The primary key ``(game_id, seq)`` is the last word on concurrency (RULES V3): of
two writers that decided on the same version, only one can insert a given ``seq``;
the other's insert fails with an ``IntegrityError``, which becomes `SequenceTaken`
here and a `VersionConflict` when its transaction has been rolled back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..domain.event_codec import event_from_dict
from ..domain.events import Event
from . import notifications
from .positions import next_positions
from .schema import events_table

_T = events_table
_INSERT = insert(_T)
_SELECT = (
    select(_T.c.seq, _T.c.type, _T.c.schema_version, _T.c.payload, _T.c.recorded_at)
    .where(_T.c.game_id == bindparam("gid"), _T.c.seq > bindparam("after"),
           _T.c.seq <= bindparam("upto"))
    .order_by(_T.c.seq)
)
NO_LIMIT = 2**31 - 1


@dataclass(frozen=True)
class StoredEvent:
    game_id: str
    seq: int  # 1-based; equals the state's version after this event
    event: Event
    recorded_at: datetime


@dataclass(frozen=True)
class RawEvent:
    """An events row as stored, before it is decoded (what `verify` checks)."""

    seq: int
    type: str
    schema_version: int
    payload: Any
    recorded_at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, "v": self.schema_version, "data": self.payload}

    def decode(self, game_id: str, *, strict: bool = False) -> StoredEvent:
        event = event_from_dict(self.as_dict(), strict=strict)
        return StoredEvent(game_id, self.seq, event, self.recorded_at)


def row_values(stored: StoredEvent) -> dict[str, Any]:
    """The events row's columns that say what `stored` is: seq, type, schema_version
    and payload (the game's id, time and position are the append's)."""
    raw = stored.event.to_dict()
    return {"seq": stored.seq, "type": raw["type"], "schema_version": raw["v"],
            "payload": raw["data"]}


class SequenceTaken(Exception):
    """Another writer stored one of these sequence numbers first."""

    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class EventRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def insert(self, stored: Sequence[StoredEvent]) -> None:
        """Insert one game's events (one statement, executemany) at the next global
        positions (`positions`); `SequenceTaken` on a clash. On PostgreSQL the live
        feed's listeners are told (``NOTIFY``, `notifications.payload` of the game and
        its last seq, delivered only if and when this transaction commits; one per
        append, not per event). SQLite has no notifications: the feed polls."""
        rows = [{"game_id": s.game_id, **row_values(s), "recorded_at": s.recorded_at}
                for s in stored]
        notify = None
        if self._conn.dialect.name == "postgresql":
            last = stored[-1]
            notify = (notifications.NOTIFY_CHANNEL,
                      notifications.payload(last.game_id, last.seq))
        try:
            first = next_positions(self._conn, len(rows), notify)
            for i, row in enumerate(rows):
                row["position"] = first + i
            self._conn.execute(_INSERT, rows)
        except IntegrityError as exc:
            raise SequenceTaken(stored[0].game_id) from exc

    def raw(self, game_id: str, after: int = 0, upto: int | None = None,
            limit: int | None = None) -> list[RawEvent]:
        query = _SELECT if limit is None else _SELECT.limit(limit)
        params = {"gid": game_id, "after": after, "upto": NO_LIMIT if upto is None else upto}
        return [RawEvent(*row) for row in self._conn.execute(query, params)]

    def load(self, game_id: str, after: int = 0, upto: int | None = None,
             limit: int | None = None) -> list[StoredEvent]:
        """The events with ``after < seq <= upto``, oldest first (at most `limit`)."""
        return [raw.decode(game_id) for raw in self.raw(game_id, after, upto, limit)]

    def last_seq(self, game_id: str) -> int | None:
        seq = self._conn.execute(select(func.max(_T.c.seq)).where(_T.c.game_id == game_id))
        value = seq.scalar()
        return None if value is None else int(value)

    def game_ids(self) -> set[str]:
        return set(self._conn.execute(select(_T.c.game_id).distinct()).scalars())

    def delete(self, game_id: str) -> None:
        self._conn.execute(delete(_T).where(_T.c.game_id == game_id))
