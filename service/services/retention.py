"""Retention: abandoning the games nobody will finish, and pruning them later.

A game past its time (`domain.retention`: untouched for ``SQUARES_ABANDON_AFTER``, or
an online game whose invitation expired unclaimed) is abandoned by whichever comes
first: the next read or command of the game (`ServiceBase._settle_abandonment`) or
`abandon_stale`, which the server runs every few minutes (`service.ops.sweeper`) and
``squares games abandon-stale`` runs once. Each abandonment is one version-checked
append, so any number of processes may sweep at once: one of them writes it.
``squares games prune --abandoned-older-than`` deletes abandoned games later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..errors import GameNotFound
from .base import ServiceBase


@dataclass(frozen=True)
class Sweep:
    """What one `abandon_stale` did: the games it abandoned, with their reasons,
    and how many candidates another writer changed first (moved or abandoned)."""

    abandoned: tuple[tuple[str, str], ...]
    skipped: int


class RetentionService(ServiceBase):
    def abandon_stale(self, now: datetime | None = None) -> Sweep:
        """Abandon every game due at `now` (default: the clock). The store finds the
        candidates; the rule decides each on the game's current state."""
        now = now or self.clock()
        abandon_after = self.abandon_after
        with self.store.unit_of_work(write=False) as uow:
            candidates = uow.games.stale(now, now - abandon_after)
        abandoned: list[tuple[str, str]] = []
        skipped = 0
        for game_id in candidates:
            try:
                game, state = self._load(game_id)
            except GameNotFound:  # deleted meanwhile
                skipped += 1
                continue
            reason = self._due(game, state, now)
            if reason is None or self._abandon(game_id, state, reason) is None:
                skipped += 1
                continue
            abandoned.append((game_id, reason))
        return Sweep(tuple(abandoned), skipped)

    def prune_abandoned(self, older_than: timedelta, now: datetime | None = None) -> int:
        """Delete abandoned games abandoned more than `older_than` before `now`."""
        try:
            cutoff = (now or self.clock()) - older_than
        except OverflowError:  # older than the calendar: no game is
            return 0
        with self.store.unit_of_work() as uow:
            ids = uow.games.last_moved_before(("abandoned",), cutoff)
            for game_id in ids:
                uow.delete_game(game_id)
        return len(ids)
