"""One order over every stream: each event's ``position``, for followers.

An append takes its positions from the one-row counter ``event_positions`` in its
own transaction (`next_positions`). The counter's row stays locked until that
transaction ends, so positions are committed in the order they are given, and a
rolled-back append gives its positions back. A follower that has read up to
position p therefore never meets, later, a committed event below p: reading
"after p" misses nothing. Gaps still occur (deleted games), and readers step over
them: positions are ordered, not dense.

SQLite serialises writers anyway; on PostgreSQL the counter serialises only the
end of appends (the events insert to the commit), not their reads and decisions.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import BigInteger, bindparam, func, select, update
from sqlalchemy.engine import Connection

from .schema import event_positions_table, events_table

_COUNTER = event_positions_table
_E = events_table


_TAKE = (update(_COUNTER).where(_COUNTER.c.id == 1)
         .values(last=_COUNTER.c.last + bindparam("count", type_=BigInteger))
         .returning(_COUNTER.c.last))
# PostgreSQL: the same round trip sends the append's NOTIFY (delivered on commit)
TAKE_AND_NOTIFY = _TAKE.returning(
    func.pg_notify(bindparam("channel"), bindparam("payload")).label("notified"))


def next_positions(conn: Connection, count: int,
                   notify: tuple[str, str] | None = None) -> int:
    """Take `count` positions for this transaction's events; returns the first.
    `notify`: (channel, payload) of a PostgreSQL ``NOTIFY`` sent with it."""
    params: dict[str, int | str]
    if notify is None:
        statement, params = _TAKE, {"count": count}
    else:
        statement, params = TAKE_AND_NOTIFY, {"count": count, "channel": notify[0],
                                               "payload": notify[1]}
    last = conn.execute(statement, params).scalar_one()  # the first column: `last`
    return int(last) - count + 1


@dataclass(frozen=True)
class Notice:
    """An event as a follower sees it: where it stands, whose it is, what it is."""

    position: int
    game_id: str
    seq: int
    type: str


class EventLog:
    """The events in position order, as followers read them."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def after(self, position: int, limit: int, types: tuple[str, ...] | None = None,
              upto: int | None = None) -> list[Notice]:
        """The events after `position` (and at most `upto`), oldest first, at most
        `limit`, only of `types` when given."""
        query = (select(_E.c.position, _E.c.game_id, _E.c.seq, _E.c.type)
                 .where(_E.c.position > position).order_by(_E.c.position).limit(limit))
        if upto is not None:
            query = query.where(_E.c.position <= upto)
        if types is not None:
            query = query.where(_E.c.type.in_(types))
        return [Notice(*row) for row in self._conn.execute(query)]

    def count_after(self, position: int, types: tuple[str, ...]) -> int:
        """How many events of `types` come after `position`."""
        query = (select(func.count()).select_from(_E)
                 .where(_E.c.position > position, _E.c.type.in_(types)))
        return int(self._conn.execute(query).scalar_one())

    def last(self) -> int:
        """The last position given (0 before any event)."""
        return int(self._conn.execute(select(_COUNTER.c.last)).scalar_one())
