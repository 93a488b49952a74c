"""The players' ratings and what each rated game did to them (`rating_tables`).

`RatingRepository.record` rates one ended game (`domain.rated_games.RatedResult`) in
the transaction that appends its end (`unit_of_work.UnitOfWork.append`): it reads both
players' ratings (an unrated player starts at `ratings.DEFAULT`), rates the game as
`ratings.rate_game` says, writes one ``rating_changes`` row per player and the new
ratings. A game that has its changes already moves nobody again (the unique
``(game_id, player_id)`` is the last word). On PostgreSQL both players' rows are
locked (``FOR UPDATE``, in id order) before they are read, so two games of one player
ending at the same moment are rated one after the other, never both from the same
rating; SQLite's writers run one at a time anyway.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from ..domain.rated_games import RESULTS, RatedResult
from ..domain.ratings import DEFAULT, Rating, rate_game
from .account_tables import players_table
from .player_records import placeholder
from .rating_tables import rating_changes_table, ratings_table

_R = ratings_table
_C = rating_changes_table
_P = players_table


@dataclass(frozen=True)
class RatedPlayer:
    """A row of the ratings table: the player's record, their name as shown, rating."""

    player_id: int
    name: str
    rating: float
    deviation: float
    volatility: float
    games: int
    updated_at: datetime


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to a player's rating; `game_id` None once it was pruned."""

    game_id: str | None
    opponent: str  # the opponent's name as shown (a forgotten one's placeholder)
    opponent_id: int
    result: str  # win | draw | loss
    rating_before: float
    deviation_before: float
    rating_after: float
    deviation_after: float
    changed_at: datetime


class RatingRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    # writing -------------------------------------------------------------------
    def record(self, game_id: str, result: RatedResult, now: datetime) -> bool:
        """Rate `game_id`'s `result` once: False (and nothing written) when it was."""
        if self._conn.execute(select(_C.c.id).where(_C.c.game_id == game_id)
                              .limit(1)).first() is not None:
            return False
        first, second = result.first_player, result.second_player
        before = self._locked({first, second}, now)
        after = rate_game(before[first], before[second], result.first_score)
        scores = {first: result.first_score, second: 1.0 - result.first_score}
        for player, opponent, new in ((first, second, after[0]), (second, first, after[1])):
            old = before[player]
            self._conn.execute(insert(_C).values(
                game_id=game_id, player_id=player, opponent_id=opponent,
                result=RESULTS[scores[player]],
                rating_before=old.rating, deviation_before=old.deviation,
                rating_after=new.rating, deviation_after=new.deviation, changed_at=now))
            self._conn.execute(update(_R).where(_R.c.player_id == player).values(
                rating=new.rating, deviation=new.deviation, volatility=new.volatility,
                games=_R.c.games + 1, updated_at=now))
        return True

    def _locked(self, players: set[int], now: datetime) -> dict[int, Rating]:
        """The players' ratings, each row made (at `DEFAULT`, no games) if missing and
        locked for this transaction (PostgreSQL), in id order."""
        dialect_insert = pg_insert if self._conn.dialect.name == "postgresql" else sqlite_insert
        self._conn.execute(dialect_insert(_R).values([
            {"player_id": p, "rating": DEFAULT.rating, "deviation": DEFAULT.deviation,
             "volatility": DEFAULT.volatility, "games": 0, "updated_at": now}
            for p in sorted(players)]).on_conflict_do_nothing(index_elements=["player_id"]))
        rows = self._conn.execute(
            select(_R.c.player_id, _R.c.rating, _R.c.deviation, _R.c.volatility)
            .where(_R.c.player_id.in_(players)).order_by(_R.c.player_id).with_for_update())
        return {row.player_id: Rating(row.rating, row.deviation, row.volatility)
                for row in rows}

    # reading -------------------------------------------------------------------
    def table(self, *, limit: int, offset: int = 0) -> list[RatedPlayer]:
        """The ratings table, highest first (ties by record), one page; forgotten
        players are left out."""
        query = (select(_R, _P.c.name).join(_P, _P.c.id == _R.c.player_id)
                 .where(_P.c.name.is_not(None), _R.c.games > 0)
                 .order_by(_R.c.rating.desc(), _R.c.player_id).limit(limit).offset(offset))
        return [_rated(row._mapping) for row in self._conn.execute(query)]

    def count(self) -> int:
        """How many players the ratings table holds."""
        return int(self._conn.execute(
            select(func.count()).select_from(_R.join(_P, _P.c.id == _R.c.player_id))
            .where(_P.c.name.is_not(None), _R.c.games > 0)).scalar_one())

    def of(self, player_id: int) -> RatedPlayer | None:
        """The player's rating, None while they have finished no rated game."""
        row = self._conn.execute(
            select(_R, _P.c.name).join(_P, _P.c.id == _R.c.player_id)
            .where(_R.c.player_id == player_id, _R.c.games > 0)).first()
        return _rated(row._mapping) if row is not None else None

    def history(self, player_id: int, *, limit: int) -> list[RatingChange]:
        """The player's rating changes, newest first."""
        opponent = _P.alias("opponent")  # Core: the ORM costs every CLI command memory
        query = (select(_C, opponent.c.name.label("opponent_name"))
                 .join(opponent, opponent.c.id == _C.c.opponent_id)
                 .where(_C.c.player_id == player_id)
                 .order_by(_C.c.changed_at.desc(), _C.c.id.desc()).limit(limit))
        return [RatingChange(
            row.game_id,
            row.opponent_name if row.opponent_name is not None
            else placeholder(row.opponent_id),
            row.opponent_id, row.result, row.rating_before, row.deviation_before,
            row.rating_after, row.deviation_after, row.changed_at)
            for row in self._conn.execute(query)]


def _rated(m: Any) -> RatedPlayer:
    name = m["name"] if m["name"] is not None else placeholder(m["player_id"])
    return RatedPlayer(int(m["player_id"]), name, float(m["rating"]),
                       float(m["deviation"]), float(m["volatility"]), int(m["games"]),
                       m["updated_at"])
