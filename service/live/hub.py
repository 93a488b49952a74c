"""The live hub of the streams server: the feed, the shared reads, the viewer counts
and the stream caps, and the body of a stream (`LiveHub.serve`), a coroutine on the
server's event loop; the streams server's app (`service.live.app`) checks a request
and starts its answer first.

A stream ends when the game is over, after its lifetime, when the client goes (the
server reports ``http.disconnect``), when the client stops reading for
`write_timeout_s` (a write that cannot finish), or when the server stops
(`drain`: every stream gets a last ``retry:`` and ends).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

from ..ops import metrics
from ..ops.settings import LiveSettings
from ..protocol.event_pages import Page
from ..services import security
from ..store import EventStore
from .feed import Feed
from .reads import SharedReads
from .slots import StreamSlots
from .sse import stream
from .viewers import Viewers

log = logging.getLogger(__name__)

Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@dataclass(frozen=True)
class StreamRequest:
    """What the view decided: which game, from where, for whom."""

    game_id: str
    after: int
    spectator: bool
    client: str


class LiveHub:
    def __init__(self, store: EventStore, read_page: Callable[[str, int], Page],
                 settings: LiveSettings, client_salt: str) -> None:
        self.settings = settings
        self.client_salt = client_salt
        self.read_page = read_page
        self.feed = Feed(store, ahead_of_wake=self._read_ahead)
        self.reads = SharedReads(self.feed, read_page)
        self.viewers = Viewers(store, on_change=self.feed.nudge)
        self.slots = StreamSlots(settings.per_client, settings.total,
                                 on_change=metrics.live_streams)
        self._writing: dict[asyncio.Task[Any], float] = {}  # stream -> write started
        self._stalled: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Future[None] | None = None

    def _read_ahead(self, game_id: str, old: int, new: int) -> None:
        """The watcher learnt that `game_id` went from `old` to `new`: read the page
        the up-to-date streams will ask for, and hand it over before they wake."""
        self.feed.call_soon(self.reads.offer, game_id, old, self.read_page(game_id, old))

    @property
    def draining(self) -> bool:
        return self.feed.draining

    def started(self) -> None:
        """The server runs (ASGI lifespan startup): end the streams at once when the
        process is asked to stop (SIGTERM, SIGINT), before the server's own stop runs.

        Why a signal handler: granian (2.8) stops a worker in this order: its stop
        handler stops the accepts and waits for every open connection to finish, and
        only then sends ``lifespan.shutdown``; a stream never finishes by itself, so
        the drain must come with the signal. granian's handler is asyncio's
        ``loop.add_signal_handler`` (the signal's number arrives through the loop's
        wake-up fd, whichever Python handler is installed), so a Python handler of
        ours chained in front of it (`_chain_signal`) leaves it working. granian 2.8
        installs it before lifespan startup; in case a later one installs it after,
        every stream that opens makes sure again that ours runs first
        (`_drain_on_stop`): there is nothing to drain before the first stream."""
        self._drain_on_stop()

    def _drain_on_stop(self) -> None:
        # signal handlers are the main thread's (elsewhere: an app in a test's thread)
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                _chain_signal(signum, self.drain)

    def drain(self) -> None:
        """End every stream with a last ``retry:`` and refuse new ones (any thread)."""
        self.feed.draining = True  # new streams are refused from now on
        self.feed.call_soon(self.feed.drain)  # and the waiting ones are woken

    async def serve(self, request: StreamRequest, receive: Receive, send: Send) -> None:
        """Send the stream's body (its response has started); release its slot."""
        task = asyncio.current_task()
        assert task is not None
        self._drain_on_stop()

        def client_gone(watch: asyncio.Future[None]) -> None:
            if not watch.cancelled():
                task.cancel()

        gone = asyncio.ensure_future(_disconnected(receive))
        gone.add_done_callback(client_gone)
        body = stream(self.feed, self.reads, request.game_id, request.after,
                      heartbeat_s=self.settings.heartbeat_s, max_s=self.settings.max_s,
                      viewers=self.viewers if request.spectator else None,
                      viewer=_viewer(request, self.client_salt))
        try:
            try:
                async with contextlib.aclosing(body):
                    async for chunk in body:
                        await self._write(task, send, chunk)
            except Exception:  # noqa: BLE001 - e.g. a read failed (the database away, slow)
                # the stream ends; the client comes back with Last-Event-ID
                log.exception("live stream of game %s failed; ended", request.game_id)
            await self._write(task, send, b"", more=False)
        except asyncio.CancelledError:
            if task in self._stalled:
                log.info("live stream of game %s: the client stopped reading; closed",
                         request.game_id)
            elif not gone.done() or gone.cancelled():
                raise  # not the client's leaving: the server cancels us
            task.uncancel()
        finally:
            self._stalled.discard(task)
            self._writing.pop(task, None)
            gone.remove_done_callback(client_gone)
            gone.cancel()
            self.slots.release(request.client)

    async def _write(self, task: asyncio.Task[Any], send: Send, body: bytes, *,
                     more: bool = True) -> None:
        """One write; a write that takes longer than the write timeout is cut by the
        sweeper (cheaper than a timer per write: most writes finish at once)."""
        self._writing[task] = time.monotonic()
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.ensure_future(self._sweep())
        await send({"type": "http.response.body", "body": body, "more_body": more})
        del self._writing[task]

    async def _sweep(self) -> None:
        """Cancel the streams stuck in a write for longer than the write timeout."""
        limit = self.settings.write_timeout_s
        while self._writing:
            await asyncio.sleep(min(1.0, limit / 3))
            now = time.monotonic()
            for task, since in list(self._writing.items()):
                if now - since > limit and task not in self._stalled:
                    self._stalled.add(task)
                    task.cancel()

    def close(self) -> None:
        self.feed.stop()
        self.viewers.stop()
        self.reads.close()


def _viewer(request: StreamRequest, client_salt: str) -> str:
    """Who a spectator is for the viewer count: the keyed hash of its address, as the
    cap on active games per address has it (never the address); "" for other streams."""
    if not request.spectator:
        return ""
    return security.client_key(request.client, client_salt)


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _chain_signal(signum: int, first: Callable[[], None]) -> None:
    """Run `first`, then whatever handled `signum` before (the server's own stop); once:
    nothing when our handler is the one installed. A handler not installed from Python
    (`signal.getsignal` gives None) is left alone: replacing it would lose it."""
    previous = signal.getsignal(signum)
    if previous is None or getattr(previous, "runs_first", None) == first:
        return

    def handler(sig: int, frame: FrameType | None) -> None:
        first()
        if callable(previous):
            previous(sig, frame)
        elif previous == signal.SIG_DFL:
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)

    # marks the handler as ours (see above); a function takes attributes, which the
    # type of a function does not declare
    handler.runs_first = first  # type: ignore[attr-defined]
    signal.signal(signum, handler)
