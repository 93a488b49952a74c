"""high scores: an index for one level of a table

``GET /api/highscores?difficulty=`` and ``/highscores?difficulty=`` show one level of
the computer's table of one field size, and the unfiltered table reads level by
level, the hardest first (`service.domain.ranking.LEVELS_HARDEST_FIRST`). Each reads
the best entries of (table, size, difficulty) by this index and stops at its limit;
without it a level's entries would be picked out of every entry of the size and
sorted.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {}  # an index only

INDEX = "ix_high_scores_ranking_height_width_difficulty_score"


def upgrade() -> None:
    op.create_index(op.f(INDEX), "high_scores",
                    ["ranking", "height", "width", "difficulty", "score"])


def downgrade() -> None:
    op.drop_index(op.f(INDEX), table_name="high_scores")
