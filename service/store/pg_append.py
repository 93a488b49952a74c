"""PostgreSQL: an append in one statement, one round trip instead of five.

SQLite's append (`games.GameRepository.advance`, then `events.EventRepository.insert`)
sends the games row's compare-and-set, the positions counter's update (with
PostgreSQL's ``NOTIFY``) and the events' insert, each a statement of its own, between
BEGIN and COMMIT. On PostgreSQL each is a round trip of about 200 µs of the client's
CPU through SQLAlchemy and psycopg (docs/figures.md). Here the same three writes go
as data-modifying CTEs of one ``INSERT``, with the same guarantees:

- ``cas``: the games row's compare-and-set, the very statement of SQLite's append
  (``WHERE version = <expected>``, the row locked until the end);
- ``pos``: the positions counter's update and the ``NOTIFY``, only if ``cas`` set
  the row (its ``RETURNING``), so a refused append takes no positions;
- the insert of the events, from ``pos``: nothing when ``cas`` set nothing, and an
  ``IntegrityError`` on the primary key ``(game_id, seq)`` as before.

The events come as one JSON array (`jsonb_to_recordset`) of their rows' values
(`events.row_values`, the one codec of both databases), so that the statement's
text, and SQLAlchemy's compiled form of it, is the same for any number of events
(one append's events share their time: `unit_of_work._stamp`).
Run alone on an autocommit connection the statement is its own transaction
(`event_store.EventStore.append`, for an append that enters no high scores): one
round trip for a whole append. Each write is gated on the one before it, so the
statement writes all three or none: the counter's row always exists (migration 0010),
and the insert takes one row per event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Integer, String, bindparam, column, exists, func, insert, select, true
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from . import notifications
from .events import SequenceTaken, StoredEvent, row_values
from .games import ADVANCE, GameRepository, advance_params
from .positions import TAKE_AND_NOTIFY
from .schema import UTCDateTime, events_table, games_table

_E = events_table
_CAS = ADVANCE.returning(games_table.c.game_id).cte("cas")
_POS = TAKE_AND_NOTIFY.where(exists(select(_CAS.c.game_id))).cte("pos")
_ROWS = (func.jsonb_to_recordset(bindparam("rows", type_=JSONB))
         .table_valued(column("seq", Integer), column("type", String),
                       column("schema_version", Integer), column("payload", JSONB))
         .render_derived(name="r", with_types=True))
_APPEND = (
    insert(_E)
    .from_select(
        ["game_id", "seq", "type", "schema_version", "payload", "recorded_at", "position"],
        select(bindparam("gid", type_=String), _ROWS.c.seq, _ROWS.c.type,
               _ROWS.c.schema_version, _ROWS.c.payload,
               bindparam("recorded_at", type_=UTCDateTime()),
               # the counter's new last, less the count, plus the event's place
               _POS.c.last - bindparam("count") + _ROWS.c.seq - bindparam("after"))
        .select_from(_ROWS.join(_POS, true())),
    )
    .add_cte(_CAS, _POS)
    .returning(_E.c.seq)  # what was inserted (the driver's rowcount is not kept here)
)


def append(conn: Connection, expected_version: int, stored: Sequence[StoredEvent],
           values: dict[str, Any]) -> None:
    """Append one game's `stored` events, decided at `expected_version`, and set its
    row to `values` (`summaries.summary_values` and the seats' name keys,
    `summaries.name_key_values`), in one statement. `VersionConflict`
    or `GameNotFound` when the row is not at that version (nothing is written),
    `SequenceTaken` when one of the events' seq is taken."""
    game_id, last = stored[0].game_id, stored[-1]
    if any(s.recorded_at != last.recorded_at for s in stored):
        raise ValueError("the events of one append share their time")
    params = advance_params(game_id, expected_version, values)
    params.update(
        rows=[row_values(s) for s in stored],
        recorded_at=last.recorded_at, after=expected_version, count=len(stored),
        channel=notifications.NOTIFY_CHANNEL,
        payload=notifications.payload(game_id, last.seq),
    )
    try:
        inserted = len(conn.execute(_APPEND, params).all())
    except IntegrityError as exc:
        raise SequenceTaken(game_id) from exc
    if inserted != len(stored):
        GameRepository(conn).refuse(game_id, expected_version)
