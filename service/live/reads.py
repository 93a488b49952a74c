"""Shared reads: the streams of one game that a wake-up finds at the same position
read its new events once per process, not once each.

A page read at version V answers every stream asking from the same position while
the feed knows no newer version: committed events never change, so a page is only
ever incomplete, never wrong, and an incomplete one is read anew as soon as the feed
knows more. The database read runs on a small thread pool of its own (never on the
event loop, never queued behind the moves); streams asking for a read already under
way wait for that one (single flight). The feed's watcher reads the page of a game's
new events itself before it wakes the streams (`offer`), so that the streams that were
up to date find it at once. Pages are kept in an LRU bounded by their size in bytes.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from ..protocol.event_pages import Page
from .feed import Feed

READ_THREADS = 4
CACHE_BYTES = 16 * 1024 * 1024


Key = tuple[str, int]


class SharedReads:
    def __init__(self, feed: Feed, read: Callable[[str, int], Page], *,
                 threads: int = READ_THREADS, cache_bytes: int = CACHE_BYTES) -> None:
        self.feed = feed
        self._read = read
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix="squares-live-read")
        self._cache_bytes = cache_bytes
        self._pages: OrderedDict[Key, Page] = OrderedDict()
        self._bytes = 0
        self._in_flight: dict[Key, asyncio.Future[Page]] = {}

    async def read(self, game_id: str, after: int) -> Page:
        """The page after `after` (on the event loop)."""
        key = (game_id, after)
        page = self._pages.get(key)
        if page is not None and page.version >= self.feed.version(game_id):
            self._pages.move_to_end(key)
            return page
        flight = self._in_flight.get(key)
        if flight is None:
            loop = asyncio.get_running_loop()
            flight = loop.run_in_executor(self._executor, self._read, game_id, after)
            self._in_flight[key] = flight
            flight.add_done_callback(lambda done: self._landed(key, done))
        # shielded: a stream that goes away must not cancel the read the others wait for
        return await asyncio.shield(flight)

    def offer(self, game_id: str, after: int, page: Page) -> None:
        """A page read elsewhere (the watcher's, ahead of its wake-up; on the loop)."""
        self._store((game_id, after), page)

    def _landed(self, key: Key, flight: asyncio.Future[Page]) -> None:
        if self._in_flight.get(key) is flight:
            del self._in_flight[key]
        if not flight.cancelled() and flight.exception() is None:
            self._store(key, flight.result())

    def _store(self, key: Key, page: Page) -> None:
        old = self._pages.pop(key, None)
        if old is not None:
            self._bytes -= old.size
        self._pages[key] = page
        self._bytes += page.size
        while self._bytes > self._cache_bytes and len(self._pages) > 1:
            _, evicted = self._pages.popitem(last=False)
            self._bytes -= evicted.size

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
