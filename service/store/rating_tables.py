"""The tables of the players' ratings (migration 0019).

- ``ratings``: one row per player who has finished a rated game (`domain.rated_games`):
  the Glicko-2 rating, deviation and volatility (`domain.ratings`), the number of rated
  games and when it last moved; ``ix_ratings_rating`` serves the ratings table in order.
- ``rating_changes``: what each rated game did to each of its two players' ratings,
  unique per (game, player), so that no game moves a rating twice; a pruned game
  leaves its changes (``game_id`` NULL).
"""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
)

from .schema import UTCDateTime, metadata

ratings_table = Table(
    "ratings", metadata,
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True, autoincrement=False),
    Column("rating", Float(), nullable=False),
    Column("deviation", Float(), nullable=False),
    Column("volatility", Float(), nullable=False),
    Column("games", Integer, nullable=False),  # rated games counted
    Column("updated_at", UTCDateTime(), nullable=False),
)

# the ratings table in order (rating, higher first): a page is one range of it
Index("ix_ratings_rating", ratings_table.c.rating.desc(), ratings_table.c.player_id)

rating_changes_table = Table(
    "rating_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(64), ForeignKey("games.game_id", ondelete="SET NULL"),
           nullable=True),  # NULL once the game was deleted (pruned)
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("opponent_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False),
    Column("result", String(8), nullable=False),  # win | draw | loss (the player's)
    Column("rating_before", Float(), nullable=False),
    Column("deviation_before", Float(), nullable=False),
    Column("rating_after", Float(), nullable=False),
    Column("deviation_after", Float(), nullable=False),
    Column("changed_at", UTCDateTime(), nullable=False),
    UniqueConstraint("game_id", "player_id"),  # a game moves a rating once
    Index(None, "player_id", "changed_at"),  # a player's history
)
