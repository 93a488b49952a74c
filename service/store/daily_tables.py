"""The table of the daily challenge's games (migration 0018).

- ``daily_attempts``: one row per daily game (`domain.daily`): its UTC ``date``, the
  signed-in player who started it (NULL: a guest's), whether it is that player's
  ranked attempt of the date (one per date and player: ``uq_daily_attempts_ranked``),
  when it started, and its human seat's ``score`` with when the game ended
  (``ended_at``), kept up to date by every append to a daily game
  (`unit_of_work.append`), so a date's ranking reads this table alone
  (``ix_daily_attempts_ranking``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    text,
)

from .schema import UTCDateTime, metadata

# The partial indexes' condition as each database's queries state it (migration 0018)
_RANKED: dict[str, Any] = {"sqlite_where": text("ranked = 1"),
                          "postgresql_where": text("ranked")}

daily_attempts_table = Table(
    "daily_attempts", metadata,
    Column("game_id", String(64), ForeignKey("games.game_id", ondelete="CASCADE"),
           primary_key=True),
    Column("date", Date(), nullable=False),  # the UTC date the game started on
    Column("player_id", Integer, ForeignKey("players.id", ondelete="SET NULL"),
           nullable=True),  # NULL: a guest's game (always practice)
    Column("ranked", Boolean, nullable=False),  # False: practice
    Column("started_at", UTCDateTime(), nullable=False),
    Column("score", Integer, nullable=False),  # the human seat's, as of the last event
    Column("ended_at", UTCDateTime(), nullable=True),  # NULL while the game runs
    Index(None, "date", "ranked"),  # a date's games, its practice count
    Index(None, "player_id", "date"),
    Index("uq_daily_attempts_ranked", "date", "player_id", unique=True, **_RANKED),
)

# the date's ranked attempts in ranking order (score, higher first; then the end): a
# ranking is one range of it, never a sort of the day
Index("ix_daily_attempts_ranking", daily_attempts_table.c.date,
      daily_attempts_table.c.score.desc(), daily_attempts_table.c.ended_at,
      daily_attempts_table.c.game_id, **_RANKED)
