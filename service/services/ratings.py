"""The players' ratings: the ratings table and one player's rating with its history.

Ratings move in the store's append, in the transaction that ends a rated game
(`store.unit_of_work.UnitOfWork.append`, `domain.rated_games`); here they are only
read. A rating belongs to a signed-in player (a claimed record); the table shows
each by the name their record holds, and leaves out forgotten players.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..store.ratings import RatedPlayer, RatingChange
from .base import ServiceBase

__all__ = ["HISTORY_MAX", "TABLE_MAX", "PlayerRating", "RatedPlayer", "RatingChange",
           "RatingService", "RatingsPage"]

TABLE_MAX = 100  # rows of the ratings table on one page, at most
HISTORY_MAX = 20  # a player's newest rating changes shown with their rating


@dataclass(frozen=True)
class RatingsPage:
    """One page of the ratings table, highest first, and how many rows it has in all."""

    players: list[RatedPlayer]
    total: int


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating and their newest changes (newest first)."""

    rating: RatedPlayer
    history: list[RatingChange]


class RatingService(ServiceBase):
    def table(self, *, limit: int = 50, offset: int = 0) -> RatingsPage:
        """One page of the ratings table (at most `TABLE_MAX` rows)."""
        limit = max(1, min(limit, TABLE_MAX))
        with self.store.unit_of_work(write=False) as uow:
            return RatingsPage(uow.ratings.table(limit=limit, offset=max(0, offset)),
                               uow.ratings.count())

    def of_player(self, player_id: int) -> PlayerRating | None:
        """The rating of player record `player_id` with its `HISTORY_MAX` newest
        changes; None until they have finished a rated game."""
        with self.store.unit_of_work(write=False) as uow:
            rating = uow.ratings.of(player_id)
            if rating is None:
                return None
            return PlayerRating(rating, uow.ratings.history(player_id, limit=HISTORY_MAX))
