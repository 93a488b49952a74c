"""trusted high scores: one table per mode and field size, assisted games, where a
game comes from

- ``high_scores.ranking``: the table an entry belongs to (`domain.ranking`):
  ``vs_computer`` (the main table), ``two_players``, ``online``, or ``archive`` (kept,
  ranked nowhere). Existing two-player and online entries move to their mode's table
  (their difficulty names the mode); entries of imported games go to the archive.
- ``high_scores.hints_recorded``: false for the entries of games played before this
  revision. Hints left no trace then, so those entries are kept in their table and
  marked ("hints not recorded"), not re-ranked.
- ``high_scores.height`` / ``width`` are required: the rows without a field (RULES E2's
  default rows, entries added by hand, rows of games deleted before revision 0004)
  belong to the default field, 19 x 33.
- ``games.assisted``: a human seat asked for a hint (``hint_used``, none before now).
- ``games.origin``: ``here`` (played on this service), ``signed`` (imported with a
  valid signature) or ``archive`` (imported without one). An import stamped every event
  of its stream with one time, so a game of two or more events that all share one
  ``recorded_at`` was imported, before exports were signed: an archive game. A game
  played here has at least two writes (its creation, then a move).
- ``games.signature``: an import's signature as it came (``<key id>:<mac>``), for
  ``squares verify``.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {
    "games": ("assisted", "origin", "signature"),
    "high_scores": ("ranking", "hints_recorded"),
}

# Frozen here, as every migration's values are.
DEFAULT_HEIGHT, DEFAULT_WIDTH = 19, 33
HUMAN_MODES = ("two_players", "online")

_games = sa.table("games", sa.column("game_id", sa.String), sa.column("origin", sa.String))
_high_scores = sa.table(
    "high_scores", sa.column("game_id", sa.String), sa.column("seat", sa.Integer),
    sa.column("difficulty", sa.String), sa.column("ranking", sa.String),
    sa.column("hints_recorded", sa.Boolean), sa.column("height", sa.Integer),
    sa.column("width", sa.Integer),
)
_events = sa.table("events", sa.column("game_id", sa.String),
                   sa.column("recorded_at", sa.DateTime))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("assisted", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
        batch.add_column(sa.Column("origin", sa.String(16), nullable=False,
                                   server_default="here"))
        batch.add_column(sa.Column("signature", sa.String(128), nullable=True))
    with op.batch_alter_table("high_scores") as batch:
        batch.add_column(sa.Column("ranking", sa.String(16), nullable=False,
                                   server_default="vs_computer"))
        batch.add_column(sa.Column("hints_recorded", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    _migrate_rows()
    with op.batch_alter_table("high_scores") as batch:
        batch.alter_column("height", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("width", existing_type=sa.Integer(), nullable=False)
        # every writer names the table: a row without one is a bug, not the main table
        batch.alter_column("ranking", existing_type=sa.String(16), server_default=None)
        batch.drop_index("ix_high_scores_height_width")
        batch.create_index("ix_high_scores_ranking_height_width_score",
                           ["ranking", "height", "width", "score"])


def _migrate_rows() -> None:
    conn = op.get_bind()
    imported = (sa.select(_events.c.game_id).group_by(_events.c.game_id)
                .having(sa.func.count() > 1)
                .having(sa.func.min(_events.c.recorded_at) == sa.func.max(_events.c.recorded_at)))
    conn.execute(sa.update(_games).where(_games.c.game_id.in_(imported))
                 .values(origin="archive"))
    t = _high_scores
    conn.execute(sa.update(t).where(t.c.difficulty.in_(HUMAN_MODES))
                 .values(ranking=t.c.difficulty))
    archive = sa.select(_games.c.game_id).where(_games.c.origin == "archive")
    conn.execute(sa.update(t).where(t.c.game_id.in_(archive)).values(ranking="archive"))
    conn.execute(sa.update(t).where(t.c.seat.is_not(None)).values(hints_recorded=False))
    conn.execute(sa.update(t).where(t.c.height.is_(None))
                 .values(height=DEFAULT_HEIGHT, width=DEFAULT_WIDTH))


def downgrade() -> None:
    """Entries keep their field; two-player, online and archive entries are back in
    one table (as before this revision)."""
    with op.batch_alter_table("high_scores") as batch:
        batch.drop_index("ix_high_scores_ranking_height_width_score")
        batch.create_index("ix_high_scores_height_width", ["height", "width"])
        batch.alter_column("height", existing_type=sa.Integer(), nullable=True)
        batch.alter_column("width", existing_type=sa.Integer(), nullable=True)
        batch.drop_column("hints_recorded")
        batch.drop_column("ranking")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("signature")
        batch.drop_column("origin")
        batch.drop_column("assisted")
