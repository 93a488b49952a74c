"""The viewers table: each server process's spectator streams per game and client.

A row is (instance, game, client) with the client's open spectator streams in that
process; the client is a keyed hash of its address (`security.client_key`), never the
address. A process writes only its own rows, and only what changed (`update`; `replace`
rewrites them all), and touches them all every few seconds (`refresh`). A game's
viewers are its distinct clients over the fresh rows of every process (`totals`); a
process reads what the others add to its own (`others`, `shared`). Rows of a process
that died stop counting once they are older than the freshness window, and are
deleted later by anyone's `forget`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TypeVar

from sqlalchemy import (
    ColumnElement,
    delete,
    distinct,
    exists,
    func,
    insert,
    select,
    tuple_,
    update,
)
from sqlalchemy.engine import Connection

from .schema import viewers_table

_T = viewers_table
IN_CHUNK = 500
Pair = tuple[str, str]  # (game_id, client)
Item = TypeVar("Item")


def _chunks(items: Iterable[Item]) -> Iterable[list[Item]]:
    batch = list(items)
    for start in range(0, len(batch), IN_CHUNK):
        yield batch[start:start + IN_CHUNK]


class ViewerRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    # -- writing (a process, its own rows) ------------------------------------------

    def replace(self, instance: str, counts: Mapping[Pair, int], now: datetime) -> None:
        """Make `instance`'s rows exactly `counts` (pairs with streams only)."""
        self._conn.execute(delete(_T).where(_T.c.instance == instance))
        self._insert(instance, counts, now)

    def update(self, instance: str, counts: Mapping[Pair, int], now: datetime) -> None:
        """Rewrite `instance`'s rows of the pairs in `counts` (0: the row goes); its
        other rows stay as they are."""
        for chunk in _chunks(counts):
            self._conn.execute(delete(_T).where(
                _T.c.instance == instance, tuple_(_T.c.game_id, _T.c.client).in_(chunk)))
        self._insert(instance, counts, now)

    def _insert(self, instance: str, counts: Mapping[Pair, int], now: datetime) -> None:
        rows = [{"instance": instance, "game_id": game_id, "client": client,
                 "count": count, "seen_at": now}
                for (game_id, client), count in counts.items() if count > 0]
        if rows:
            self._conn.execute(insert(_T), rows)

    def refresh(self, instance: str, now: datetime) -> int:
        """Mark every row of `instance` seen `now`; how many there are."""
        result = self._conn.execute(
            update(_T).where(_T.c.instance == instance).values(seen_at=now))
        return int(result.rowcount)

    def forget(self, before: datetime) -> None:
        """Delete everybody's rows last seen before `before` (dead processes')."""
        self._conn.execute(delete(_T).where(_T.c.seen_at < before))

    # -- reading ------------------------------------------------------------------

    def totals(self, game_ids: Iterable[str], fresh_since: datetime) -> dict[str, int]:
        """The distinct clients of each of `game_ids` over the rows of every instance
        seen since `fresh_since` (games without any are left out)."""
        return self._distinct(game_ids, fresh_since)

    def others(self, game_ids: Iterable[str], instance: str,
               fresh_since: datetime) -> dict[str, int]:
        """As `totals`, over the rows of the instances other than `instance`."""
        return self._distinct(game_ids, fresh_since, _T.c.instance != instance)

    def _distinct(self, game_ids: Iterable[str], fresh_since: datetime,
                  *where: ColumnElement[bool]) -> dict[str, int]:
        totals: dict[str, int] = {}
        for chunk in _chunks(game_ids):
            query = (select(_T.c.game_id, func.count(distinct(_T.c.client)))
                     .where(_T.c.game_id.in_(chunk), _T.c.seen_at >= fresh_since, *where)
                     .group_by(_T.c.game_id))
            totals.update({game_id: int(n) for game_id, n in self._conn.execute(query)})
        return totals

    def shared(self, instance: str, fresh_since: datetime) -> set[Pair]:
        """The (game, client) pairs of `instance`'s rows that another instance's
        rows seen since `fresh_since` count too (one client on two processes)."""
        other = _T.alias("other")
        query = select(_T.c.game_id, _T.c.client).where(
            _T.c.instance == instance,
            exists().where(other.c.game_id == _T.c.game_id, other.c.client == _T.c.client,
                           other.c.instance != instance, other.c.seen_at >= fresh_since))
        return {(game_id, client) for game_id, client in self._conn.execute(query)}
