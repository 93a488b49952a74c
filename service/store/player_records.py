"""The players table: records that hold the names of human seats (`account_tables`).

A guest record is found or made for each exact name a guest plays under; a claimed
record holds a name key for the player whose passkeys sign in to it. Forgetting a
player empties every record of their key, keeps only a keyed hash of the key
(`forgotten_key`: it masks the name where games from before records hold it in
text, and holds the key from everyone until ``free_at``), and writes a placeholder
("deleted player 7") into the read models in the same transaction.

The hash is keyed with the store's ``name_secret`` (the services set it from their
settings' client salt), so the table alone cannot confirm a guessed name.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, and_, insert, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..domain.names import name_key
from ..domain.texts import english
from ..errors import NameClaimed
from .account_tables import players_table
from .schema import games_table, high_scores_table

_P = players_table


def placeholder(player_id: int) -> str:
    """What every page and answer shows for a forgotten player."""
    return f"deleted player {player_id}"


@dataclass(frozen=True)
class PlayerRecord:
    id: int
    name: str | None  # None once forgotten
    name_key: str | None
    claimed: bool
    created_at: datetime
    forgotten_at: datetime | None

    @property
    def shown_as(self) -> str:
        return self.name if self.name is not None else placeholder(self.id)


def _record(mapping: Any) -> PlayerRecord:
    return PlayerRecord(mapping["id"], mapping["name"], mapping["name_key"],
                        mapping["claimed_at"] is not None,
                        mapping["created_at"], mapping["forgotten_at"])


class PlayerRecordRepository:
    def __init__(self, conn: Connection, name_secret: str) -> None:
        self._conn = conn
        self._secret = name_secret.encode()

    def key_hash(self, key: str) -> str:
        """The keyed hash of a name key that a forgotten record keeps."""
        return hmac.new(self._secret, key.encode(), hashlib.sha256).hexdigest()

    def get(self, player_id: int) -> PlayerRecord | None:
        row = self._conn.execute(select(_P).where(_P.c.id == player_id)).first()
        return _record(row._mapping) if row is not None else None

    def shown_names(self, ids: set[int]) -> dict[int, str]:
        """Each record's name as pages show it (a forgotten one's placeholder)."""
        if not ids:
            return {}
        rows = self._conn.execute(select(_P.c.id, _P.c.name).where(_P.c.id.in_(ids)))
        return {i: (n if n is not None else placeholder(i)) for i, n in rows}

    def claimed(self, ids: set[int]) -> set[int]:
        """Those of `ids` that are claimed records (their rows are no guests')."""
        if not ids:
            return set()
        return set(self._conn.execute(
            select(_P.c.id).where(_P.c.id.in_(ids), _P.c.claimed_at.is_not(None))).scalars())

    def knows(self, key: str) -> bool:
        """Whether a record holds the name key `key`."""
        return self._conn.execute(
            select(_P.c.id).where(_P.c.name_key == key).limit(1)).first() is not None

    def held_seats(self, game_ids: list[str]) -> dict[str, tuple[bool, bool]]:
        """For each of `game_ids` (a page of a list), whether each seat's name is one
        its player holds (a claimed record, not forgotten): the other seats are guests'."""
        if not game_ids:
            return {}
        g = games_table
        first, second = _P.alias("first"), _P.alias("second")
        query = (select(g.c.game_id, _held(first), _held(second))
                 .select_from(g.outerjoin(first, first.c.id == g.c.first_player)
                              .outerjoin(second, second.c.id == g.c.second_player))
                 .where(g.c.game_id.in_(game_ids)))
        return {game_id: (bool(one), bool(two)) for game_id, one, two in self._conn.execute(query)}

    def holder(self, key: str, now: datetime) -> PlayerRecord | None:
        """The claimed record of `key`, or a forgotten one that holds it until its
        ``free_at`` (nobody may use the key until then); None: anyone may."""
        held = or_(and_(_P.c.name_key == key, _P.c.claimed_at.is_not(None)),
                   and_(_P.c.forgotten_key == self.key_hash(key), _P.c.free_at > now))
        row = self._conn.execute(select(_P).where(held).order_by(_P.c.id).limit(1)).first()
        return _record(row._mapping) if row is not None else None

    def forgotten_placeholder(self, name: str) -> str | None:
        """What a name in text whose key was forgotten shows instead (None: it wasn't)."""
        key_hash = self.key_hash(name_key(name))
        found = self._conn.execute(select(_P.c.id).where(_P.c.forgotten_key == key_hash)
                                   .order_by(_P.c.id).limit(1)).scalar()
        return placeholder(int(found)) if found is not None else None

    def guest(self, name: str, now: datetime) -> int:
        """The guest record of exactly `name`, made if there is none."""
        found = self._guest_id(name)
        if found is not None:
            return found
        try:
            with self._conn.begin_nested():
                return int(self._conn.execute(
                    insert(_P).values(name=name, name_key=name_key(name), created_at=now)
                    .returning(_P.c.id)).scalar_one())
        except IntegrityError:  # made by another transaction at the same moment
            made = self._guest_id(name)
            assert made is not None
            return made

    def _guest_id(self, name: str) -> int | None:
        found = self._conn.execute(
            select(_P.c.id).where(_P.c.name == name, _P.c.claimed_at.is_(None))).scalar()
        return int(found) if found is not None else None

    def claim(self, name: str, now: datetime) -> int:
        """A new claimed record of `name`; `NameClaimed` if its key is held."""
        key = name_key(name)
        if self.holder(key, now) is not None:
            raise name_claimed(name, "name")
        try:
            with self._conn.begin_nested():
                return int(self._conn.execute(
                    insert(_P).values(name=name, name_key=key, created_at=now, claimed_at=now)
                    .returning(_P.c.id)).scalar_one())
        except IntegrityError as exc:  # claimed by another at the same moment
            raise name_claimed(name, "name") from exc

    def forget(self, key: str, now: datetime, free_at: datetime) -> list[int]:
        """Empty every record of `key` (claimed and guest), keep its keyed hash, hold
        the key until `free_at`, and put each record's placeholder in the read models:
        the games and high score rows that point to it, or that carry the key (the
        games before records, whose events name the player in text). The ids
        forgotten, oldest first; a key with no record gets one, so that its old games
        have a placeholder."""
        ids = [int(i) for i in self._conn.execute(
            select(_P.c.id).where(_P.c.name_key == key).order_by(_P.c.id)).scalars()]
        if not ids:
            ids = [int(self._conn.execute(
                insert(_P).values(name=None, name_key=None, created_at=now)
                .returning(_P.c.id)).scalar_one())]
        self._conn.execute(
            update(_P).where(_P.c.id.in_(ids))
            .values(name=None, name_key=None, forgotten_at=now, forgotten_key=self.key_hash(key),
                    free_at=free_at))
        for player_id in ids:
            self._mask(player_id)
        self._mask_text(key, placeholder(ids[0]))
        return ids

    def _mask(self, player_id: int) -> None:
        """The rows that point to record `player_id` show its placeholder."""
        g, h = games_table, high_scores_table
        self._show(placeholder(player_id), g.c.first_player == player_id,
                   g.c.second_player == player_id, h.c.player_id == player_id)

    def _mask_text(self, key: str, shown: str) -> None:
        """The rows that carry the name key `key` (games before records) show `shown`."""
        g, h = games_table, high_scores_table
        self._show(shown, g.c.first_key == key, g.c.second_key == key, h.c.name_skeleton == key)

    def _show(self, shown: str, first: ColumnElement[bool], second: ColumnElement[bool],
              scores: ColumnElement[bool]) -> None:
        g, h = games_table, high_scores_table
        shown_key = name_key(shown)
        self._conn.execute(update(g).where(first).values(player_name=shown, first_key=shown_key))
        self._conn.execute(update(g).where(second).values(second_name=shown,
                                                          second_key=shown_key))
        self._conn.execute(update(h).where(scores).values(name=shown, name_skeleton=shown_key))


def _held(record: Any) -> ColumnElement[bool]:
    """Whether a (joined) record is a signed-in player's: claimed, and not forgotten."""
    return and_(record.c.claimed_at.is_not(None), record.c.name.is_not(None))


def name_claimed(name: str, field: str) -> NameClaimed:
    return NameClaimed(english("the name {name!r} belongs to a player who signs in with a "
                               "passkey: sign in, or choose another name", name=name),
                       field=field, name=name)
