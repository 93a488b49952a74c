"""The live feed: games followed as they are played, as Server-Sent Events.

`feed` (one database watcher per process), `reads` (one read per game and wake-up),
`sse` (the stream's text), `viewers` (spectator counts over every process), `slots`
(stream caps) and `hub` (all of them for one process, and the ASGI side of a stream).
"""

from .feed import Feed
from .hub import LiveHub, LiveSettings, StreamRequest, offer
from .reads import Page, SharedReads
from .slots import StreamSlots
from .viewers import Viewers

__all__ = ["Feed", "LiveHub", "LiveSettings", "Page", "SharedReads", "StreamRequest",
           "StreamSlots", "Viewers", "offer"]
