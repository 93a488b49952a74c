"""committed seeds: each game's secret seed and whether it is ranked

``games.seed_secret``: the secret seed of a ranked game (issue 23, `domain.seeds`):
its events carry only the commitment until the game ends, so the server keeps the
seed here, like the token's hash, outside the read model. NULL for practice games
(their seed is in their first event) and for games from before this revision (theirs
too). ``games.ranked``: false for a practice game (a chosen seed), which never enters
the high score table; every earlier game is ranked.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"games": ("seed_secret", "ranked")}


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("ranked", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))
    _mark_practice_games()


def _mark_practice_games() -> None:
    """Games whose first event says ``ranked: false`` (only version 2 events say it:
    a database taken down past this revision and up again) are practice games."""
    events = sa.table("events", sa.column("game_id", sa.String), sa.column("seq", sa.Integer),
                      sa.column("type", sa.String), sa.column("schema_version", sa.Integer),
                      sa.column("payload", sa.JSON))
    games = sa.table("games", sa.column("game_id", sa.String),
                     sa.column("ranked", sa.Boolean))
    conn = op.get_bind()
    created = conn.execute(sa.select(events.c.game_id, events.c.payload).where(
        events.c.seq == 1, events.c.type == "game_created", events.c.schema_version >= 2))
    practice = [game_id for game_id, payload in created if payload.get("ranked") is False]
    for game_id in practice:
        conn.execute(sa.update(games).where(games.c.game_id == game_id).values(ranked=False))


def downgrade() -> None:
    """Games created since this revision hold version 2 ``game_created`` events, which
    code before it cannot fold, and their running ranked games lose their seed: delete
    or finish them first."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ranked")
        batch.drop_column("seed_secret")
