"""Caps on open streams: per client address and per process.

A stream is refused at once over a cap (429 per client, 503 per process, both with
``Retry-After``); nothing waits in a queue. The per-process cap follows what the
process can really hold: an open stream is a socket, so the cap never exceeds the
file descriptors the process may open, less a reserve for the database, the
requests and the log files.
"""

from __future__ import annotations

import resource
import threading
from collections import Counter
from collections.abc import Callable

FD_RESERVE = 256


def descriptor_capacity() -> int:
    """How many streams this process's file-descriptor limit leaves room for (the
    soft limit is raised to the hard one first, as servers commonly do)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    return max(0, soft - FD_RESERVE)


class StreamSlots:
    def __init__(self, per_client: int, total: int,
                 on_change: Callable[[int], None] | None = None) -> None:
        self.per_client = per_client
        self.total = min(total, descriptor_capacity())
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._count = 0
        self._on_change = on_change  # told the open count after each change (metrics)

    def take(self, client: str) -> str | None:
        """None when a slot was taken (release it later), else why not:
        ``"client"`` or ``"total"``."""
        with self._lock:
            if self._count >= self.total:
                return "total"
            if self._open[client] >= self.per_client:
                return "client"
            self._open[client] += 1
            self._count += 1
            self._changed()
            return None

    def release(self, client: str) -> None:
        with self._lock:
            if self._open[client] <= 0:
                return
            self._open[client] -= 1
            self._count -= 1
            if self._open[client] <= 0:
                del self._open[client]
            self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self._count)

    @property
    def open(self) -> int:
        with self._lock:
            return self._count
