"""game reviews: a global order of events, followers' checkpoints, the reviews

- ``events.position``: one order over all streams (`store.positions`), given at
  append time from the one-row counter ``event_positions``. An append updates the
  counter in its own transaction, so positions commit in the order they are given
  and a rolled-back append takes its positions back: a follower reading "after
  position p" never meets a position that a running transaction could still fill.
  Existing events are numbered game by game, in the order the games were created.
  NULL is not allowed by the code that writes; the column stays nullable because
  SQLite can add only nullable columns to a table without rowid.
- ``projection_checkpoints``: per follower (the analyst), the position it has read
  up to and a lease (holder, until) so that one follower of a name works at a time.
- ``game_reviews``: the analyst's review of each ended game (`domain.review`), or
  why it failed.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {
    "game_reviews": (), "projection_checkpoints": (), "event_positions": (),
    "events": ("position",),
}

PAYLOAD = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.add_column("events", sa.Column("position", sa.BigInteger(), nullable=True))
    last = _number_existing_events()
    op.create_index(op.f("ix_events_position"), "events", ["position"], unique=True)
    counter = op.create_table(
        "event_positions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("last", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_event_positions_one_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_positions")),
    )
    op.bulk_insert(counter, [{"id": 1, "last": last}])
    checkpoints = op.create_table(
        "projection_checkpoints",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("holder", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_projection_checkpoints")),
    )
    # the analyst's row, from the start: followers never race to create their row
    op.bulk_insert(checkpoints, [{"name": "analyst", "position": 0}])
    op.create_table(
        "game_reviews",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("algorithm", sa.Integer(), nullable=False),
        sa.Column("position", sa.BigInteger(), nullable=False),
        sa.Column("accuracy1", sa.Integer(), nullable=True),
        sa.Column("accuracy2", sa.Integer(), nullable=True),
        sa.Column("exact", sa.Boolean(), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("body", PAYLOAD, nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.game_id"], ondelete="CASCADE",
                                name=op.f("fk_game_reviews_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_game_reviews")),
    )


def _number_existing_events() -> int:
    """Positions for the events already stored: game by game, oldest game first."""
    conn = op.get_bind()
    games = sa.table("games", sa.column("game_id", sa.String),
                     sa.column("created_at", sa.DateTime))
    events = sa.table("events", sa.column("game_id", sa.String), sa.column("seq", sa.Integer),
                      sa.column("position", sa.BigInteger))
    lengths = dict(conn.execute(
        sa.select(events.c.game_id, sa.func.max(events.c.seq)).group_by(events.c.game_id)).all())
    ordered = [g for (g,) in conn.execute(
        sa.select(games.c.game_id).order_by(games.c.created_at, games.c.game_id))]
    ordered += sorted(set(lengths) - set(ordered))  # events without a games row: last
    last = 0
    for game_id in ordered:
        if game_id not in lengths:
            continue
        conn.execute(sa.update(events).where(events.c.game_id == game_id)
                     .values(position=events.c.seq + last))
        last += lengths[game_id]
    return last


def downgrade() -> None:
    op.drop_table("game_reviews")
    op.drop_table("projection_checkpoints")
    op.drop_table("event_positions")
    op.drop_index(op.f("ix_events_position"), table_name="events")
    op.drop_column("events", "position")  # SQLite's own DROP COLUMN: keeps it without rowid
