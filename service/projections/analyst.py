"""The analyst: a catch-up subscription that reviews every game that ends.

It follows the events in global order (`store.positions`) from its checkpoint
(`store.checkpoints`, name ``analyst``). Each step:

1. takes or renews the lease (another analyst holding it: wait); a step that
   records renews it too, so this writes only when half a lease has passed idle;
2. reads the last position given, then the first event after the checkpoint and
   up to that position that ends a game (game_over, also a resignation's;
   game_abandoned, game_aborted). Every event up to the last position given is
   committed (`store.positions`), so a step that finds none moves the checkpoint
   there and skips nothing;
3. loads that game's events and reviews them (`domain.review`, within its work
   budget: about a second at most), outside any transaction (SQLite has one writer),
   renewing the lease meanwhile every third of a lease (`heartbeat`);
4. in one transaction moves the checkpoint from where it read it to that event's
   position, compare-and-set, and stores the review.

A crash (even ``kill -9``) between 3 and 4 loses only that step's work, which the
next step redoes: each game is reviewed once, none is skipped. A second analyst
on the same database waits for the lease, also while a long review goes on; should
the lease run out all the same (a process stopped, or too busy to beat), the
compare-and-set refuses the late writer's step whole.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from enum import Enum

from ..domain.events import Event, GameAbandoned, GameAborted, GameOver
from ..domain.review import ALGORITHM, Review, review_game
from ..store import EventStore, StoredReview, utcnow
from .heartbeat import Heartbeat

log = logging.getLogger(__name__)

NAME = "analyst"
ENDINGS = (GameOver.TYPE, GameAbandoned.TYPE, GameAborted.TYPE)
LEASE_S = 30.0
POLL_S = 1.0
FAILING_PAUSE_S = 30.0


class Step(Enum):
    REVIEWED = "reviewed"  # a game's review is stored
    SKIPPED = "skipped"  # a game ended, and was deleted before its review was stored
    FAILED = "failed"  # a game's review failed: what failed is stored in its place
    MOVED = "moved"  # no game ended in what was read; the checkpoint moved on
    IDLE = "idle"  # nothing new
    WAITING = "waiting"  # another analyst holds the lease
    LOST = "lost"  # the checkpoint moved under this step (lease lost): nothing stored


def holder_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Analyst:
    def __init__(self, store: EventStore, *, holder: str | None = None,
                 lease_s: float = LEASE_S,
                 review: Callable[[Sequence[Event]], Review] = review_game,
                 heartbeat: bool = True) -> None:
        self.store = store
        self.holder = holder or holder_name()
        self.lease = timedelta(seconds=lease_s)
        self.review = review
        self.heartbeat = heartbeat  # False: as a stopped process, renew nothing while working
        self._held_until: datetime | None = None  # when the lease we hold runs out

    def step(self) -> Step:
        now = utcnow()
        if not self._lease_fresh(now) and not self._take_lease(now):
            return Step.WAITING
        with self.store.unit_of_work(write=False) as uow:
            held = uow.checkpoints.get(NAME)
            last = uow.log.last()  # before the events: every position up to it is committed
            ending = uow.log.after(held.position, 1, ENDINGS, upto=last)
            events = [s.event for s in uow.events.load(ending[0].game_id)] if ending else []
        checkpoint = held.position
        if held.holder != self.holder:  # taken over after our lease ran out, or reset
            self._held_until = None
            return Step.LOST
        if not ending:
            if last <= checkpoint:
                return Step.IDLE
            return self._record(checkpoint, last, None)
        notice = ending[0]
        if not events:  # deleted since its ending was read
            return self._record(checkpoint, notice.position, None, Step.SKIPPED)
        try:
            review = self._review(events)
        except Exception as exc:  # a pure function: trying again would fail again
            log.exception("game %s could not be reviewed", notice.game_id)
            body = {"error": f"this game could not be reviewed: {exc}"}
            failed = StoredReview(notice.game_id, ALGORITHM, notice.position, (None, None),
                                  False, utcnow(), body)
            return self._record(checkpoint, notice.position, failed, Step.FAILED)
        stored = StoredReview(
            game_id=notice.game_id, algorithm=ALGORITHM, position=notice.position,
            accuracy=(review.seats[0].accuracy, review.seats[1].accuracy),
            exact=review.exact, reviewed_at=utcnow(), body=review.to_dict())
        return self._record(checkpoint, notice.position, stored)

    def _review(self, events: Sequence[Event]) -> Review:
        if not self.heartbeat:
            return self.review(events)
        with Heartbeat(self._renew, self.lease.total_seconds() / 3, "squares-analyst-lease"):
            return self.review(events)

    def _renew(self) -> bool:
        now = utcnow()
        with self.store.unit_of_work() as uow:
            kept = uow.checkpoints.renew(NAME, self.holder, now + self.lease)
        self._held_until = now + self.lease if kept else None
        return kept

    def _lease_fresh(self, now: datetime) -> bool:
        """Whether this analyst took or renewed its lease less than half a lease ago
        (each recorded step renews it, so a busy analyst seldom writes for it alone)."""
        return self._held_until is not None and now < self._held_until - self.lease / 2

    def _take_lease(self, now: datetime) -> bool:
        with self.store.unit_of_work() as uow:
            taken = uow.checkpoints.take_lease(NAME, self.holder, now, now + self.lease)
        self._held_until = None if taken is None else now + self.lease
        return taken is not None

    def _record(self, old: int, new: int, review: StoredReview | None,
                done: Step | None = None) -> Step:
        now = utcnow()
        with self.store.unit_of_work() as uow:
            if not uow.checkpoints.advance(NAME, self.holder, old, new, now + self.lease):
                self._held_until = None
                return Step.LOST
            self._held_until = now + self.lease
            if review is not None:
                if uow.games.find(review.game_id) is None:  # deleted meanwhile
                    return done or Step.SKIPPED
                uow.reviews.add(review)
        return done or (Step.REVIEWED if review is not None else Step.MOVED)

    def catch_up(self, progress: Callable[[Step], None] | None = None) -> int:
        """Step until nothing is new (or another analyst holds the lease); the games
        reviewed."""
        reviewed = 0
        while True:
            step = self.step()
            if progress is not None:
                progress(step)
            if step in (Step.REVIEWED, Step.FAILED):
                reviewed += 1
            if step in (Step.IDLE, Step.WAITING):
                return reviewed

    def run(self, stop: threading.Event, poll_s: float = POLL_S) -> None:
        """Follow until `stop` is set: step at once while there is work, else every
        `poll_s`. A failing step (the database away) is logged and tried again after
        a pause that doubles up to `FAILING_PAUSE_S`."""
        pause = poll_s
        try:
            while not stop.is_set():
                try:
                    step = self.step()
                except Exception:  # noqa: BLE001 - the follower outlives a bad moment
                    log.exception("analyst step failed; trying again in %s s", pause)
                    stop.wait(pause)
                    pause = min(2 * pause, FAILING_PAUSE_S)
                    continue
                pause = poll_s
                if step in (Step.IDLE, Step.WAITING, Step.LOST):
                    stop.wait(poll_s)
        finally:
            self.release()

    def release(self) -> None:
        self._held_until = None
        try:
            with self.store.unit_of_work() as uow:
                uow.checkpoints.release(NAME, self.holder)
        except Exception:  # noqa: BLE001 - stopping: the lease runs out by itself
            log.warning("analyst lease not released", exc_info=True)

    def rebuild(self) -> int:
        """Forget every review and start again from the first event (the reviews
        are recomputed by the following steps); the reviews removed."""
        with self.store.unit_of_work() as uow:
            removed = uow.reviews.delete_all()
            uow.checkpoints.reset(NAME)
        return removed
