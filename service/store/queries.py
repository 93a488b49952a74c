"""Read-side listings: pages of games and the high score table."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, exists, func, or_, select
from sqlalchemy.engine import Connection

from ..domain.ranking import table_levels
from .account_tables import players_table
from .games import live
from .high_scores import HighScore
from .schema import games_table, high_scores_table
from .summaries import GameSummary, summary_from_row


class Queries:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def games(self, *, status: str | None = None, player: str | None = None,
              limit: int = 20, offset: int = 0, by_last_move: bool = False,
              live_at: tuple[datetime, datetime] | None = None,
              moved_since: datetime | None = None,
              ) -> tuple[list[GameSummary], int]:
        """Newest first (or the latest move first), and how many match. `player`
        matches either seat's name. With `live_at` (now, now minus the retention
        time), ``status="active"`` leaves out the games due to be abandoned
        (`games.live`) even before anything wrote their abandonment. `moved_since`:
        only the games with an event since then."""
        t = games_table
        query = select(t)
        if status == "active" and live_at is not None:
            query = query.where(live(*live_at))
        elif status is not None:
            query = query.where(t.c.status == status)
        if player is not None:
            query = query.where(or_(t.c.player_name == player, t.c.second_name == player))
        if moved_since is not None:
            query = query.where(t.c.updated_at >= moved_since)
        total = self._conn.execute(
            select(func.count()).select_from(query.subquery())
        ).scalar_one()
        rows = self._conn.execute(
            query.order_by(t.c.updated_at.desc() if by_last_move else t.c.created_at.desc(),
                           t.c.game_id).limit(limit).offset(offset)
        )
        return [summary_from_row(r._mapping) for r in rows], int(total)

    def waiting_for_seat2(self) -> list[GameSummary]:
        """Active vs_computer games with seat 2 (the computer) to move."""
        t = games_table
        query = select(t).where(t.c.status == "active", t.c.mode == "vs_computer",
                                t.c.turn == 2)
        return [summary_from_row(r._mapping) for r in self._conn.execute(query)]

    def high_scores(self, ranking: str, height: int, width: int,
                    limit: int | None = None, level: str | None = None) -> list[HighScore]:
        """One table (`domain.ranking`) of one field size in its order
        (`ranking.LEVELS_HARDEST_FIRST`): each of its levels, the hardest first, then
        the entries without one; within each, descending score, ties oldest first
        (RULES E1, E2). `level`: only that level's entries.

        One query per level, each on the index of (table, size, difficulty, score)
        and cut at what `limit` leaves, so a page reads at most `limit` rows of its
        levels; the entries without a level (RULES E2's and those added by hand) are
        read only when the levels leave room. Two humans' tables have no levels: one
        query on the index of (table, size, score)."""
        t = high_scores_table
        table = (t.c.ranking == ranking, t.c.height == height, t.c.width == width)
        levels = table_levels(ranking)
        if level is not None:
            return self._best_first(limit, *table, t.c.difficulty == level)
        entries: list[HighScore] = []
        for each in levels:
            entries += self._best_first(_left(limit, entries), *table, t.c.difficulty == each)
            if _left(limit, entries) == 0:
                return entries
        unlevelled = (t.c.difficulty.not_in(levels),) if levels else ()
        return entries + self._best_first(_left(limit, entries), *table, *unlevelled)

    def _best_first(self, limit: int | None, *where: ColumnElement[bool]) -> list[HighScore]:
        t, p = high_scores_table, players_table
        held = exists().where(p.c.id == t.c.player_id, p.c.claimed_at.is_not(None),
                              p.c.name.is_not(None))  # a forgotten player holds nothing
        query = (select(t, held.label("claimed")).where(*where)
                 .order_by(t.c.score.desc(), t.c.created_at, t.c.id))
        if limit is not None:
            query = query.limit(limit)
        return [HighScore(**row._mapping) for row in self._conn.execute(query)]

    def high_score_sizes(self, ranking: str) -> list[tuple[int, int]]:
        """The field sizes that table `ranking` has entries on, largest first."""
        t = high_scores_table
        query = (select(t.c.height, t.c.width).where(t.c.ranking == ranking).distinct()
                 .order_by(t.c.height.desc(), t.c.width.desc()))
        return [(h, w) for h, w in self._conn.execute(query)]


def _left(limit: int | None, entries: list[HighScore]) -> int | None:
    """How many entries `limit` leaves room for after `entries` (None: no limit)."""
    return None if limit is None else limit - len(entries)
