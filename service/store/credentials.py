"""How claimed players sign in: their passkeys, sessions, recovery codes and the
WebAuthn ceremonies in flight (`account_tables`), as ``uow.credentials``.

What the service hands in is already hashed: a session by the SHA-256 of its cookie's
token, a recovery code by its salted hash (`service.services.accounts` hashes them);
no token or code is ever stored as it was given.

A ceremony is used at most once: `CredentialRepository.take_ceremony` is one
conditional ``DELETE`` (its id, its kind, not expired), which only one caller can
win, whatever the number of processes; a recovery code is spent the same way
(``UPDATE … WHERE used_at IS NULL``). The sweep (`sweep`) deletes the ceremonies and
sessions that ran out.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .account_tables import (
    ceremonies_table,
    passkeys_table,
    players_table,
    recovery_codes_table,
    sessions_table,
)

_C, _K, _S, _R, _P = (ceremonies_table, passkeys_table, sessions_table,
                      recovery_codes_table, players_table)


@dataclass(frozen=True)
class Ceremony:
    id: str
    kind: str  # claim | sign_in | add_passkey
    challenge: str  # base64url
    player_id: int | None
    name: str | None
    created_at: datetime
    expires_at: datetime


@dataclass(frozen=True)
class StoredPasskey:
    credential_id: str  # base64url
    player_id: int
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]
    label: str
    created_at: datetime
    used_at: datetime | None


@dataclass(frozen=True)
class StoredCode:
    id: int
    code_hash: str
    code_salt: str


@dataclass(frozen=True)
class Swept:
    """What one `CredentialRepository.sweep` deleted."""

    ceremonies: int
    sessions: int


def _passkey(row: object) -> StoredPasskey:
    m = row._mapping  # type: ignore[attr-defined]  # a SQLAlchemy Row
    transports = tuple(t for t in m["transports"].split(",") if t)
    return StoredPasskey(m["credential_id"], m["player_id"], bytes(m["public_key"]),
                         int(m["sign_count"]), transports, m["label"], m["created_at"],
                         m["used_at"])


class CredentialRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    # ceremonies ---------------------------------------------------------------
    def add_ceremony(self, ceremony: Ceremony) -> None:
        self._conn.execute(insert(_C).values(
            id=ceremony.id, kind=ceremony.kind, challenge=ceremony.challenge,
            player_id=ceremony.player_id, name=ceremony.name,
            created_at=ceremony.created_at, expires_at=ceremony.expires_at))

    def take_ceremony(self, ceremony_id: str, kind: str, now: datetime) -> Ceremony | str:
        """The ceremony `ceremony_id` of `kind`, deleted in the same statement so
        that nobody else can take it; else why not: ``"expired"`` (it is still
        there, past its time) or ``"used"`` (taken already, swept, or never given)."""
        taken = self._conn.execute(
            delete(_C).where(_C.c.id == ceremony_id, _C.c.kind == kind,
                             _C.c.expires_at > now)
            .returning(_C.c.id, _C.c.kind, _C.c.challenge, _C.c.player_id, _C.c.name,
                       _C.c.created_at, _C.c.expires_at)).first()
        if taken is not None:
            return Ceremony(*taken)
        left = self._conn.execute(
            select(_C.c.id).where(_C.c.id == ceremony_id, _C.c.kind == kind)).first()
        return "expired" if left is not None else "used"

    # passkeys -----------------------------------------------------------------
    def add_passkey(self, passkey: StoredPasskey) -> bool:
        """Store a new passkey; False when its credential id is stored already (in a
        savepoint: the transaction goes on)."""
        try:
            with self._conn.begin_nested():
                self._conn.execute(insert(_K).values(
                    credential_id=passkey.credential_id, player_id=passkey.player_id,
                    public_key=passkey.public_key, sign_count=passkey.sign_count,
                    transports=",".join(passkey.transports), label=passkey.label,
                    created_at=passkey.created_at, used_at=passkey.used_at))
        except IntegrityError:
            return False
        return True

    def passkey(self, credential_id: str) -> StoredPasskey | None:
        row = self._conn.execute(select(_K).where(_K.c.credential_id == credential_id)).first()
        return _passkey(row) if row is not None else None

    def passkeys(self, player_id: int) -> list[StoredPasskey]:
        """The player's passkeys, oldest first."""
        rows = self._conn.execute(select(_K).where(_K.c.player_id == player_id)
                                  .order_by(_K.c.created_at, _K.c.credential_id))
        return [_passkey(row) for row in rows]

    def count_passkeys(self, player_id: int) -> int:
        return int(self._conn.execute(
            select(func.count()).select_from(_K).where(_K.c.player_id == player_id))
            .scalar_one())

    def used_passkey(self, credential_id: str, seen: int, sign_count: int,
                     now: datetime) -> bool:
        """Record a sign-in by the passkey: its counter moves from `seen` (what the
        check compared with) to `sign_count`. False when another sign-in moved it
        meanwhile (a compare-and-set: the same counter is never accepted twice)."""
        result = self._conn.execute(
            update(_K).where(_K.c.credential_id == credential_id, _K.c.sign_count == seen)
            .values(sign_count=sign_count, used_at=now))
        return bool(result.rowcount)

    def remove_passkey(self, player_id: int, credential_id: str) -> bool:
        result = self._conn.execute(delete(_K).where(_K.c.player_id == player_id,
                                                     _K.c.credential_id == credential_id))
        return bool(result.rowcount)

    # sessions -----------------------------------------------------------------
    def add_session(self, token_hash: str, player_id: int, now: datetime,
                    expires_at: datetime) -> None:
        self._conn.execute(insert(_S).values(token_hash=token_hash, player_id=player_id,
                                             created_at=now, expires_at=expires_at))

    def session_player(self, token_hash: str, now: datetime) -> tuple[int, str] | None:
        """The player id and name a live session signs in; None when there is no such
        session, it expired, or its player was forgotten (no name)."""
        row = self._conn.execute(
            select(_P.c.id, _P.c.name).select_from(_S.join(_P, _P.c.id == _S.c.player_id))
            .where(_S.c.token_hash == token_hash, _S.c.expires_at > now,
                   _P.c.name.is_not(None), _P.c.claimed_at.is_not(None))).first()
        return (int(row[0]), str(row[1])) if row is not None else None

    def end_session(self, token_hash: str) -> None:
        self._conn.execute(delete(_S).where(_S.c.token_hash == token_hash))

    def end_sessions(self, player_id: int) -> int:
        """Every session of the player (signing out everywhere): how many."""
        return int(self._conn.execute(delete(_S).where(_S.c.player_id == player_id))
                   .rowcount or 0)

    # recovery codes -----------------------------------------------------------
    def add_codes(self, player_id: int, hashed: list[tuple[str, str]]) -> None:
        """Store the player's recovery codes, each as (salted hash, salt)."""
        self._conn.execute(insert(_R), [
            {"player_id": player_id, "code_hash": code_hash, "code_salt": salt}
            for code_hash, salt in hashed])

    def unspent_codes(self, player_id: int) -> list[StoredCode]:
        rows = self._conn.execute(
            select(_R.c.id, _R.c.code_hash, _R.c.code_salt)
            .where(_R.c.player_id == player_id, _R.c.used_at.is_(None)).order_by(_R.c.id))
        return [StoredCode(int(i), h, s) for i, h, s in rows]

    def count_unspent(self, player_id: int) -> int:
        return int(self._conn.execute(
            select(func.count()).select_from(_R)
            .where(_R.c.player_id == player_id, _R.c.used_at.is_(None))).scalar_one())

    def spend_code(self, code_id: int, now: datetime) -> bool:
        """Spend the code: False when another request spent it first."""
        result = self._conn.execute(
            update(_R).where(and_(_R.c.id == code_id, _R.c.used_at.is_(None)))
            .values(used_at=now))
        return bool(result.rowcount)

    def drop_player(self, player_id: int) -> None:
        """Every passkey, recovery code, session and ceremony of a forgotten player."""
        for table in (_K, _R, _S, _C):
            self._conn.execute(delete(table).where(table.c.player_id == player_id))

    # the sweep ----------------------------------------------------------------
    def sweep(self, now: datetime) -> Swept:
        """Delete the ceremonies and sessions that ran out by `now`."""
        ceremonies = self._conn.execute(delete(_C).where(_C.c.expires_at <= now)).rowcount
        sessions = self._conn.execute(delete(_S).where(_S.c.expires_at <= now)).rowcount
        return Swept(int(ceremonies or 0), int(sessions or 0))
