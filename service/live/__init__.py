"""The live feed: games followed as they are played, as Server-Sent Events.

`feed` (one database watcher per process), `reads` (one read per game and wake-up),
`sse` (the stream's text), `viewers` (spectator counts over every process), `slots`
(stream caps) and `hub` (all of them for one process, and the ASGI side of a stream).
`init_app` gives an app its hub; the endpoint is ``service/api/feed.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import lifecycle
from .feed import Feed
from .hub import LiveHub, LiveSettings, StreamRequest, offer
from .reads import Page, SharedReads
from .slots import StreamSlots
from .viewers import Viewers

__all__ = ["Feed", "LiveHub", "LiveSettings", "Page", "SharedReads", "StreamRequest",
           "StreamSlots", "Viewers", "hub_of", "init_app", "offer"]

EXTENSION = "squares_live"


def init_app(app: Any, read_page: Callable[[str, int], Page]) -> LiveHub:
    """The live hub of `app`'s process (``app.extensions["squares_live"]``), on its
    store, with its settings (`LiveSettings.of`) and `read_page` (a game's page of
    SSE text after a position); its `close` is registered with the app's."""
    hub = LiveHub(app.extensions["squares"].store, read_page, LiveSettings.of(app.config))
    app.extensions[EXTENSION] = hub
    lifecycle.on_close(app, hub.close)
    return hub


def hub_of(app: Any) -> LiveHub:
    hub: LiveHub = app.extensions[EXTENSION]
    return hub
