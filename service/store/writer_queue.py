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

A writer waits at most `wait_s` (the engine's `Patience`: 5 s for a request), then
`WriteLockTimeout` (an outage: 503 ``unavailable``). The threads of one process queue
on a lock of their own (woken as soon as it is free); the one at its head waits for
the ``flock`` in short polls, since ``flock`` itself cannot time out.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine

from .private_files import open_private

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    HAS_FLOCK = False
else:
    HAS_FLOCK = True


# The head's polls of the flock, by how long it has waited. A writer's turn takes
# about a millisecond, so most waits end within a few: polls every 0.5-2 ms left the
# lock idle (about 5 % fewer moves/s, docs/figures.md). A long hold (an outage) is
# polled more slowly, for little CPU.
POLLS = ((0.005, 0.0001), (0.05, 0.0005), (float("inf"), 0.002))  # (waited up to, poll)


class WriteLockTimeout(TimeoutError):
    """The write lock was not had within the caller's patience."""


class WriterQueue:
    """The queue of one database file (see the module docstring)."""

    def __init__(self, path: str, wait_s: float) -> None:
        self.path = path
        self.wait_s = wait_s
        self._local = threading.local()
        self._process = threading.Lock()  # the threads of this process, in turn
        self._pid = os.getpid()

    def _lock_file(self) -> LockFile | None:
        local = self._local
        pid = os.getpid()
        held: LockFile | None = getattr(local, "file", None)
        if held is None or held.pid != pid:  # first use in this thread, or a fork
            try:
                # 0600: whoever could open it could hold the lock and stall every write
                held = LockFile(open_private(self.path, os.O_RDWR), pid)
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
            self._take(lock.fd)
        lock.depth += 1
        try:
            yield
        finally:
            lock.depth -= 1
            if lock.depth == 0:
                fcntl.flock(lock.fd, fcntl.LOCK_UN)
                self._process.release()

    def _take(self, fd: int) -> None:
        deadline = time.monotonic() + self.wait_s
        if self._pid != os.getpid():  # forked: the parent's threads are not here
            self._process, self._pid = threading.Lock(), os.getpid()
        if not self._process.acquire(timeout=self.wait_s):
            raise WriteLockTimeout(f"no write lock on the database within {self.wait_s:g} s")
        started = time.monotonic()
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self._process.release()
                    raise WriteLockTimeout(
                        f"no write lock on the database within {self.wait_s:g} s") from None
                waited = time.monotonic() - started
                time.sleep(next(poll for up_to, poll in POLLS if waited < up_to))


class LockFile:
    """One thread's descriptor of the queue file (closed with the thread or the store)."""

    __slots__ = ("fd", "pid", "depth")

    def __init__(self, fd: int, pid: int) -> None:
        self.fd, self.pid, self.depth = fd, pid, 0

    def __del__(self) -> None:
        if self.pid == os.getpid():
            os.close(self.fd)


def writer_queue(engine: Engine, wait_s: float) -> WriterQueue | None:
    """The queue for a SQLite file engine; None for other databases."""
    if engine.dialect.name != "sqlite" or not HAS_FLOCK:
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return WriterQueue(os.path.abspath(database) + "-writers", wait_s)
