"""players: records that hold names, passkeys, sessions, recovery codes, ceremonies

A player record holds a name so that events need not: from this version a human
seat of a new game points to its record (``game_created`` v4, ``seat_claimed`` v2),
and forgetting a player empties the record's name, which no event holds. A record
is a guest's (anyone who types the name plays under it) until it is claimed with a
passkey (``claimed_at``): then only its holder's session plays under that name or a
name with the same key (`service.domain.names.name_key`).

- ``players``: one guest record per exact name, one claimed record per name key
  (partial unique indexes); ``name`` and ``name_key`` are NULL once forgotten, and
  ``forgotten_key``, a keyed hash of the key, masks the name in the games from before
  records and keeps it out of others' reach until ``free_at``.
- ``passkeys``: a claimed player's WebAuthn credentials.
- ``sessions``: signed-in browsers, by the SHA-256 of the cookie's token.
- ``recovery_codes``: one-time codes, by their salted hash.
- ``ceremonies``: WebAuthn challenges, single-use, expiring.
- ``games.first_player``, ``games.second_player`` and ``high_scores.player_id``:
  the records behind the seats (NULL for the games before this version, guests').

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What downgrade() removes (see service/store/migrations.py).
DOWNGRADE_DROPS: dict[str, tuple[str, ...]] = {
    "ceremonies": (), "recovery_codes": (), "sessions": (), "passkeys": (), "players": (),
    "games": ("first_player", "second_player"), "high_scores": ("player_id",),
}

_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("name_key", sa.String(), nullable=True),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("claimed_at", _TIME, nullable=True),
        sa.Column("forgotten_at", _TIME, nullable=True),
        sa.Column("forgotten_key", sa.String(), nullable=True),
        sa.Column("free_at", _TIME, nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_index(op.f("ix_players_name_key"), "players", ["name_key"])
    op.create_index(op.f("ix_players_forgotten_key"), "players", ["forgotten_key"])
    op.create_index("uq_players_guest_name", "players", ["name"], unique=True,
                    sqlite_where=sa.text("claimed_at IS NULL AND name IS NOT NULL"),
                    postgresql_where=sa.text("claimed_at IS NULL AND name IS NOT NULL"))
    op.create_index("uq_players_claimed_key", "players", ["name_key"], unique=True,
                    sqlite_where=sa.text("claimed_at IS NOT NULL AND name_key IS NOT NULL"),
                    postgresql_where=sa.text("claimed_at IS NOT NULL AND name_key IS NOT NULL"))
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.String(200), nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("used_at", _TIME, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_passkeys_player_id_players")),
        sa.PrimaryKeyConstraint("credential_id", name=op.f("pk_passkeys")),
    )
    op.create_index(op.f("ix_passkeys_player_id"), "passkeys", ["player_id"])
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("expires_at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_sessions_player_id_players")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_player_id"), "sessions", ["player_id"])
    op.create_table(
        "recovery_codes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sa.String(128), nullable=False),
        sa.Column("code_salt", sa.String(64), nullable=False),
        sa.Column("used_at", _TIME, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_recovery_codes_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recovery_codes")),
    )
    op.create_index(op.f("ix_recovery_codes_player_id"), "recovery_codes", ["player_id"])
    op.create_table(
        "ceremonies",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),  # claim | sign_in | add_passkey
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),  # the name a claim would take
        sa.Column("created_at", _TIME, nullable=False),
        sa.Column("expires_at", _TIME, nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE",
                                name=op.f("fk_ceremonies_player_id_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ceremonies")),
    )
    op.create_index(op.f("ix_ceremonies_expires_at"), "ceremonies", ["expires_at"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("first_player", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("second_player", sa.Integer(), nullable=True))
    with op.batch_alter_table("high_scores") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_games_first_player"), "games", ["first_player"])
    op.create_index(op.f("ix_games_second_player"), "games", ["second_player"])
    op.create_index(op.f("ix_high_scores_player_id"), "high_scores", ["player_id"])
    _recover_records()


_events = sa.table("events", sa.column("game_id", sa.String), sa.column("seq", sa.Integer),
                   sa.column("type", sa.String), sa.column("payload", sa.JSON))
_games = sa.table("games", sa.column("game_id", sa.String),
                  sa.column("player_name", sa.String), sa.column("second_name", sa.String),
                  sa.column("first_player", sa.Integer), sa.column("second_player", sa.Integer))
_scores = sa.table("high_scores", sa.column("game_id", sa.String), sa.column("seat", sa.Integer),
                   sa.column("player_id", sa.Integer))
_players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String),
                    sa.column("name_key", sa.String), sa.column("created_at", _TIME))


def _recover_records() -> None:
    """Make again the records that events point to, after a downgrade below this
    revision dropped them: each with its name as the games row shows it, a guest's
    (passkeys and sessions are gone with their tables). Without it a new record would
    take the id of one that events name, and a stranger's name would show in their
    games. A database that never had records has no event that points to one."""
    from datetime import UTC, datetime

    from service.domain.names import name_key

    conn = op.get_bind()
    seats: dict[str, dict[int, int]] = {}
    query = sa.select(_events.c.game_id, _events.c.type, _events.c.payload).where(
        _events.c.type.in_(("game_created", "seat_claimed"))).order_by(_events.c.game_id)
    for game_id, kind, payload in conn.execute(query):
        if kind == "game_created":
            for n, seat in enumerate(payload.get("seats") or (), start=1):
                if isinstance(seat, dict) and isinstance(seat.get("player"), int):
                    seats.setdefault(game_id, {})[n] = seat["player"]
        elif isinstance(payload.get("player"), int):
            seats.setdefault(game_id, {})[payload["seat"]] = payload["player"]
    if not seats:
        return
    names: dict[int, str] = {}
    taken: set[str] = set()
    now = datetime.now(UTC)
    for game_id, players in seats.items():
        row = conn.execute(sa.select(_games.c.player_name, _games.c.second_name)
                           .where(_games.c.game_id == game_id)).first()
        for seat, player in players.items():
            conn.execute(sa.update(_games).where(_games.c.game_id == game_id).values(
                {"first_player" if seat == 1 else "second_player": player}))
            conn.execute(sa.update(_scores).where(_scores.c.game_id == game_id,
                                                  _scores.c.seat == seat)
                         .values(player_id=player))
            if row is not None and player not in names:
                names[player] = row[seat - 1]
    for player in sorted(names):
        name = names[player] if names[player] not in taken else None  # one guest a name
        taken.add(names[player])
        conn.execute(sa.insert(_players).values(
            id=player, name=name, name_key=name_key(name) if name else None, created_at=now))
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('players', 'id'), "
                             "(SELECT max(id) FROM players))"))


def downgrade() -> None:
    op.drop_index(op.f("ix_high_scores_player_id"), "high_scores")
    op.drop_index(op.f("ix_games_second_player"), "games")
    op.drop_index(op.f("ix_games_first_player"), "games")
    with op.batch_alter_table("high_scores") as batch:
        batch.drop_column("player_id")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("second_player")
        batch.drop_column("first_player")
    for name in ("ceremonies", "recovery_codes", "sessions", "passkeys", "players"):
        op.drop_table(name)
