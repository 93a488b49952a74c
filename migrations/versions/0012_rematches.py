"""rematches: the seat an invitation opens, and the game a rematch comes from

``invitations.seat``: the seat the invitation's code claims (2 for every game before:
the creator sat in seat 1). A rematch (`services.creation`) swaps the seats, so its
creator may sit in seat 2 and invite the friend to seat 1. ``invitations.rematch_of``:
the finished online game the invitation's game is a rematch of (NULL otherwise),
unique, so a game has at most one rematch waiting (a second request finds it; two at
once: one insert wins).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"invitations": ("seat", "rematch_of")}


def upgrade() -> None:
    with op.batch_alter_table("invitations") as batch:
        batch.add_column(sa.Column("seat", sa.Integer(), nullable=False, server_default="2"))
        batch.add_column(sa.Column("rematch_of", sa.String(64), nullable=True))
    op.create_index(op.f("ix_invitations_rematch_of"), "invitations", ["rematch_of"],
                    unique=True)


def downgrade() -> None:
    """A rematch whose creator sits in seat 2 stays stored: code before this revision
    takes seat 2 for the open one (finish or delete such games before going back)."""
    op.drop_index(op.f("ix_invitations_rematch_of"), table_name="invitations")
    with op.batch_alter_table("invitations") as batch:
        batch.drop_column("rematch_of")
        batch.drop_column("seat")
