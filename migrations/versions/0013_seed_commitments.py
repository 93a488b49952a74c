"""seed commitments: what identifies a game's stream, indexed

``games.seed_commitment`` (indexed): the ``seed_commitment`` of the game's
``game_created`` event (`domain.seeds`). An import is refused when it is a game stored
already (`services.admin`), and that game was looked up by its stored seat names,
which an online game takes from its ``seat_claimed`` event, not from its first event:
a re-imported online game was stored twice and ranked twice. The commitment is in the
first event of every stream and differs between games unless their seed was chosen,
so one indexed query finds the few candidates, whose events are then compared.

Filled here from each game's first event; NULL only for a row without events (the
store fills it for every game it adds from now on). A version 1 ``game_created`` had
no commitment: it is the one its upcast gives (the SHA-256 hex of the integer seed's
text), computed here, frozen like every migration's values.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-29
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"games": ("seed_commitment",)}

PAGE = 1000  # first events read at a time

_events = sa.table("events", sa.column("game_id", sa.String), sa.column("seq", sa.Integer),
                   sa.column("type", sa.String), sa.column("payload", sa.JSON))
_games = sa.table("games", sa.column("game_id", sa.String),
                  sa.column("seed_commitment", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_commitment", sa.String(64), nullable=True))
    _fill_commitments()
    op.create_index(op.f("ix_games_seed_commitment"), "games", ["seed_commitment"])


def _commitment(payload: dict[str, Any]) -> str:
    if "seed_commitment" in payload:  # version 2 and later
        return str(payload["seed_commitment"])
    return hashlib.sha256(str(payload["seed"]).encode("utf-8")).hexdigest()


def _fill_commitments() -> None:
    """Page by page in the events' key order (a first event holds the game's random
    lines: a whole table of them need not be in memory at once)."""
    conn = op.get_bind()
    fill = (sa.update(_games).where(_games.c.game_id == sa.bindparam("gid"))
            .values(seed_commitment=sa.bindparam("commitment")))
    after = ""
    while True:
        page = conn.execute(
            sa.select(_events.c.game_id, _events.c.payload)
            .where(_events.c.game_id > after, _events.c.seq == 1,
                   _events.c.type == "game_created")
            .order_by(_events.c.game_id).limit(PAGE)).all()
        if not page:
            return
        conn.execute(fill, [{"gid": game_id, "commitment": _commitment(payload)}
                            for game_id, payload in page])
        after = page[-1][0]


def downgrade() -> None:
    op.drop_index(op.f("ix_games_seed_commitment"), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_commitment")
