"""The tables of players and how they sign in (migration 0017).

- ``players``: a record that holds a name, so that events need not (a human seat of
  a game since 0017 points to one). A guest record per exact name; a claimed one
  (``claimed_at``) per name key, held by passkeys. Forgetting a record empties
  ``name`` and ``name_key``; ``forgotten_key`` (a keyed hash of the key, never the key)
  masks the name where older games hold it in text, and keeps it from others until
  ``free_at``.
- ``passkeys``: a claimed player's WebAuthn credentials (base64url id, COSE public
  key, the signature counter last seen).
- ``sessions``: signed-in browsers, by the SHA-256 of the cookie's token (the token
  itself is never stored).
- ``recovery_codes``: one-time codes, by salted hash; ``used_at`` once spent.
- ``ceremonies``: WebAuthn challenges, each used once, before ``expires_at``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Table,
    text,
)

from .schema import UTCDateTime, metadata

_CLAIMED = "claimed_at IS NOT NULL AND name_key IS NOT NULL"
_GUEST = "claimed_at IS NULL AND name IS NOT NULL"

players_table = Table(
    "players", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=True),  # NULL once forgotten
    Column("name_key", String(), nullable=True),  # names.name_key(name)
    Column("created_at", UTCDateTime(), nullable=False),
    Column("claimed_at", UTCDateTime(), nullable=True),  # NULL: a guest's record
    Column("forgotten_at", UTCDateTime(), nullable=True),
    Column("forgotten_key", String(), nullable=True),  # security.name_key_hash of the key
    Column("free_at", UTCDateTime(), nullable=True),
    Index(None, "name_key"),
    Index(None, "forgotten_key"),
    Index("uq_players_guest_name", "name", unique=True,
          sqlite_where=text(_GUEST), postgresql_where=text(_GUEST)),
    Index("uq_players_claimed_key", "name_key", unique=True,
          sqlite_where=text(_CLAIMED), postgresql_where=text(_CLAIMED)),
)

passkeys_table = Table(
    "passkeys", metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("public_key", LargeBinary(), nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("transports", String(200), nullable=False),  # comma-separated
    Column("label", String(64), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("used_at", UTCDateTime(), nullable=True),
)

sessions_table = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
)

recovery_codes_table = Table(
    "recovery_codes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=False, index=True),
    Column("code_hash", String(128), nullable=False),
    Column("code_salt", String(64), nullable=False),
    Column("used_at", UTCDateTime(), nullable=True),
)

ceremonies_table = Table(
    "ceremonies", metadata,
    Column("id", String(64), primary_key=True),
    Column("kind", String(16), nullable=False),  # claim | sign_in | add_passkey
    Column("challenge", String(128), nullable=False),  # base64url
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           nullable=True),
    Column("name", String(64), nullable=True),  # the name a claim would take
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False, index=True),
)
