"""Viewer counts: how many spectators follow each game, over every server process.

Each process counts its own spectator streams (`Viewers.viewing`). While any are
open, one thread per process looks every `CHECK_S`: it rewrites the process's rows
of the ``viewers`` table when its counts changed (and every `REFRESH_S` anyway, so
they stay fresh), then reads the totals of the games it serves. A total counts the
rows refreshed in the last `FRESH_S`, so the streams of a process that died stop
counting within that time. A stream's own count is added at once: the total seen
here is the database's, with this process's rows replaced by its current count.
`on_change(game_id)` is called whenever a game's count may have changed (the live
feed wakes that game's spectator streams with it).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from ..store import EventStore, utcnow

log = logging.getLogger(__name__)

CHECK_S = 1.0
REFRESH_S = 10.0
FRESH_S = 30.0
FORGET_S = 3600.0  # rows this old are deleted by anyone's next report


class Viewers:
    def __init__(self, store: EventStore, *, check_s: float = CHECK_S,
                 refresh_s: float = REFRESH_S, fresh_s: float = FRESH_S,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.on_change = on_change
        self.check_s = check_s
        self.refresh_s = refresh_s
        self.fresh_s = fresh_s
        self._lock = threading.Lock()
        self._local: Counter[str] = Counter()
        self._reported: dict[str, int] = {}
        self._totals: dict[str, int] = {}
        self._reported_at = float("-inf")
        self._thread: threading.Thread | None = None
        self._instance: str | None = None
        self._stop = threading.Event()

    @property
    def instance(self) -> str:
        """This process's name in the table (made after a fork: the pid is in it)."""
        if self._instance is None or f":{os.getpid()}:" not in self._instance:
            self._instance = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        return self._instance

    @contextmanager
    def viewing(self, game_id: str) -> Iterator[None]:
        """Count one spectator of `game_id` for the duration of the block."""
        with self._lock:
            self._local[game_id] += 1
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="squares-viewers",
                                                daemon=True)
                self._thread.start()
        self._changed([game_id])
        try:
            yield
        finally:
            with self._lock:
                self._local[game_id] -= 1
                if self._local[game_id] <= 0:
                    del self._local[game_id]
            self._changed([game_id])

    def count(self, game_id: str) -> int:
        """Spectators of `game_id` over all processes, as last read, with this
        process's own count up to date."""
        with self._lock:
            others = self._totals.get(game_id, 0) - self._reported.get(game_id, 0)
            return max(others, 0) + self._local.get(game_id, 0)

    def sync(self) -> None:
        """Report this process's counts if they changed or are due, and read the
        totals of the games viewed here."""
        with self._lock:
            local = dict(self._local)
            due = (local != self._reported
                   or time.monotonic() - self._reported_at >= self.refresh_s)
        before = {game_id: self.count(game_id) for game_id in local}
        now = utcnow()
        with self.store.unit_of_work(write=due) as uow:
            if due:
                uow.viewers.report(self.instance, local, now,
                                   now - timedelta(seconds=FORGET_S))
            totals = uow.viewers.totals(local, now - timedelta(seconds=self.fresh_s))
        with self._lock:
            if due:
                self._reported = local
                self._reported_at = time.monotonic()
            self._totals = totals
        self._changed([g for g, count in before.items() if self.count(g) != count])

    def _changed(self, game_ids: list[str]) -> None:
        if self.on_change is not None:
            for game_id in game_ids:
                self.on_change(game_id)

    def stop(self) -> None:
        """End the thread (at its next look) without reporting again."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.check_s):
            try:
                self.sync()
            except Exception:  # noqa: BLE001 - counting must not end with a hiccup
                log.exception("viewers: reporting the viewer counts failed")
            with self._lock:
                if not self._local and not self._reported:
                    self._thread = None
                    return
