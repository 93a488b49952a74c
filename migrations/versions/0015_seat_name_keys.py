"""players: each human seat's name key on its games row, indexed

``games.first_key`` and ``games.second_key``: `service.domain.names.name_key` of the
name of seat 1 and seat 2 when that seat is a human's (NULL for a computer seat and
for an online game's seat nobody has claimed yet), each indexed with ``created_at``.
A player's page (``/players/<name>``) lists the games whose human seat has the
name's key, newest first, by these indexes; computing the key of every row's names
per request would read the whole table.

Two columns on the games row, not a table of seats: the row is rewritten by every
append anyway (the keys ride in the same ``UPDATE``, and in PostgreSQL's
one-statement append), so keeping them right costs no statement of its own, and
``squares rebuild`` rewrites them with the row.

Filled here page by page in the games' key order: the names from the row (an online
game's second name comes from a later event), whether each seat is a human's from
the game's first event (its ``seats``; every version of ``game_created`` has them).
A row without events is keyed as its mode seats it. Like 0007 this runs application
code (ICU's skeleton is not SQL's): a change of `name_key` needs a migration that
computes the keys again.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from service.domain.names import name_key

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {"games": ("first_key", "second_key")}

PAGE = 1000  # games rows read at a time

_games = sa.table("games", sa.column("game_id", sa.String), sa.column("mode", sa.String),
                  sa.column("player_name", sa.String), sa.column("second_name", sa.String),
                  sa.column("first_key", sa.String), sa.column("second_key", sa.String))
_events = sa.table("events", sa.column("game_id", sa.String), sa.column("seq", sa.Integer),
                   sa.column("type", sa.String), sa.column("payload", sa.JSON))

# Who sits in each seat by mode, for a row without its first event.
_HUMAN_SEATS = {"vs_computer": (True, False), "two_players": (True, True),
                "online": (True, True), "computer_vs_computer": (False, False)}


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("first_key", sa.String(), nullable=True))
        batch.add_column(sa.Column("second_key", sa.String(), nullable=True))
    _fill_keys()
    op.create_index(op.f("ix_games_first_key_created_at"), "games",
                    ["first_key", "created_at"])
    op.create_index(op.f("ix_games_second_key_created_at"), "games",
                    ["second_key", "created_at"])


def _humans(mode: str, payload: dict[str, Any] | None) -> tuple[bool, bool]:
    seats = (payload or {}).get("seats")
    if isinstance(seats, list) and len(seats) == 2:
        first, second = (isinstance(s, dict) and s.get("kind") == "human" for s in seats)
        return first, second
    return _HUMAN_SEATS.get(mode, (False, False))


def _key(name: str | None, human: bool) -> str | None:
    return name_key(name) if human and name else None


def _fill_keys() -> None:
    conn = op.get_bind()
    first = _events  # a game's first event, joined by (game_id, seq 1)
    fill = (sa.update(_games).where(_games.c.game_id == sa.bindparam("gid"))
            .values(first_key=sa.bindparam("key1"), second_key=sa.bindparam("key2")))
    after = ""
    while True:
        page = conn.execute(
            sa.select(_games.c.game_id, _games.c.mode, _games.c.player_name,
                      _games.c.second_name, first.c.payload)
            .select_from(_games.outerjoin(first, sa.and_(
                first.c.game_id == _games.c.game_id, first.c.seq == 1,
                first.c.type == "game_created")))
            .where(_games.c.game_id > after)
            .order_by(_games.c.game_id).limit(PAGE)).all()
        if not page:
            return
        rows = []
        for game_id, mode, name1, name2, payload in page:
            human1, human2 = _humans(mode, payload)
            rows.append({"gid": game_id, "key1": _key(name1, human1),
                         "key2": _key(name2, human2)})
        conn.execute(fill, rows)
        after = page[-1][0]


def downgrade() -> None:
    op.drop_index(op.f("ix_games_second_key_created_at"), table_name="games")
    op.drop_index(op.f("ix_games_first_key_created_at"), table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("second_key")
        batch.drop_column("first_key")
