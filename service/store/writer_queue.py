"""A queue in front of SQLite's write lock, for the writers of one database file.

Writers queue on an ``flock`` of ``<database>-writers`` before ``BEGIN IMMEDIATE``
and keep it until their commit (or rollback) is done. SQLite's own busy handler
makes a writer that finds the write lock taken sleep 1, 2, 5, ... ms before it looks
again, so under load the lock sits idle while writers sleep; the kernel wakes a
writer queued on the ``flock`` as soon as the previous one is done. It is only a
queue: whoever does not take it (another program) still meets SQLite's lock and the
busy timeout, so nothing depends on it for correctness. One descriptor per process
and thread (``flock`` excludes separate open files, also inside one process);
re-entrant per thread.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class WriterQueue:
    """The queue of one database file (see the module docstring)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()

    def _lock_file(self) -> LockFile | None:
        local = self._local
        pid = os.getpid()
        held: LockFile | None = getattr(local, "file", None)
        if held is None or held.pid != pid:  # first use in this thread, or a fork
            try:
                held = LockFile(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), pid)
            except OSError:  # e.g. a read-only directory: no queue, SQLite still locks
                return None
            local.file = held
        return held

    @contextmanager
    def held(self) -> Iterator[None]:
        lock = self._lock_file()
        if lock is None:
            yield
            return
        if lock.depth == 0:
            fcntl.flock(lock.fd, fcntl.LOCK_EX)
        lock.depth += 1
        try:
            yield
        finally:
            lock.depth -= 1
            if lock.depth == 0:
                fcntl.flock(lock.fd, fcntl.LOCK_UN)


class LockFile:
    """One thread's descriptor of the queue file (closed with the thread or the store)."""

    __slots__ = ("fd", "pid", "depth")

    def __init__(self, fd: int, pid: int) -> None:
        self.fd, self.pid, self.depth = fd, pid, 0

    def __del__(self) -> None:
        if self.pid == os.getpid():
            os.close(self.fd)


def writer_queue(engine: Engine) -> WriterQueue | None:
    """The queue for a SQLite file engine; None for other databases."""
    if engine.dialect.name != "sqlite" or fcntl is None:
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return WriterQueue(os.path.abspath(database) + "-writers")
