"""events, games and high_scores, with RULES E2's default high scores

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"high_scores": (), "games": (), "events": ()}

# RULES E2 (names are UTF-8; keep the Turkish letters). Frozen here on purpose:
# a migration never changes with the application code.
DEFAULT_HIGH_SCORES = (
    ("Eda Fırat", 200),
    ("Tarık Yolcu", 325),
    ("Sinem Okur", 153),
    ("Ali Okyanus", 26),
    ("Deniz Vadi", 85),
)


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("type", sa.String(40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column(
            "payload", sa.JSON().with_variant(postgresql.JSONB(), "postgresql"), nullable=False
        ),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_events_seq_positive")),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_events")),
        # SQLite: one b-tree clustered by (game_id, seq) instead of a rowid table plus
        # an index: a game's events are read in one range scan, appends write less.
        sqlite_with_rowid=False,
    )
    op.create_table(
        "games",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(32), nullable=False),
        sa.Column("difficulty", sa.String(32), nullable=False),
        sa.Column("player_name", sa.String(64), nullable=False),
        sa.Column("second_name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("score1", sa.Integer(), nullable=False),
        sa.Column("score2", sa.Integer(), nullable=False),
        sa.Column("squares1", sa.Integer(), nullable=False),
        sa.Column("squares2", sa.Integer(), nullable=False),
        sa.Column("ownerless", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(128), nullable=False),
        sa.Column("token_salt", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_games")),
    )
    high_scores = op.create_table(
        "high_scores",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        # Deleting a game keeps its high score; only the link to the replay goes.
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.game_id"],
            name=op.f("fk_high_scores_game_id_games"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_high_scores")),
        # A game's high_scores_entered event is recorded exactly once.
        sa.UniqueConstraint("game_id", "seat", name=op.f("uq_high_scores_game_id_seat")),
    )
    now = datetime.now(UTC)
    op.bulk_insert(
        high_scores,
        [
            {"name": name, "score": score, "difficulty": "default", "game_id": None,
             "seat": None, "created_at": now}
            for name, score in DEFAULT_HIGH_SCORES
        ],
    )


def downgrade() -> None:
    op.drop_table("high_scores")
    op.drop_table("games")
    op.drop_table("events")
