"""Server-Sent Events: the text of one game's live stream (`stream`) and a response
body that frees its stream slot when the server closes it (`Released`).

A stream sends one message per stored event (``id`` = seq, ``event`` = type,
``data`` = the event as ``/events`` shows it), woken by the process's `Feed`.
A spectator stream (`Viewers` given) also sends ``event: viewers`` messages with
``{"count": N}`` when the number of spectators changes; they carry no ``id``, so
the browser's ``Last-Event-ID`` stays the last event's seq.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

from .live import Feed, Page
from .viewers import Viewers

SPECTATOR_PING_S = 5.0


def sse_event(seq: int, type_: str, data: dict[str, Any]) -> str:
    """One SSE message: ``id`` the sequence number, ``event`` the type, ``data`` JSON."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {seq}\nevent: {type_}\ndata: {payload}\n\n"


def viewers_event(count: int) -> str:
    return f'event: viewers\ndata: {{"count":{count}}}\n\n'


class Released:
    """A response body that calls `release` once when the server closes it, whether
    or not it was ever iterated (a generator's ``finally`` runs only once started)."""

    def __init__(self, body: Iterator[str], release: Callable[[], None]) -> None:
        self.body = body
        self._release: Callable[[], None] | None = release

    def __iter__(self) -> Iterator[str]:
        return self.body

    def close(self) -> None:
        try:
            close = getattr(self.body, "close", None)
            if close is not None:
                close()
        finally:
            release, self._release = self._release, None
            if release is not None:
                release()


def stream(feed: Feed, game_id: str, after: int,
           read: Callable[[str, int], Page], *,
           heartbeat_s: float, max_s: float, viewers: Viewers | None = None) -> Iterator[str]:
    """The SSE text of `game_id`'s events after `after`, as they are committed.

    `read(game_id, after)` gives the SSE messages of the events after `after` (made
    once per process and read, `SharedReads`, not once per stream), the version they
    were read at and whether the game is over. Ends after game over or `max_s` seconds
    (the client reconnects with ``Last-Event-ID``); a ``: ping`` comment after
    `heartbeat_s` seconds of silence lets the server notice a client that has gone.
    With `viewers`, the stream counts as a spectator while it is open and reports
    the spectator count.
    """
    deadline = time.monotonic() + max_s
    with ExitStack() as stack:
        stack.enter_context(feed.watch(game_id))
        shown = None
        if viewers is not None:
            stack.enter_context(viewers.viewing(game_id))
        yield "retry: 1000\n\n"
        last_sent = after
        quiet_since = time.monotonic()
        while True:
            messages, version, over = read(game_id, last_sent)
            for seq, message in messages:
                yield message
                last_sent = seq
            if over and last_sent >= version:
                yield ": game over\n\n"
                return
            if last_sent < version:
                continue  # a page limit: read on at once
            feed.changed(game_id, version)
            # A spectator's stream pings more often: a closed one is only noticed at a
            # write, and until then it still counts as a viewer.
            ping_s = heartbeat_s if viewers is None else min(heartbeat_s, SPECTATOR_PING_S)
            while True:
                # nudges first: a count changed after this read wakes the wait below
                nudged = feed.nudges(game_id) if viewers is not None else None
                if viewers is not None and (count := viewers.count(game_id)) != shown:
                    shown = count
                    quiet_since = time.monotonic()
                    yield viewers_event(count)
                wait_s = max(0.05, ping_s - (time.monotonic() - quiet_since))
                if feed.wait(game_id, last_sent, wait_s, nudged_after=nudged):
                    if feed.version(game_id) > last_sent:
                        quiet_since = time.monotonic()
                        break
                    continue  # a nudge: the viewer count may have changed
                now = time.monotonic()
                if now >= deadline:
                    return
                if now - quiet_since >= ping_s:
                    quiet_since = now
                    yield ": ping\n\n"
            if time.monotonic() >= deadline:
                return
