"""rename events.version to events.schema_version

The column holds the event's schema number (upcast on load), not the stream's
position; the new name keeps the two apart. Every row is kept.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {}  # a rename: nothing is lost


# A plain ALTER TABLE ... RENAME COLUMN on both databases (SQLite >= 3.25), not a
# batch copy: the table keeps its WITHOUT ROWID layout and its rows stay in place.


def upgrade() -> None:
    op.alter_column("events", "version", new_column_name="schema_version")


def downgrade() -> None:
    op.alter_column("events", "schema_version", new_column_name="version")
