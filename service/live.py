"""The live feed: one watcher of the database per process, waking the streams
(Server-Sent Events) of the games that changed.

Wake-ups, never deliveries: a stream always re-reads ``seq > last_sent`` from the
database after a wake-up, so a lost or duplicated wake-up costs latency, never an
event. A stream registers its interest (`Feed.watch`) before it reads its backlog,
so an event committed between the two still wakes it.

How the one watcher thread of a process learns that a game changed:

- PostgreSQL: ``LISTEN squares_events`` on a dedicated autocommit connection (outside
  the SQLAlchemy pool). The append transaction sends ``NOTIFY squares_events,
  '<game_id>:<last seq>'`` (`store.events.EventRepository.announce`), which
  PostgreSQL delivers only on commit. Notifications are not replayed to a listener
  that was down, so after (re)connecting, and every `SAFETY_POLL_S` anyway, the
  watcher also polls the versions of the watched games.
- SQLite: no notifications exist, so the watcher runs one indexed query every
  `POLL_S` (100 ms) for the versions of the games watched in this process
  (``SELECT game_id, version FROM games WHERE game_id IN (...)``): one query for all
  streams of the process, never one per stream.

The SSE text itself is written by `service.sse`. Streams hold a server thread each
(gunicorn's ``gthread`` workers, see ``squares serve``); `StreamSlots` caps them per
client address (429) and per process (503).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import select

from .store import EventStore, games_table
from .store.events import NOTIFY_CHANNEL as CHANNEL

log = logging.getLogger(__name__)

POLL_S = 0.1  # SQLite: how often the versions of the watched games are read
SAFETY_POLL_S = 5.0  # PostgreSQL: a poll even without notifications
IN_CHUNK = 500  # game ids per IN (...) query


class Feed:
    """The versions of the games watched in this process, and the thread that keeps
    them fresh. `wait` blocks a stream until its game passes a version."""

    def __init__(self, store: EventStore, *, poll_s: float = POLL_S,
                 safety_poll_s: float = SAFETY_POLL_S) -> None:
        self.store = store
        self.poll_s = poll_s
        self.safety_poll_s = safety_poll_s
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._nudges: Counter[str] = Counter()  # wake-ups that are no new version
        self._watchers: Counter[str] = Counter()
        self._changed: dict[str, threading.Condition] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # -- the streams' side -------------------------------------------------------------
    @contextmanager
    def watch(self, game_id: str) -> Iterator[None]:
        """Register interest in `game_id` for the duration of the block."""
        with self._lock:
            self._watchers[game_id] += 1
            self._changed.setdefault(game_id, threading.Condition(self._lock))
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
                    self._changed.pop(game_id, None)

    def wait(self, game_id: str, past: int, timeout: float, *,
             nudged_after: int | None = None) -> bool:
        """Block until `game_id` is known past version `past` or, given `nudged_after`
        (a `nudges` count), it was nudged since (True), or `timeout` seconds pass
        (False). Call inside `watch(game_id)`."""
        def woken() -> bool:
            return (self._versions.get(game_id, 0) > past
                    or (nudged_after is not None and self._nudges[game_id] != nudged_after))

        with self._lock:
            return self._changed[game_id].wait_for(woken, timeout)

    def nudges(self, game_id: str) -> int:
        with self._lock:
            return self._nudges[game_id]

    def nudge(self, game_id: str) -> None:
        """Wake the streams of `game_id` that wait with `nudged_after` (something
        besides its events changed: its viewer count)."""
        with self._lock:
            condition = self._changed.get(game_id)
            if condition is None:
                return
            self._nudges[game_id] += 1
            condition.notify_all()

    def version(self, game_id: str) -> int:
        """The newest version this process knows of `game_id` (0: none yet)."""
        with self._lock:
            return self._versions.get(game_id, 0)

    def watched(self) -> int:
        with self._lock:
            return sum(self._watchers.values())

    # -- the watcher's side ------------------------------------------------------------
    def changed(self, game_id: str, version: int) -> None:
        """`game_id` is at `version` now (a notification or a poll said so)."""
        with self._lock:
            condition = self._changed.get(game_id)
            if condition is None or version <= self._versions.get(game_id, 0):
                return
            self._versions[game_id] = version
            condition.notify_all()

    def poll(self) -> None:
        """Read the versions of every watched game (one query per `IN_CHUNK` games)."""
        with self._lock:
            ids = list(self._watchers)
        t = games_table
        with self.store.engine.connect() as conn:
            for start in range(0, len(ids), IN_CHUNK):
                query = select(t.c.game_id, t.c.version).where(
                    t.c.game_id.in_(ids[start:start + IN_CHUNK]))
                for game_id, version in conn.execute(query):
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
        import psycopg

        url = self.store.engine.url.set(drivername="postgresql")
        dsn = url.render_as_string(hide_password=False)
        while not self._stop.is_set():
            try:
                with psycopg.connect(dsn, autocommit=True, connect_timeout=10) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._poll_safely()  # whatever was missed while not listening
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=self.safety_poll_s):
                            game_id, _, seq = notify.payload.rpartition(":")
                            if seq.isdigit():
                                self.changed(game_id, int(seq))
                        if self._idle():
                            return
                        self._poll_safely()
            except psycopg.Error:
                log.exception("live feed: the LISTEN connection failed; reconnecting")
                if self._stop.wait(1.0) or self._idle():
                    return


# (seq, its SSE message) of each event read, the version read at, whether the game is over
Page = tuple[list[tuple[int, str]], int, bool]


class SharedReads:
    """The streams of one game that a wake-up finds at the same position read its new
    events once per process, not once each. A page read at version V answers every
    stream asking from the same position while the feed knows no newer version:
    committed events never change, so a page is only ever incomplete, never wrong, and
    an incomplete one is read anew as soon as the feed knows more."""

    MAX_PAGES = 2048

    def __init__(self, feed: Feed, read: Callable[[str, int], Page]) -> None:
        self.feed = feed
        self._read = read
        self._lock = threading.Lock()
        self._game_locks: dict[str, threading.Lock] = {}
        self._pages: dict[tuple[str, int], Page] = {}

    def read(self, game_id: str, after: int) -> Page:
        with self._lock:
            game_lock = self._game_locks.setdefault(game_id, threading.Lock())
        with game_lock:  # the first reader reads; the others find its page
            page = self._pages.get((game_id, after))
            if page is not None and page[1] >= self.feed.version(game_id):
                return page
            page = self._read(game_id, after)
            with self._lock:
                if len(self._pages) >= self.MAX_PAGES:
                    self._pages.clear()
                    self._game_locks = {game_id: game_lock}
                self._pages[(game_id, after)] = page
            return page


class StreamSlots:
    """Caps on open streams: per client address and per process."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()

    def take(self, client: str) -> str | None:
        """None when a slot was taken (release it later), else why not:
        ``"client"`` or ``"total"``."""
        with self._lock:
            if sum(self._open.values()) >= self.total:
                return "total"
            if self._open[client] >= self.per_client:
                return "client"
            self._open[client] += 1
            return None

    def release(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]
