"""The tables, created only by the Alembic migrations (the games read model's fields
and how a state maps to them are `summaries`).

- ``events``: the source of truth. One row per event, primary key ``(game_id, seq)``,
  ``seq`` gap-free and 1-based (it equals the state's version after the event).
  ``type`` and ``schema_version`` (the event class's schema number, upcast on load)
  have their own columns; ``payload`` holds ``Event.to_dict()["data"]``.
  ``position`` orders all streams together, for followers (`positions`), from
  the one-row counter ``event_positions``.
- ``projection_checkpoints``: per follower of the events (the analyst) the
  position it has read up to, and its lease (`checkpoints`).
- ``game_reviews``: the analyst's review of each ended game, deleted with the game.
- ``games``: the read model, one row per game, rewritten in the transaction that
  appends the events it summarises and rebuildable from them. Its columns besides
  the token, the creator, the secret seed, an import's signature and the seed's
  commitment (set once, from the first event) are exactly the fields of `GameSummary`, and
  `summary_values` (`summaries`) is the only code that derives them from a state. ``creator`` is
  a keyed hash of the address that created the game through the API
  (`security.client_key`; NULL for the CLI and for games before migration 0006),
  kept only while the game is active, for the per-address cap on active games.
  ``first_key`` and ``second_key`` (indexed with ``created_at``) are the human seats'
  name keys (`summaries.name_key_values`, migration 0015), rewritten with the row:
  a player's page finds their games by them (`players`).
- ``invitations``: an online game's one-time claim code and its invited seat's
  token (both hashed), deleted with the game.
- ``viewers``: open spectator streams per (server process, game, client), the
  client a keyed hash of its address (`security.client_key`), for the viewer count
  (distinct clients per game).
- ``high_scores``: RULES E. Rows from a game carry ``(game_id, seat)``, unique, so a
  game's ``high_scores_entered`` event is recorded once. ``game_id`` is a foreign
  key ``ON DELETE SET NULL``: deleting a game keeps its score, only the link goes.
  ``name_skeleton`` (indexed) is the name's key (`domain.names.name_key` since
  migration 0014, its UTS #39 skeleton before): a new player name with the key of a
  different name in the table is refused.
  ``ranking`` is the table the row belongs to (`domain.ranking`: one per mode of
  play, or ``archive``), and a table is read per field size (``height``, ``width``);
  ``hints_recorded`` is false for rows of games played before hints were recorded.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on both databases (SQLite keeps naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utcnow() -> datetime:
    return datetime.now(UTC)


Payload = JSON().with_variant(JSONB(), "postgresql")

metadata = MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})

events_table = Table(
    "events", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("type", String(40), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("payload", Payload, nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    # the global order over all streams (`positions`); always written, nullable only
    # because SQLite adds nothing else to a table without rowid (migration 0010)
    Column("position", BigInteger, nullable=True),
    CheckConstraint("seq >= 1", name="seq_positive"),
    Index(None, "position", unique=True),
    sqlite_with_rowid=False,  # one b-tree clustered by (game_id, seq)
)

# One row: the last position given (`positions.next_positions`).
event_positions_table = Table(
    "event_positions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("last", BigInteger, nullable=False),
    CheckConstraint("id = 1", name="one_row"),
)

# Per follower of the events (`projections`): how far it has read, and its lease.
projection_checkpoints_table = Table(
    "projection_checkpoints", metadata,
    Column("name", String(64), primary_key=True),
    Column("position", BigInteger, nullable=False),
    Column("holder", String(64), nullable=True),
    Column("lease_until", UTCDateTime(), nullable=True),
)

games_table = Table(
    "games", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("status", String(16), nullable=False),  # active | finished | abandoned | aborted
    Column("mode", String(32), nullable=False),
    Column("difficulty", String(32), nullable=False),
    Column("player_name", String(64), nullable=False),
    Column("second_name", String(64), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),  # the last event's time
    Column("finished_at", UTCDateTime(), nullable=True),
    Column("version", Integer, nullable=False),  # the stream's position (its last seq)
    Column("score1", Integer, nullable=False),
    Column("score2", Integer, nullable=False),
    Column("squares1", Integer, nullable=False),
    Column("squares2", Integer, nullable=False),
    Column("ownerless", Integer, nullable=False),
    Column("round", Integer, nullable=False),
    Column("turn", Integer, nullable=False),
    Column("stage", Integer, nullable=False),
    Column("winner", Integer, nullable=True),
    Column("height", Integer, nullable=False),
    Column("width", Integer, nullable=False),
    Column("ranked", Boolean, nullable=False),  # False: a practice game (a chosen seed)
    Column("assisted", Boolean, nullable=False),  # a human seat asked for a hint
    Column("origin", String(16), nullable=False),  # here | signed | archive (`ranking`)
    Column("token_hash", String(128), nullable=False),
    Column("token_salt", String(64), nullable=False),
    Column("creator", String(64), nullable=True),  # NULL once the game is not active
    # a ranked game's secret seed (`domain.seeds`); NULL when its events hold the seed
    Column("seed_secret", String(64), nullable=True),
    # an imported game's signature as it came, "<key id>:<mac>" (`services.signatures`)
    Column("signature", String(128), nullable=True),
    # its game_created event's seed_commitment: what finds a stored game that an
    # import is a copy of (`services.admin`); NULL only for a row without events
    Column("seed_commitment", String(64), nullable=True),
    # each human seat's `names.name_key` (NULL for a computer seat and an open seat):
    # a player's games (`players`) by index, never by a key computed per row
    Column("first_key", String(), nullable=True),
    Column("second_key", String(), nullable=True),
    # the player records behind the human seats (`account_tables`; migration 0017):
    # NULL for a computer seat, an open seat, and every seat of an older game
    Column("first_player", Integer, nullable=True),
    Column("second_player", Integer, nullable=True),
    Index(None, "created_at"),
    Index(None, "seed_commitment"),
    Index(None, "status", "updated_at"),  # /live, the retention sweep, prune
    Index(None, "creator", "status"),  # the per-address cap
    Index(None, "first_key", "created_at"),  # a player's games, newest first
    Index(None, "second_key", "created_at"),
    Index(None, "first_player"),
    Index(None, "second_player"),
)

high_scores_table = Table(
    "high_scores", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("score", Integer, nullable=False),
    Column("difficulty", String(32), nullable=False),
    Column("game_id", String(64), ForeignKey("games.game_id", ondelete="SET NULL"),
           nullable=True),
    Column("seat", Integer, nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("height", Integer, nullable=False),  # the game's field (the default without one)
    Column("width", Integer, nullable=False),
    # names.name_key(name) (its skeleton before migration 0014), for the look-alike
    # check; no length: NFKC can lengthen the names of rows older than 0007 many times
    Column("name_skeleton", String(), nullable=True),
    Column("ranking", String(16), nullable=False),  # vs_computer | two_players | online | archive
    # False: from a game played before hints were recorded (migration 0011)
    Column("hints_recorded", Boolean, nullable=False),
    Column("player_id", Integer, nullable=True),  # the seat's player record (0017)
    UniqueConstraint("game_id", "seat"),
    Index(None, "score"),
    Index(None, "ranking", "height", "width", "score"),  # one table, best first
    # one level of a table, best first (`queries.high_scores`; migration 0016)
    Index(None, "ranking", "height", "width", "difficulty", "score"),
    Index(None, "name_skeleton"),
    Index(None, "player_id"),
)

invitations_table = Table(
    "invitations", metadata,
    Column("game_id", String(64), ForeignKey("games.game_id", ondelete="CASCADE"),
           primary_key=True),
    Column("code_hash", String(128), nullable=False),
    Column("code_salt", String(64), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("claimed_at", UTCDateTime(), nullable=True),
    Column("token_hash", String(128), nullable=True),  # the invited seat's token
    Column("token_salt", String(64), nullable=True),
    Column("seat", Integer, nullable=False, server_default="2"),  # the seat it opens
    # the finished online game this one is the rematch of (at most one each)
    Column("rematch_of", String(64), nullable=True, index=True, unique=True),
)

# The analyst's review of each ended game (`domain.review`, `projections.analyst`).
game_reviews_table = Table(
    "game_reviews", metadata,
    Column("game_id", String(64), ForeignKey("games.game_id", ondelete="CASCADE"),
           primary_key=True),
    Column("algorithm", Integer, nullable=False),  # review.ALGORITHM when computed
    Column("position", BigInteger, nullable=False),  # of the event that ended the game
    Column("accuracy1", Integer, nullable=True),  # NULL: no turn played, or it failed
    Column("accuracy2", Integer, nullable=True),
    Column("exact", Boolean, nullable=False),
    Column("reviewed_at", UTCDateTime(), nullable=False),
    Column("body", Payload, nullable=False),  # Review.to_dict(), or {"error": why}
)

viewers_table = Table(
    "viewers", metadata,
    Column("instance", String(64), primary_key=True),  # one server process
    Column("game_id", String(64), primary_key=True),
    Column("client", String(64), primary_key=True),  # security.client_key, never the address
    Column("count", Integer, nullable=False),  # the client's spectator streams there
    Column("seen_at", UTCDateTime(), nullable=False),
    Index(None, "game_id", "client"),
)
