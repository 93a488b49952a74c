"""Followers' checkpoints and leases (``projection_checkpoints``).

A follower (`projections`) keeps in its row the position it has read up to. It
moves it only by compare-and-set (`advance`: from the position it read, while it
holds the lease), in the same transaction as the rows it writes, so a crash
redoes at most its last step and two followers of one name never both record a
step. The lease (`take_lease`) makes one of them do the work at a time: the other
waits instead of computing what it could not record.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.engine import Connection

from .schema import projection_checkpoints_table

_T = projection_checkpoints_table


@dataclass(frozen=True)
class Checkpoint:
    position: int
    holder: str | None


class CheckpointRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def position(self, name: str) -> int:
        return self.get(name).position

    def get(self, name: str) -> Checkpoint:
        row = self._conn.execute(select(_T.c.position, _T.c.holder)
                                 .where(_T.c.name == name)).one()
        return Checkpoint(int(row.position), row.holder)

    def take_lease(self, name: str, holder: str, now: datetime, until: datetime) -> int | None:
        """Hold (or keep holding) the lease of `name` until `until`; its position,
        or None while someone else holds an unexpired lease."""
        taken = self._conn.execute(
            update(_T)
            .where(_T.c.name == name,
                   or_(_T.c.holder.is_(None), _T.c.holder == holder, _T.c.lease_until < now))
            .values(holder=holder, lease_until=until)
            .returning(_T.c.position)
        ).scalar_one_or_none()
        return None if taken is None else int(taken)

    def renew(self, name: str, holder: str, until: datetime) -> bool:
        """Keep the lease `holder` holds until `until`; False if it holds none."""
        kept = self._conn.execute(update(_T).where(_T.c.name == name, _T.c.holder == holder)
                                  .values(lease_until=until))
        return kept.rowcount == 1

    def advance(self, name: str, holder: str, old: int, new: int, until: datetime) -> bool:
        """Move the checkpoint from `old` to `new` if it is still at `old` and
        `holder` still holds the lease, and renew the lease until `until`; whether it
        moved."""
        moved = self._conn.execute(
            update(_T).where(_T.c.name == name, _T.c.holder == holder, _T.c.position == old)
            .values(position=new, lease_until=until))
        return moved.rowcount == 1

    def release(self, name: str, holder: str) -> None:
        self._conn.execute(update(_T).where(_T.c.name == name, _T.c.holder == holder)
                           .values(holder=None, lease_until=None))

    def reset(self, name: str) -> None:
        """Back to the start (a rebuild): whoever holds the lease loses its next step."""
        self._conn.execute(update(_T).where(_T.c.name == name)
                           .values(position=0, holder=None, lease_until=None))
