"""daily_attempts: the games of the daily challenge, one row per game

Each UTC date has one game (`service.domain.daily`); every game started as that
date's is a row here: its date, game, the signed-in player who started it (NULL for
a guest), whether it is the player's ranked attempt of the date (the first they
started; later ones and every guest's are practice), when it started, and the score
of its human seat with when its game ended (kept with the game, for the ranking).

- ``uq_daily_attempts_ranked``: one ranked attempt per (date, player), a partial
  unique index, so two first attempts started at the same moment cannot both be.
- ``ix_daily_attempts_ranking``: the date's ranked attempts by score (higher first),
  then end, a partial index: a ranking is one range of it, never a sort of the day.
- ``ix_daily_attempts_date_ranked``: a date's games (its practice count, its check).
- ``ix_daily_attempts_player_id_date``: a player's daily history.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"daily_attempts": ()}

_TIME = sa.DateTime(timezone=True)
# The partial indexes' condition as each database's queries state it (SQLAlchemy writes
# a boolean test ``ranked = 1`` on SQLite, which plans with an index only on the very
# same condition, and ``ranked`` on PostgreSQL)
_RANKED: dict[str, Any] = {"sqlite_where": sa.text("ranked = 1"),
                          "postgresql_where": sa.text("ranked")}


def upgrade() -> None:
    op.create_table(
        "daily_attempts",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("started_at", _TIME, nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("ended_at", _TIME, nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], ondelete="CASCADE",
                                name=op.f("fk_daily_attempts_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="SET NULL",
                                name=op.f("fk_daily_attempts_player_id_players")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_daily_attempts")),
    )
    op.create_index("ix_daily_attempts_ranking", "daily_attempts",
                    ["date", sa.text("score DESC"), "ended_at", "game_id"], **_RANKED)
    op.create_index(op.f("ix_daily_attempts_date_ranked"), "daily_attempts",
                    ["date", "ranked"])
    op.create_index(op.f("ix_daily_attempts_player_id_date"), "daily_attempts",
                    ["player_id", "date"])
    op.create_index("uq_daily_attempts_ranked", "daily_attempts", ["date", "player_id"],
                    unique=True, **_RANKED)


def downgrade() -> None:
    op.drop_table("daily_attempts")
