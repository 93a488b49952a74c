"""the field size (height, width) in the games read model and the high score table

A 9 x 13 score and a 19 x 33 score are not the same feat: the games list and the
high score table show the size and the API filters by it. Existing rows are filled
from each game's first event; high scores without a game (the default table, manual
entries, games deleted since) keep NULL.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {
    "games": ("height", "width"), "high_scores": ("height", "width"),
}


def _created(field: str) -> str:
    """SQL for a field of the game's game_created payload (event 1)."""
    if op.get_bind().dialect.name == "postgresql":
        value = f"(e.payload ->> '{field}')::integer"
    else:
        value = f"json_extract(e.payload, '$.{field}')"
    return (f"(SELECT {value} FROM events e WHERE e.game_id = games.game_id "
            "AND e.seq = 1)")


def upgrade() -> None:
    for table in ("games", "high_scores"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("height", sa.Integer(), nullable=True))
            batch.add_column(sa.Column("width", sa.Integer(), nullable=True))
    op.execute(f"UPDATE games SET height = {_created('height')}, width = {_created('width')}")
    op.execute("UPDATE high_scores SET "
               "height = (SELECT g.height FROM games g WHERE g.game_id = high_scores.game_id), "
               "width = (SELECT g.width FROM games g WHERE g.game_id = high_scores.game_id) "
               "WHERE game_id IS NOT NULL")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("height", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("width", existing_type=sa.Integer(), nullable=False)
    op.create_index(op.f("ix_high_scores_height_width"), "high_scores", ["height", "width"])


def downgrade() -> None:
    op.drop_index(op.f("ix_high_scores_height_width"), table_name="high_scores")
    for table in ("high_scores", "games"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("width")
            batch.drop_column("height")
