"""The viewers table: each server process's count of spectator streams per game.

A process rewrites its own rows (`report`); everyone sums the fresh rows of a game
(`totals`). Rows of a process that died stop counting once they are older than the
freshness window, and are deleted later by any report.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from .schema import viewers_table

_T = viewers_table
IN_CHUNK = 500


class ViewerRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def report(self, instance: str, counts: Mapping[str, int], now: datetime,
               forget_before: datetime) -> None:
        """Replace `instance`'s rows with `counts` (games with viewers only), and drop
        everybody's rows last refreshed before `forget_before`."""
        self._conn.execute(delete(_T).where(_T.c.instance == instance))
        self._conn.execute(delete(_T).where(_T.c.seen_at < forget_before))
        rows = [{"instance": instance, "game_id": game_id, "count": count, "seen_at": now}
                for game_id, count in counts.items() if count > 0]
        if rows:
            self._conn.execute(insert(_T), rows)

    def totals(self, game_ids: Iterable[str], fresh_since: datetime) -> dict[str, int]:
        """The number of viewers of each of `game_ids` over all instances whose rows
        were refreshed since `fresh_since` (games without any are left out)."""
        ids = list(game_ids)
        totals: dict[str, int] = {}
        for start in range(0, len(ids), IN_CHUNK):
            query = (select(_T.c.game_id, func.sum(_T.c.count))
                     .where(_T.c.game_id.in_(ids[start:start + IN_CHUNK]),
                            _T.c.seen_at >= fresh_since)
                     .group_by(_T.c.game_id))
            totals.update({game_id: int(total) for game_id, total in self._conn.execute(query)})
        return totals
