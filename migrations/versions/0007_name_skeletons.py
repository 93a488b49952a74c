"""names: the UTS #39 skeleton of each high score name

``high_scores.name_skeleton`` (indexed): `service.domain.names.skeleton` of the
row's name, so that a new player name that looks like another name in the table
("Еda Fırat", with a Cyrillic Е, beside "Eda Fırat") is found by one indexed query
and refused. Filled here for the existing rows (the default table included); the
store fills it for every row it writes from now on.

Unlike the other migrations this one runs application code (the skeleton is ICU's,
not SQL's): a later change of `skeleton` needs a migration of its own that computes
the column again.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from service.domain.names import skeleton

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"high_scores": ("name_skeleton",)}

_high_scores = sa.table(
    "high_scores", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
    sa.column("name_skeleton", sa.String()),
)


def upgrade() -> None:
    with op.batch_alter_table("high_scores") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(), nullable=True))
    _fill_skeletons()
    op.create_index(op.f("ix_high_scores_name_skeleton"), "high_scores", ["name_skeleton"])


def _fill_skeletons() -> None:
    """One statement, executed once per distinct name (names repeat in the table)."""
    conn = op.get_bind()
    names = conn.execute(sa.select(_high_scores.c.name).distinct()).scalars().all()
    if not names:
        return
    fill = (sa.update(_high_scores).where(_high_scores.c.name == sa.bindparam("old_name"))
            .values(name_skeleton=sa.bindparam("new_skeleton")))
    conn.execute(fill, [{"old_name": n, "new_skeleton": skeleton(n)} for n in names])


def downgrade() -> None:
    op.drop_index(op.f("ix_high_scores_name_skeleton"), table_name="high_scores")
    with op.batch_alter_table("high_scores") as batch:
        batch.drop_column("name_skeleton")
