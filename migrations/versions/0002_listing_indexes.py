"""indexes for listing games and the high score table

No index on games.updated_at: it changes with every append, and an index there
would cost every move a page write to help only the rare prune (a table scan).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {}  # indexes only


def upgrade() -> None:
    op.create_index(op.f("ix_games_created_at"), "games", ["created_at"])
    op.create_index(op.f("ix_high_scores_score"), "high_scores", ["score"])


def downgrade() -> None:
    op.drop_index(op.f("ix_high_scores_score"), table_name="high_scores")
    op.drop_index(op.f("ix_games_created_at"), table_name="games")
