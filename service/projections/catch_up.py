"""Catching the analyst up from the command line (``squares review``): how many ended
games wait for a review, and reviewing them here unless a server's analyst holds the
lease."""

from __future__ import annotations

from collections.abc import Callable

from ..store import EventStore
from .analyst import ENDINGS, LEASE_S, NAME, Analyst, Step


def reviews_pending(store: EventStore) -> int:
    """The games that ended after the analyst's checkpoint (not yet reviewed)."""
    with store.unit_of_work(write=False) as uow:
        return uow.log.count_after(uow.checkpoints.position(NAME), ENDINGS)


def review_all(store: EventStore, progress: Callable[[Step], None] | None = None,
               rebuild: bool = False, lease_s: float = LEASE_S) -> tuple[int, bool]:
    """Catch the analyst up from here (after forgetting every review if `rebuild`):
    the games reviewed, and whether another analyst (a server's) holds the lease and
    does the work instead."""
    analyst = Analyst(store, lease_s=lease_s)
    if rebuild:
        analyst.rebuild()
    waiting = False

    def note(step: Step) -> None:
        nonlocal waiting
        waiting = step is Step.WAITING
        if progress is not None:
            progress(step)

    try:
        return analyst.catch_up(note), waiting
    finally:
        analyst.release()
