"""retention: who created each active game, and indexes for the sweep and the cap

``games.creator``: a keyed hash of the client address that created the game through
the API (`security.client_key`, never the address), kept while the game is active,
for the cap on active games per address; NULL for games created before, by the CLI,
and once a game is no longer active. ``games.status`` gains the value
``abandoned`` (the column is text: nothing to change). Two indexes: ``(status,
updated_at)`` for the live list, the retention sweep and prune; ``(creator,
status)`` for the cap.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"games": ("creator",)}


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index(op.f("ix_games_status_updated_at"), "games", ["status", "updated_at"])
    op.create_index(op.f("ix_games_creator_status"), "games", ["creator", "status"])


def downgrade() -> None:
    """An abandoned game's ``game_abandoned`` event stays: code before this revision
    cannot fold it (run ``squares games prune --unfinished-older-than`` first, or
    delete the abandoned games, to go back)."""
    op.drop_index(op.f("ix_games_creator_status"), table_name="games")
    op.drop_index(op.f("ix_games_status_updated_at"), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("creator")
