"""A player's games and records, found by the name key of a human seat.

A player is a name key (`domain.names.name_key`): the games whose ``first_key`` or
``second_key`` is it (`summaries.name_key_values`; both columns are indexed with
``created_at``). Every query here reads only those rows, by those indexes, and
aggregates in SQL: a page of games, one row of counts, one row per high score
table. The player's seat in a game is seat 1 when its key is the player's, else
seat 2 (a game where one person played both seats counts from seat 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, case, func, or_, select
from sqlalchemy.engine import Connection

from ..domain.ranking import ARCHIVE, TABLES
from .schema import game_reviews_table, games_table, high_scores_table
from .summaries import GameSummary, summary_from_row

_G = games_table
_R = game_reviews_table
_H = high_scores_table


@dataclass(frozen=True)
class PlayedGame:
    """One game of a player: its row, the player's seat in it and the accuracy of
    that seat from the game's review (None: not reviewed, or no turn to judge)."""

    summary: GameSummary
    seat: int
    accuracy: int | None
    reviewed: bool


@dataclass(frozen=True)
class PlayerTotals:
    """What one aggregate over a player's games says."""

    games: int
    accuracy: float | None  # the average of the player's seat's review accuracies
    reviewed: int  # the games with an accuracy of the player's seat
    wins: int  # online games, finished
    losses: int
    draws: int


@dataclass(frozen=True)
class TableBest:
    """A player's best score in one high score table (`domain.ranking`): its mode
    and field size, and how many entries the player has there."""

    mode: str
    height: int
    width: int
    score: int
    entries: int


def _theirs(key: str) -> ColumnElement[bool]:
    return or_(_G.c.first_key == key, _G.c.second_key == key)


def _seat(key: str) -> ColumnElement[int]:
    return case((_G.c.first_key == key, 1), else_=2)


class PlayerQueries:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def games(self, key: str, *, limit: int, offset: int = 0) -> list[PlayedGame]:
        """The player's games, newest first (ties by id), one page."""
        seat = _seat(key)
        accuracy = case((seat == 1, _R.c.accuracy1), else_=_R.c.accuracy2)
        query = (select(_G, seat.label("player_seat"), accuracy.label("player_accuracy"),
                        _R.c.game_id.label("reviewed_id"))
                 .select_from(_G.outerjoin(_R, _R.c.game_id == _G.c.game_id))
                 .where(_theirs(key))
                 .order_by(_G.c.created_at.desc(), _G.c.game_id)
                 .limit(limit).offset(offset))
        return [PlayedGame(summary_from_row(row._mapping), row.player_seat,
                           row.player_accuracy, row.reviewed_id is not None)
                for row in self._conn.execute(query)]

    def newest_name(self, key: str) -> str | None:
        """The player's name as their newest game writes it (None: no game)."""
        name = case((_G.c.first_key == key, _G.c.player_name), else_=_G.c.second_name)
        return self._conn.execute(
            select(name).where(_theirs(key))
            .order_by(_G.c.created_at.desc(), _G.c.game_id).limit(1)
        ).scalar()

    def totals(self, key: str) -> PlayerTotals:
        """How many games, the average review accuracy of the player's seat, and
        the record of the finished online games, in one aggregate."""
        seat = _seat(key)
        accuracy = case((seat == 1, _R.c.accuracy1), else_=_R.c.accuracy2)
        online = and_(_G.c.mode == "online", _G.c.status == "finished")

        def count(when: ColumnElement[bool]) -> ColumnElement[int]:
            return func.coalesce(func.sum(case((when, 1), else_=0)), 0)

        row = self._conn.execute(
            select(func.count(),
                   func.avg(accuracy), func.count(accuracy),
                   count(and_(online, _G.c.winner == seat)),
                   count(and_(online, _G.c.winner != seat, _G.c.winner != 0)),
                   count(and_(online, _G.c.winner == 0)))
            .select_from(_G.outerjoin(_R, _R.c.game_id == _G.c.game_id))
            .where(_theirs(key))
        ).one()
        games, average, reviewed, wins, losses, draws = row
        return PlayerTotals(int(games), None if average is None else float(average),
                            int(reviewed), int(wins), int(losses), int(draws))

    def best_scores(self, key: str) -> list[TableBest]:
        """The player's best score in each high score table they have entries in
        (their seat's entries of their games; entries without a game are nobody's),
        the main table first, then the larger fields."""
        query = (select(_H.c.ranking, _H.c.height, _H.c.width, func.max(_H.c.score),
                        func.count())
                 .select_from(_G.join(_H, _H.c.game_id == _G.c.game_id))
                 # not `ranking IN (the tables)`: an indexed column there would lead
                 # SQLite's plan through every entry of the tables, not the player's games
                 .where(_theirs(key), _H.c.ranking != ARCHIVE,
                        or_(and_(_H.c.seat == 1, _G.c.first_key == key),
                            and_(_H.c.seat == 2, _G.c.second_key == key)))
                 .group_by(_H.c.ranking, _H.c.height, _H.c.width))
        found = [TableBest(mode, height, width, int(score), int(entries))
                 for mode, height, width, score, entries in self._conn.execute(query)]
        # a row per table and field size the player has entered: few, sorted here
        return sorted(found, key=lambda b: (TABLES.index(b.mode), -b.height, -b.width))
