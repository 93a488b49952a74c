"""Server-Sent Events: the text of one game's live stream.

A stream sends one message per stored event (``id`` = seq, ``event`` = type,
``data`` = the event as ``/events`` shows it), woken by the process's `Feed`.
A spectator stream (`Viewers` given) also sends ``event: viewers`` messages with
``{"count": N}`` when the number of spectators (distinct clients, not streams)
changes; they carry no ``id``, so the browser's ``Last-Event-ID`` stays the last
event's seq.

`stream` is an async generator on the server's event loop: an open stream costs a
coroutine, a future and a timer, never a thread.
"""

from __future__ import annotations

import random
import time
from collections.abc import AsyncGenerator
from contextlib import ExitStack

from ..protocol.event_pages import GAME_OVER
from .feed import Feed
from .reads import SharedReads
from .viewers import Viewers

SPECTATOR_PING_S = 5.0
RETRY_MS = 1000  # the browser's reconnect delay after a dropped stream
# After a server stop each stream reconnects after a random delay in this range, so
# that thousands of browsers do not all knock on the other instances at once.
RESTART_RETRY_MS = (500, 3000)


def viewers_event(count: int) -> str:
    return f'event: viewers\ndata: {{"count":{count}}}\n\n'


PING = b": ping\n\n"


def restart_message() -> bytes:
    """The last words of a stream whose server stops: come back soon (elsewhere)."""
    return f": server restarting\nretry: {random.randint(*RESTART_RETRY_MS)}\n\n".encode()


async def stream(feed: Feed, reads: SharedReads, game_id: str, after: int, *,
                 heartbeat_s: float, max_s: float,
                 viewers: Viewers | None = None,
                 viewer: str = "") -> AsyncGenerator[bytes, None]:
    """The SSE text of `game_id`'s events after `after`, as they are committed (bytes,
    as sent).

    Each wake-up reads the events after the last one sent (`SharedReads`: once per
    process and position, not once per stream) and yields them as one chunk. Ends
    after game over, after `max_s` seconds (the client reconnects with
    ``Last-Event-ID``) or when the feed drains (a server stop: a last ``retry:``).
    A ``: ping`` comment after `heartbeat_s` seconds of silence lets the server
    notice a client that has gone. With `viewers`, the stream's client `viewer` (the
    keyed hash of its address, `security.client_key`) counts as a spectator while the
    stream is open, and the stream reports the spectator count.
    """
    deadline = time.monotonic() + max_s
    # A spectator's stream pings more often: a closed one is only noticed at a write,
    # and until then it still counts as a viewer.
    ping_s = heartbeat_s if viewers is None else min(heartbeat_s, SPECTATOR_PING_S)
    with ExitStack() as stack:
        stack.enter_context(feed.watch(game_id))
        if viewers is not None:
            stack.enter_context(viewers.viewing(game_id, viewer))
        yield f"retry: {RETRY_MS}\n\n".encode()
        last_sent = after
        shown: int | None = None
        quiet_since = time.monotonic()
        while True:
            page = await reads.read(game_id, last_sent)
            if page.last_seq is not None:
                yield page.body
                last_sent = page.last_seq
                quiet_since = time.monotonic()
            if page.over and last_sent >= page.version:
                yield GAME_OVER
                return
            if last_sent < page.version:
                continue  # a page limit: read on at once
            feed.changed(game_id, page.version)
            while True:
                if feed.draining:
                    yield restart_message()
                    return
                # nudges first: a count changed after this read wakes the wait below
                nudged = feed.nudges(game_id) if viewers is not None else None
                if viewers is not None and (count := viewers.count(game_id)) != shown:
                    shown = count
                    quiet_since = time.monotonic()
                    yield viewers_event(count).encode()
                wait_s = max(0.05, ping_s - (time.monotonic() - quiet_since))
                if await feed.wait(game_id, last_sent, wait_s, nudged_after=nudged):
                    if feed.version(game_id) > last_sent:
                        break
                    continue  # a nudge (the viewer count may have changed) or a drain
                now = time.monotonic()
                if now >= deadline:
                    return
                if now - quiet_since >= ping_s:
                    quiet_since = now
                    yield PING
            if time.monotonic() >= deadline:
                return
