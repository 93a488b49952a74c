"""The games table: the read model row of each game, and its token hash.

An append first updates the game's row ``WHERE version = <expected>`` (`advance`):
a compare-and-set that takes the row's write lock. On PostgreSQL a concurrent
writer then waits for the lock and re-checks the condition after the first one
commits; on SQLite the write transaction holds the database's write lock from
``BEGIN IMMEDIATE``. A writer that finds another version learns it at once, before
inserting anything, and gets a `VersionConflict` naming the current version.

Retention (`domain.retention` states the rule): `live` is that rule in SQL, an
active game not yet due to be abandoned; `stale` finds the games that are due (the
sweep's candidates), `live_of_creator` counts one address's live games (the cap),
`last_moved_before` finds the abandoned games old enough to prune. An append
clears ``creator`` once the game is no longer active.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from sqlalchemy import (
    ColumnElement,
    and_,
    bindparam,
    case,
    delete,
    exists,
    func,
    insert,
    null,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from ..domain.events import GameOver
from ..domain.ranking import HERE
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import GameExists, GameNotFound, VersionConflict
from .events import StoredEvent
from .schema import games_table, invitations_table
from .summaries import (
    CREATION_FIELDS,
    NAME_FIELDS,
    SEATING_FIELDS,
    SUMMARY_FIELDS,
    GameSummary,
    summary_from_row,
    summary_values,
)

_T = games_table
IN_CHUNK = 500  # ids per IN (...) list
_SELECT = select(_T).where(_T.c.game_id == bindparam("gid"))
# what an append rewrites: the summary but its creation fields and its seating (which
# `reseat` writes when a seat is claimed)
_PROGRESS_FIELDS = tuple(f for f in SUMMARY_FIELDS
                         if f not in CREATION_FIELDS and f not in NAME_FIELDS)
ADVANCE = (  # the compare-and-set of an append (`advance`; `pg_append`)
    update(_T)
    .where(_T.c.game_id == bindparam("gid"), _T.c.version == bindparam("expected"))
    .values({**{name: bindparam(f"new_{name}") for name in _PROGRESS_FIELDS},
             # the creator's address hash is kept only while the game is active
             "creator": case((bindparam("new_status") == "active", _T.c.creator),
                             else_=null())})
)
_INVITES = invitations_table


def live(now: datetime, idle_cutoff: datetime) -> ColumnElement[bool]:
    """Active games not due to be abandoned at `now` (`domain.retention`): a move
    after `idle_cutoff` (now minus the retention time) and no unclaimed invitation
    that has expired."""
    expired = exists().where(_INVITES.c.game_id == _T.c.game_id,
                             _INVITES.c.claimed_at.is_(None), _INVITES.c.expires_at <= now)
    return and_(_T.c.status == "active", _T.c.updated_at > idle_cutoff, ~expired)


@dataclass(frozen=True)
class StoredGame:
    summary: GameSummary
    token_hash: str
    token_salt: str
    seed_secret: str | None = None  # a ranked game's secret seed (never shown)
    signature: str | None = None  # an import's signature as it came (`signatures`)


class GameRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def get(self, game_id: str, *, for_update: bool = False) -> StoredGame:
        query = _SELECT.with_for_update() if for_update else _SELECT
        row = self._conn.execute(query, {"gid": game_id}).first()
        if row is None:
            raise GameNotFound(english("no game {game_id!r}", game_id=game_id), game_id=game_id)
        mapping = row._mapping
        return StoredGame(summary_from_row(mapping), mapping["token_hash"],
                          mapping["token_salt"], mapping["seed_secret"],
                          mapping["signature"])

    def find(self, game_id: str) -> StoredGame | None:
        try:
            return self.get(game_id)
        except GameNotFound:
            return None

    def version(self, game_id: str) -> int | None:
        return self._conn.execute(
            select(_T.c.version).where(_T.c.game_id == game_id)
        ).scalar()

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The versions of those of `game_ids` that exist (one query per 500 ids)."""
        found: dict[str, int] = {}
        for start in range(0, len(game_ids), IN_CHUNK):
            query = select(_T.c.game_id, _T.c.version).where(
                _T.c.game_id.in_(game_ids[start:start + IN_CHUNK]))
            found.update((game_id, version) for game_id, version in self._conn.execute(query))
        return found

    def add(self, summary: GameSummary, *, seating: dict[str, Any],
            token_hash: str, token_salt: str,
            seed_commitment: str, creator: str | None = None,
            seed_secret: str | None = None, signature: str | None = None) -> None:
        """A new row; `seating`: its `summaries.seating_values`, `seed_commitment`
        that of the game's ``game_created`` event (`same_seed`)."""
        try:
            self._conn.execute(insert(_T), [{**_columns(summary), **seating,
                                             "token_hash": token_hash,
                                             "token_salt": token_salt,
                                             "creator": creator,
                                             "seed_secret": seed_secret,
                                             "signature": signature,
                                             "seed_commitment": seed_commitment}])
        except IntegrityError as exc:
            raise GameExists(english("a game {game_id!r} exists already",
                                     game_id=summary.game_id),
                             game_id=summary.game_id) from exc

    def advance(self, game_id: str, expected_version: int, values: dict[str, Any]) -> None:
        """Compare-and-set: rewrite the row to `values` if it is at `expected_version`."""
        params = advance_params(game_id, expected_version, values)
        if self._conn.execute(ADVANCE, params).rowcount != 1:
            self.refuse(game_id, expected_version)

    def refuse(self, game_id: str, expected_version: int) -> NoReturn:
        """Why a compare-and-set at `expected_version` set nothing: `GameNotFound`,
        or a `VersionConflict` naming the current version."""
        current = self.version(game_id)
        if current is None:
            raise GameNotFound(english("no game {game_id!r}", game_id=game_id), game_id=game_id)
        raise VersionConflict(
            english("game {game_id} is at version {version}, not {expected}",
                    game_id=game_id, version=current, expected=expected_version),
            current_version=current,
        )

    def reseat(self, game_id: str, seating: dict[str, Any]) -> None:
        """Write the row's `summaries.seating_values` (a seat was claimed)."""
        self._conn.execute(update(_T).where(_T.c.game_id == game_id).values(seating))

    def overwrite(self, summary: GameSummary, seating: dict[str, Any]) -> None:
        """Rewrite an existing row (rebuilding the read model) with its `seating`."""
        values = {**_columns(summary), **seating}
        del values["game_id"]
        if summary.status != "active":
            values["creator"] = None
        self._conn.execute(update(_T).where(_T.c.game_id == summary.game_id).values(values))

    def delete(self, game_id: str) -> None:
        self._conn.execute(delete(_T).where(_T.c.game_id == game_id))

    def seating(self, game_id: str) -> dict[str, Any] | None:
        """The row's `SEATING_FIELDS`, or None without a row (`verify`)."""
        row = self._conn.execute(select(*(_T.c[f] for f in SEATING_FIELDS))
                                 .where(_T.c.game_id == game_id)).first()
        return None if row is None else dict(row._mapping)

    def ids(self) -> set[str]:
        return set(self._conn.execute(select(_T.c.game_id)).scalars())

    def imported(self) -> list[str]:
        """Ids of the games imported (signed or archive), oldest first."""
        query = (select(_T.c.game_id).where(_T.c.origin != HERE)
                 .order_by(_T.c.created_at, _T.c.game_id))
        return list(self._conn.execute(query).scalars())

    def same_seed(self, seed_commitment: str) -> list[str]:
        """Ids of the games whose first event commits to this seed, by its index: the
        candidates for a stream stored already. Not their seat names: an online game's
        second name comes from a later event (``seat_claimed``)."""
        return list(self._conn.execute(
            select(_T.c.game_id).where(_T.c.seed_commitment == seed_commitment)
            .order_by(_T.c.game_id)
        ).scalars())

    def last_moved_before(self, statuses: Sequence[str], cutoff: datetime) -> list[str]:
        """Ids of games in one of `statuses` whose last event is older than `cutoff`
        (an abandoned game's last event is its abandonment)."""
        return list(self._conn.execute(
            select(_T.c.game_id).where(_T.c.status.in_(statuses), _T.c.updated_at < cutoff)
        ).scalars())

    def stale(self, now: datetime, idle_cutoff: datetime) -> list[str]:
        """Ids of the active games due to be abandoned at `now` (not `live`), oldest
        move first."""
        query = (select(_T.c.game_id)
                 .where(_T.c.status == "active", ~live(now, idle_cutoff))
                 .order_by(_T.c.updated_at, _T.c.game_id))
        return list(self._conn.execute(query).scalars())

    def live_of_creator(self, creator: str, now: datetime, idle_cutoff: datetime) -> int:
        """How many `live` games the address hashed to `creator` created."""
        query = select(func.count()).select_from(_T).where(
            _T.c.creator == creator, live(now, idle_cutoff))
        return int(self._conn.execute(query).scalar_one())


def advance_params(game_id: str, expected_version: int,
                   values: dict[str, Any]) -> dict[str, Any]:
    """`ADVANCE`'s parameters: the row of `game_id` at `expected_version` set to
    `values` (`summaries.summary_values`)."""
    params = {f"new_{name}": values[name] for name in _PROGRESS_FIELDS}
    params.update(gid=game_id, expected=expected_version)
    return params


def finished_at(stored: Sequence[StoredEvent]) -> datetime | None:
    """The time of the game_over event among `stored`, if there is one."""
    return next((s.recorded_at for s in stored if isinstance(s.event, GameOver)), None)


def summary_of(game_id: str, state: GameState, stored: Sequence[StoredEvent],
               seating: dict[str, Any], origin: str = HERE) -> GameSummary:
    """The read model of a whole stored stream; `state` is its fold, `seating` its
    `summaries.seating_values`, `origin` where the game comes from
    (`domain.ranking`: the stream does not say)."""
    return GameSummary(game_id=game_id, created_at=stored[0].recorded_at, origin=origin,
                       **{name: seating[name] for name in NAME_FIELDS},
                       **summary_values(state, stored[-1].recorded_at, finished_at(stored)))


def _columns(summary: GameSummary) -> dict[str, Any]:
    return {name: getattr(summary, name) for name in SUMMARY_FIELDS}

