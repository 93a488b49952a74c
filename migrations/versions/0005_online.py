"""online play: the invitations of online games, and who is watching which game

``invitations``: one row per online game; the one-time claim code and the invited
seat's token, both as salted hashes, the code's expiry and when it was claimed.
``viewers``: each server process's count of open live streams per game, refreshed
while they stay open, so every instance can show the total.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"invitations": (), "viewers": ()}


def upgrade() -> None:
    op.create_table(
        "invitations",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("code_hash", sa.String(128), nullable=False),
        sa.Column("code_salt", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("token_hash", sa.String(128), nullable=True),
        sa.Column("token_salt", sa.String(64), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], ondelete="CASCADE",
                                name=op.f("fk_invitations_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_invitations")),
    )
    op.create_table(
        "viewers",
        sa.Column("instance", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("instance", "game_id", name=op.f("pk_viewers")),
    )
    op.create_index(op.f("ix_viewers_game_id"), "viewers", ["game_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_viewers_game_id"), table_name="viewers")
    op.drop_table("viewers")
    op.drop_table("invitations")
