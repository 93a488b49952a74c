"""The invitations table: an online game's one-time claim code and the token of the
seat it gives, both stored only as salted hashes (see `service.services.security`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from .schema import invitations_table

_T = invitations_table


class RematchTaken(Exception):
    """Another transaction stored a rematch of the same game first (the unique
    ``rematch_of``); this transaction can only be rolled back."""


@dataclass(frozen=True)
class Invitation:
    game_id: str
    code_hash: str
    code_salt: str
    expires_at: datetime
    claimed_at: datetime | None
    token_hash: str | None  # the invited seat's token, once claimed
    token_salt: str | None
    seat: int = 2  # the seat the code claims (a rematch's may be 1)
    rematch_of: str | None = None  # the finished game this one is the rematch of


class InvitationRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def add(self, game_id: str, *, code_hash: str, code_salt: str, expires_at: datetime,
            seat: int = 2, rematch_of: str | None = None) -> None:
        try:
            self._conn.execute(insert(_T), [{"game_id": game_id, "code_hash": code_hash,
                                             "code_salt": code_salt, "expires_at": expires_at,
                                             "seat": seat, "rematch_of": rematch_of}])
        except IntegrityError as exc:
            if rematch_of is None:
                raise
            raise RematchTaken(rematch_of) from exc

    def get(self, game_id: str) -> Invitation | None:
        row = self._conn.execute(select(_T).where(_T.c.game_id == game_id)).first()
        return Invitation(**row._mapping) if row is not None else None

    def claim(self, game_id: str, *, token_hash: str, token_salt: str,
              claimed_at: datetime) -> bool:
        """Mark the invitation claimed, with the seat's token; False when it was
        claimed already (a compare-and-set on ``claimed_at IS NULL``)."""
        result = self._conn.execute(
            update(_T)
            .where(_T.c.game_id == game_id, _T.c.claimed_at.is_(None))
            .values(claimed_at=claimed_at, token_hash=token_hash, token_salt=token_salt)
        )
        return result.rowcount == 1

    def rematch_of(self, game_id: str) -> Invitation | None:
        """The invitation of the rematch of finished game `game_id`, if one waits."""
        row = self._conn.execute(select(_T).where(_T.c.rematch_of == game_id)).first()
        return Invitation(**row._mapping) if row is not None else None

    def release_rematch(self, game_id: str) -> None:
        """Forget that `game_id`'s rematch is one (it was abandoned unclaimed), so
        that a new rematch may take its place."""
        self._conn.execute(update(_T).where(_T.c.rematch_of == game_id).values(rematch_of=None))

    def delete(self, game_id: str) -> None:
        self._conn.execute(_T.delete().where(_T.c.game_id == game_id))
