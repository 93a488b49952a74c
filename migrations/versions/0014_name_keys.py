"""names: one key decides "the same name"

``high_scores.name_skeleton`` held each name's UTS #39 skeleton (0007); it holds
`service.domain.names.name_key` of the name from now on: the skeleton taken before and
after folding case (Turkish I/ı/İ/i with it) and dropping combining marks, with the
Hangul fillers and the braille blank counted as a space. So "eda fırat", "EDA FIRAT"
and "Eda Fıraṭ" are found beside "Eda Fırat" as "Еda Fırat" was (docs/rules.md,
"Names that match"). Only the column's values change: old rows keep their names and
stay readable by the code before and after.

Like 0007 this runs application code (the key is ICU's and Python's, not SQL's): a
later change of `name_key` needs a migration of its own that computes the column
again. The downgrade computes the skeletons of 0007 again.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import sqlalchemy as sa
from alembic import op

from service.domain.names import name_key, skeleton

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py): nothing, it recomputes.
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {}

_high_scores = sa.table(
    "high_scores", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
    sa.column("name_skeleton", sa.String()),
)


def upgrade() -> None:
    _fill_keys(name_key)


def downgrade() -> None:
    _fill_keys(skeleton)


def _fill_keys(key_of: Callable[[str], str]) -> None:
    """One statement, executed once per distinct name (names repeat in the table)."""
    conn = op.get_bind()
    names = conn.execute(sa.select(_high_scores.c.name).distinct()).scalars().all()
    if not names:
        return
    fill = (sa.update(_high_scores).where(_high_scores.c.name == sa.bindparam("old_name"))
            .values(name_skeleton=sa.bindparam("new_key")))
    conn.execute(fill, [{"old_name": n, "new_key": key_of(n)} for n in names])
