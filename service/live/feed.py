"""The feed: one watcher of the database per process, waking the live streams of the
games that changed.

Wake-ups, never deliveries: a stream always re-reads ``seq > last_sent`` from the
database after a wake-up, so a lost or duplicated wake-up costs latency, never an
event. A stream registers its interest (`Feed.watch`) before it reads its backlog,
so an event committed between the two still wakes it.

How the one watcher thread of a process learns that a game changed:

- PostgreSQL: ``LISTEN squares_events`` on a dedicated autocommit connection (outside
  the SQLAlchemy pool; `EventStore.listen`). The append transaction sends ``NOTIFY
  squares_events, '<game_id>:<last seq>'`` (`store.notifications`, the payload's
  one home), which PostgreSQL delivers only on commit. Notifications are not replayed to a listener
  that was down, so after (re)connecting, and every `SAFETY_POLL_S` anyway, the
  watcher also polls the versions of the watched games.
- SQLite: no notifications exist, so the watcher runs one indexed query every
  `POLL_S` (100 ms) for the versions of the games watched in this process: one
  query for all streams of the process, never one per stream.

The streams themselves are coroutines on the server's event loop (`service.live.sse`):
they wait in `Feed.wait`, which costs a future and an entry in a shared timeout
bucket (`service.live.timeouts`), not a thread. The watcher
thread (and `nudge`, called from the viewer-count thread) wake them through
``loop.call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from ..store import EventStore
from ..store.notifications import ListenerLost
from .timeouts import Timeouts

log = logging.getLogger(__name__)

POLL_S = 0.1  # SQLite: how often the versions of the watched games are read
SAFETY_POLL_S = 5.0  # PostgreSQL: a poll even without notifications
READ_TIMEOUT_S = 5.0  # PostgreSQL: the longest a poll's statement may run


class Feed:
    """The versions of the games watched in this process, the thread that keeps them
    fresh, and the streams waiting for them (futures on one event loop)."""

    def __init__(self, store: EventStore, *, poll_s: float = POLL_S,
                 safety_poll_s: float = SAFETY_POLL_S,
                 ahead_of_wake: Callable[[str, int, int], None] | None = None) -> None:
        self.store = store
        # called off the loop with (game_id, old version, new version) before the
        # streams are woken: what they will want to read can be read here
        self.ahead_of_wake = ahead_of_wake
        self.poll_s = poll_s
        self.safety_poll_s = safety_poll_s
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._nudges: Counter[str] = Counter()  # wake-ups that are no new version
        self._watchers: Counter[str] = Counter()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        # the event loop's side: only touched on the loop
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: dict[str, set[asyncio.Future[bool]]] = {}
        self._timeouts = Timeouts()
        self.draining = False

    # -- the streams' side (on the event loop) -----------------------------------------
    @contextmanager
    def watch(self, game_id: str) -> Iterator[None]:
        """Register interest in `game_id` for the duration of the block."""
        self._loop = asyncio.get_running_loop()
        with self._lock:
            self._watchers[game_id] += 1
            self._start()
        try:
            yield
        finally:
            with self._lock:
                self._watchers[game_id] -= 1
                if self._watchers[game_id] <= 0:
                    del self._watchers[game_id]
                    self._versions.pop(game_id, None)
                    self._nudges.pop(game_id, None)

    async def wait(self, game_id: str, past: int, timeout: float, *,
                   nudged_after: int | None = None) -> bool:
        """Wait until `game_id` is known past version `past` or, given `nudged_after`
        (a `nudges` count), it was nudged since, or the feed drains (True), or until
        `timeout` seconds pass (False). Call inside `watch(game_id)`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (self.draining or self._woken(game_id, past, nudged_after)):
            remaining = deadline - loop.time()
            if remaining <= 0 or not await self._woken_up(loop, game_id, remaining):
                return False
        return True

    async def _woken_up(self, loop: asyncio.AbstractEventLoop, game_id: str,
                        timeout: float) -> bool:
        """Until the next wake-up of `game_id`'s streams (True) or `timeout` (False)."""
        waiter: asyncio.Future[bool] = loop.create_future()
        waiters = self._waiters.setdefault(game_id, set())
        waiters.add(waiter)
        timer = self._timeouts.add(timeout, partial(_settle, waiter, False))
        try:
            return await waiter
        finally:
            self._timeouts.remove(timer)
            waiters.discard(waiter)
            if not waiters and self._waiters.get(game_id) is waiters:
                del self._waiters[game_id]

    def nudges(self, game_id: str) -> int:
        with self._lock:
            return self._nudges[game_id]

    def version(self, game_id: str) -> int:
        """The newest version this process knows of `game_id` (0: none yet)."""
        with self._lock:
            return self._versions.get(game_id, 0)

    def watched(self) -> int:
        with self._lock:
            return sum(self._watchers.values())

    def drain(self) -> None:
        """The server is stopping: wake every waiting stream so that it ends (on the
        loop; see `LiveHub.drain` for other threads)."""
        self.draining = True
        for game_id in list(self._waiters):
            self._wake(game_id)

    # -- any thread --------------------------------------------------------------------
    def changed(self, game_id: str, version: int) -> None:
        """`game_id` is at `version` now (a notification, a poll or a read said so)."""
        with self._lock:
            old = self._versions.get(game_id, 0)
            if game_id not in self._watchers or version <= old:
                return
            self._versions[game_id] = version
        if old and self.ahead_of_wake is not None and not self._on_loop():
            try:
                self.ahead_of_wake(game_id, old, version)
            except Exception:  # noqa: BLE001 - the streams read for themselves then
                log.exception("live feed: reading ahead of a wake-up failed")
        self._wake_soon(game_id)

    def nudge(self, game_id: str) -> None:
        """Wake the streams of `game_id` that wait with `nudged_after` (something
        besides its events changed: its viewer count)."""
        with self._lock:
            if game_id not in self._watchers:
                return
            self._nudges[game_id] += 1
        self._wake_soon(game_id)

    def _woken(self, game_id: str, past: int, nudged_after: int | None) -> bool:
        with self._lock:
            return (self._versions.get(game_id, 0) > past
                    or (nudged_after is not None and self._nudges[game_id] != nudged_after))

    def _on_loop(self) -> bool:
        try:
            return asyncio.get_running_loop() is self._loop
        except RuntimeError:
            return False

    def _wake_soon(self, game_id: str) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if self._on_loop():
            self._wake(game_id)
        else:
            loop.call_soon_threadsafe(self._wake, game_id)

    def call_soon(self, callback: Callable[..., None], *args: object) -> None:
        """Run `callback(*args)` on the streams' loop, before wake-ups asked later."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(callback, *args)

    def _wake(self, game_id: str) -> None:  # on the loop
        for waiter in self._waiters.pop(game_id, ()):
            _settle(waiter, True)

    # -- the watcher thread ------------------------------------------------------------
    def poll(self) -> None:
        """Read the versions of every watched game (one query for all of them)."""
        with self._lock:
            ids = list(self._watchers)
        if not ids:
            return
        with self.store.unit_of_work(write=False, timeout_s=READ_TIMEOUT_S) as uow:
            versions = uow.games.versions(ids)
        for game_id, version in versions.items():
            self.changed(game_id, version)

    def stop(self) -> None:
        self._stop.set()

    def _start(self) -> None:  # under self._lock
        if self._thread is not None and self._thread.is_alive():
            return
        target = self._listen if self.store.dialect == "postgresql" else self._poll_forever
        self._thread = threading.Thread(target=target, name="squares-feed", daemon=True)
        self._thread.start()

    def _idle(self) -> bool:
        """True (and the thread is forgotten, to be started anew) when nobody watches."""
        with self._lock:
            if self._watchers:
                return False
            self._thread = None
            return True

    def _poll_forever(self) -> None:
        while not self._stop.wait(self.poll_s) and not self._idle():
            self._poll_safely()

    def _poll_safely(self) -> None:
        try:
            self.poll()
        except Exception:  # noqa: BLE001 - the watcher must outlive a database hiccup
            log.exception("live feed: polling the watched games failed")

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with self.store.listen() as listener:
                    self._poll_safely()  # whatever was missed while not listening
                    while not self._stop.is_set():
                        for game_id, seq in listener.changes(self.safety_poll_s):
                            self.changed(game_id, seq)
                        if self._idle():
                            return
                        self._poll_safely()
            except ListenerLost:
                log.exception("live feed: the LISTEN connection failed; reconnecting")
                if self._stop.wait(1.0) or self._idle():
                    return


def _settle(waiter: asyncio.Future[bool], result: bool) -> None:
    if not waiter.done():
        waiter.set_result(result)
