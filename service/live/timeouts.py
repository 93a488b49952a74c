"""Coarse timeouts for thousands of waiting streams on one event loop.

A stream waits most of its life, each wait bounded by its next heartbeat. One loop
timer per wait (``loop.call_later``, ``asyncio.timeout``) costs about as much as all
the rest of a wake-up, so the waits share one periodic task instead: a timeout is an
entry in a bucket of `TICK_S`, and the task settles the buckets whose time has come.
A timeout fires up to `TICK_S` late, which a heartbeat does not mind.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

TICK_S = 0.1


class Timeout:
    __slots__ = ("bucket", "callback")

    def __init__(self, bucket: int, callback: Callable[[], None]) -> None:
        self.bucket = bucket
        self.callback = callback


class Timeouts:
    """Timeouts on the running loop (every method is called on it)."""

    def __init__(self, tick_s: float = TICK_S) -> None:
        self.tick_s = tick_s
        self._buckets: dict[int, set[Timeout]] = {}
        self._task: asyncio.Task[None] | None = None

    def add(self, seconds: float, callback: Callable[[], None]) -> Timeout:
        """Call `callback` in `seconds` (at most `tick_s` later) unless removed."""
        loop = asyncio.get_running_loop()
        timeout = Timeout(math.ceil((loop.time() + seconds) / self.tick_s), callback)
        self._buckets.setdefault(timeout.bucket, set()).add(timeout)
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run())
        return timeout

    def remove(self, timeout: Timeout) -> None:
        bucket = self._buckets.get(timeout.bucket)
        if bucket is not None:
            bucket.discard(timeout)
            if not bucket:
                del self._buckets[timeout.bucket]

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while self._buckets:
            await asyncio.sleep(self.tick_s)
            now = math.floor(loop.time() / self.tick_s)
            for due in sorted(bucket for bucket in self._buckets if bucket <= now):
                for timeout in self._buckets.pop(due):
                    timeout.callback()
