"""ratings and rating_changes: the Glicko-2 ratings of signed-in players

A rated online game (``game_created`` v4's ``rated``) moves both players' ratings once,
when it ends (`service.domain.rated_games`), in the transaction that appends its end.

- ``ratings``: one row per claimed player who has finished a rated game: the rating,
  its deviation and volatility (`service.domain.ratings`), how many rated games it
  counts and when it last moved. ``ix_ratings_rating``: the ratings table in order
  (rating, higher first), one index range a page.
- ``rating_changes``: what one game did to one player's rating (before and after,
  the player's result, the opponent), unique per (game, player): a game that is
  appended again, or rated twice by a retry, moves nobody twice. A game deleted later
  (an abandoned game pruned) leaves its changes, their ``game_id`` NULL.
  ``ix_rating_changes_player_id_changed_at``: a player's history, newest first.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"rating_changes": (), "ratings": ()}

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_ratings")),
    )
    op.create_index("ix_ratings_rating", "ratings", [sa.text("rating DESC"), "player_id"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("deviation_before", sa.Float(), nullable=False),
        sa.Column("rating_after", sa.Float(), nullable=False),
        sa.Column("deviation_after", sa.Float(), nullable=False),
        sa.Column("changed_at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], ondelete="SET NULL",
                                name=op.f("fk_rating_changes_game_id_games")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_changes_player_id_players")),
        sa.ForeignKeyConstraint(["opponent_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_rating_changes_opponent_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_changes")),
        sa.UniqueConstraint("game_id", "player_id",
                            name=op.f("uq_rating_changes_game_id_player_id")),
    )
    op.create_index(op.f("ix_rating_changes_player_id_changed_at"), "rating_changes",
                    ["player_id", "changed_at"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
