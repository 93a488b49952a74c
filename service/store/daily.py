"""The daily challenge's games (`daily_tables`), as ``uow.daily``.

A row is written with its game (`services.daily`) and follows it: every append to a
daily game rewrites the row's score and, once the game has ended, when
(`unit_of_work.append`). So a date's ranking is one index range of this table:
ranked attempts by score, higher first, ties by the earlier end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import ColumnElement, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .daily_tables import daily_attempts_table

_T = daily_attempts_table


class RankedAttemptTaken(Exception):
    """The player has a ranked attempt of that date already (the unique index said
    so: another request made it at the same moment)."""


@dataclass(frozen=True)
class DailyAttempt:
    game_id: str
    date: date
    player_id: int | None
    ranked: bool
    started_at: datetime
    score: int
    ended_at: datetime | None


def _attempt(mapping: Any) -> DailyAttempt:
    return DailyAttempt(mapping["game_id"], mapping["date"], mapping["player_id"],
                        mapping["ranked"], mapping["started_at"], mapping["score"],
                        mapping["ended_at"])


class DailyRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    # writing ------------------------------------------------------------------
    def add(self, attempt: DailyAttempt) -> None:
        """A new daily game's row; `RankedAttemptTaken` when it is a ranked attempt
        and the player has one of that date already (nothing is written then)."""
        try:
            with self._conn.begin_nested():
                self._conn.execute(insert(_T), [_values(attempt)])
        except IntegrityError as exc:
            if attempt.ranked and self.ranked_attempt(attempt.date, attempt.player_id):
                raise RankedAttemptTaken(attempt.date) from exc
            raise

    def add_many(self, attempts: Iterable[DailyAttempt]) -> None:
        """Rows in one statement (the benchmark's; their games must exist)."""
        rows = [_values(a) for a in attempts]
        if rows:
            self._conn.execute(insert(_T), rows)

    def follow(self, game_id: str, score: int, ended_at: datetime | None) -> None:
        """The daily game's score as of its last event, and when it ended (None while
        it runs)."""
        self._conn.execute(update(_T).where(_T.c.game_id == game_id)
                           .values(score=score, ended_at=ended_at))

    # reading ------------------------------------------------------------------
    def get(self, game_id: str) -> DailyAttempt | None:
        row = self._conn.execute(select(_T).where(_T.c.game_id == game_id)).first()
        return _attempt(row._mapping) if row is not None else None

    def date_of_game(self, game_id: str) -> date | None:
        """The date of `game_id` if it is a daily game, else None."""
        found: date | None = self._conn.execute(
            select(_T.c.date).where(_T.c.game_id == game_id)).scalar()
        return found

    def ranked_attempt(self, day: date, player_id: int | None) -> DailyAttempt | None:
        if player_id is None:
            return None
        row = self._conn.execute(select(_T).where(
            _T.c.date == day, _T.c.player_id == player_id, _T.c.ranked)).first()
        return _attempt(row._mapping) if row is not None else None

    def ranking(self, day: date, *, ended_only: bool, limit: int) -> list[DailyAttempt]:
        """The first `limit` ranked attempts of `day` by score (higher first), ties by
        the earlier end, an attempt still running after those that ended;
        `ended_only`: only those whose games have ended. Each part is one range of
        ``ix_daily_attempts_ranking`` (never a sort of the day); the two are merged
        here, since the databases put NULLs at different ends."""
        ended = self._ranked(day, _T.c.ended_at.is_not(None), limit)
        if ended_only:
            return ended
        running = self._ranked(day, _T.c.ended_at.is_(None), limit)
        return sorted(ended + running, key=lambda a: (
            -a.score, a.ended_at is None,
            a.ended_at.timestamp() if a.ended_at is not None else 0.0, a.game_id))[:limit]

    def _ranked(self, day: date, which: ColumnElement[bool], limit: int) -> list[DailyAttempt]:
        query = (select(_T).where(_T.c.date == day, _T.c.ranked, which)
                 .order_by(_T.c.score.desc(), _T.c.ended_at, _T.c.game_id).limit(limit))
        return [_attempt(row._mapping) for row in self._conn.execute(query)]

    def count(self, day: date, *, ranked: bool, ended_only: bool = False) -> int:
        query = select(func.count()).select_from(_T).where(
            _T.c.date == day, _T.c.ranked if ranked else ~_T.c.ranked)
        if ended_only:
            query = query.where(_T.c.ended_at.is_not(None))
        return int(self._conn.execute(query).scalar_one())

    def of_date(self, day: date) -> list[str]:
        """The ids of every daily game of `day`, ranked and practice, oldest first."""
        return list(self._conn.execute(
            select(_T.c.game_id).where(_T.c.date == day)
            .order_by(_T.c.started_at, _T.c.game_id)).scalars())

    def history(self, player_id: int, *, limit: int) -> list[DailyAttempt]:
        """The player's ranked attempts, the newest date first."""
        query = (select(_T).where(_T.c.player_id == player_id, _T.c.ranked)
                 .order_by(_T.c.date.desc()).limit(limit))
        return [_attempt(row._mapping) for row in self._conn.execute(query)]

    def ranked_dates(self, player_id: int, since: date) -> list[date]:
        """The dates from `since` on on which the player has a ranked attempt."""
        return list(self._conn.execute(
            select(_T.c.date).where(_T.c.player_id == player_id, _T.c.ranked,
                                    _T.c.date >= since)).scalars())

    def rank_of(self, attempts: Sequence[DailyAttempt]) -> dict[str, int]:
        """Each ended ranked attempt's place in its date's ranking so far (1: best)."""
        places: dict[str, int] = {}
        for attempt in attempts:
            if not attempt.ranked or attempt.ended_at is None:
                continue
            ahead = select(func.count()).select_from(_T).where(
                _T.c.date == attempt.date, _T.c.ranked, _T.c.ended_at.is_not(None),
                (_T.c.score > attempt.score)
                | ((_T.c.score == attempt.score) & (_T.c.ended_at < attempt.ended_at)))
            places[attempt.game_id] = int(self._conn.execute(ahead).scalar_one()) + 1
        return places


def _values(attempt: DailyAttempt) -> dict[str, Any]:
    return {"game_id": attempt.game_id, "date": attempt.date, "player_id": attempt.player_id,
            "ranked": attempt.ranked, "started_at": attempt.started_at,
            "score": attempt.score, "ended_at": attempt.ended_at}
