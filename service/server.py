"""How ``squares serve`` runs the app: gunicorn's master (worker processes, restarts,
signals) with uvicorn workers, each one asyncio event loop serving
`service.asgi.create_asgi_app`.

Why this and not gunicorn's ``gthread`` (what we ran before) or ``gevent`` workers:
an open live stream must cost memory, not a thread (``gthread`` froze at about 65
open pages), and a long computation or a SQLite lock wait must not stall the other
connections of the process (under ``gevent`` a blocking C call such as sqlite3's
busy wait or the writers' ``flock`` stops the whole worker). Here requests still run
on threads, as before, while idle connections and open streams wait on the loop.
README "Live feeds" has the figures.

What we add to uvicorn's defaults (`UVICORN_SETTINGS`):

- a request whose headers do not arrive within `HEADER_TIMEOUT_S` is answered 408
  and closed (`HeaderTimeoutProtocol`; uvicorn itself waits for ever);
- client addresses are the socket's: ``X-Forwarded-For`` is never trusted here;
- lifespan on: the app learns that the loop runs and when the process stops, so
  that it ends its streams with a last ``retry:`` within a moment of SIGTERM;
- at most `STOP_GRACE_S` for what is still running after that; then it is cut;
- a concurrency limit above the stream cap: past it, 503 at once.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from .live import slots

HEADER_TIMEOUT_S = float(os.environ.get("SQUARES_HEADER_TIMEOUT_S", "10"))
STOP_GRACE_S = 3
GRACEFUL_TIMEOUT_S = 8  # gunicorn's: a worker still alive then is killed
# Idle connections cost no thread here. Longer than a proxy keeps an idle upstream
# connection (nginx: 60 s), so that it never sends a request on one being closed.
KEEP_ALIVE_S = 75
CONNECTION_HEADROOM = 1024  # connections beyond the stream cap: requests, keep-alive


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, with a limit on how long a request's headers may
    take, from the connection's start or from a new request's first byte."""

    header_timeout_s = HEADER_TIMEOUT_S

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._squares_transport = transport
        self._squares_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        loop = asyncio.get_running_loop()
        self._squares_timer = loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._squares_timer is not None:
            self._squares_timer.cancel()
            self._squares_timer = None

    def _headers_too_slow(self) -> None:
        self._squares_timer = None
        transport = self._squares_transport
        if not transport.is_closing():
            transport.write(b"HTTP/1.1 408 Request Timeout\r\ncontent-length: 0\r\n"
                            b"connection: close\r\n\r\n")
            transport.close()


def uvicorn_settings() -> dict[str, Any]:
    """uvicorn's settings for one worker (also ``squares serve --no-gunicorn``)."""
    streams = int(os.environ.get("SQUARES_LIVE_TOTAL", slots.PER_PROCESS))
    return {
        "http": HeaderTimeoutProtocol,
        "loop": "auto",
        "lifespan": "on",
        "proxy_headers": False,
        "timeout_graceful_shutdown": STOP_GRACE_S,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "limit_concurrency": streams + CONNECTION_HEADROOM,
    }


class Worker(UvicornWorker):
    """``gunicorn -k service.server.Worker``."""

    CONFIG_KWARGS = uvicorn_settings()
