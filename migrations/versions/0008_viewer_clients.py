"""viewers: distinct clients per game

``viewers`` gets one row per (server process, game, client), the client a keyed hash
of its address (`security.client_key`, never the address), with that client's open
spectator streams there in ``count``; the viewer count is the number of distinct
clients over the fresh rows, so one address with many streams counts once. The
table holds only transient rows (rewritten within seconds by the live processes), so
both directions drop it and create it anew, empty.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"viewers": ("client",)}


def _drop_viewers(index: str) -> None:
    op.drop_index(op.f(index), table_name="viewers")
    op.drop_table("viewers")


def upgrade() -> None:
    _drop_viewers("ix_viewers_game_id")
    op.create_table(
        "viewers",
        sa.Column("instance", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("instance", "game_id", "client", name=op.f("pk_viewers")),
    )
    op.create_index(op.f("ix_viewers_game_id_client"), "viewers", ["game_id", "client"])


def downgrade() -> None:
    """The rows go: they are transient counts, written again within seconds."""
    _drop_viewers("ix_viewers_game_id_client")
    op.create_table(
        "viewers",
        sa.Column("instance", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("instance", "game_id", name=op.f("pk_viewers")),
    )
    op.create_index(op.f("ix_viewers_game_id"), "viewers", ["game_id"])
