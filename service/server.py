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
  and closed, one whose headers pass `MAX_HEADER_BYTES` 431 (`GuardedProtocol`;
  uvicorn itself waits for ever and takes any size), and a request that is not HTTP
  400: each in the API's error shape with the security headers;
- client addresses are the socket's: ``X-Forwarded-For`` is never trusted here;
- lifespan on: the app learns that the loop runs and when the process stops, so
  that it ends its streams with a last ``retry:`` within a moment of SIGTERM;
- at most `STOP_GRACE_S` for what is still running after that; then it is cut;
- a concurrency limit above the stream cap: past it, 503 at once.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

from . import logs, request_ids
from .headers import SECURITY_HEADERS
from .live import slots

HEADER_TIMEOUT_S = float(os.environ.get("SQUARES_HEADER_TIMEOUT_S", "10"))
MAX_HEADER_BYTES = 64 * 1024  # the request line and headers together
STOP_GRACE_S = 3
GRACEFUL_TIMEOUT_S = 8  # gunicorn's: a worker still alive then is killed
# Idle connections cost no thread here. Longer than a proxy keeps an idle upstream
# connection (nginx: 60 s), so that it never sends a request on one being closed.
KEEP_ALIVE_S = 75
CONNECTION_HEADROOM = 1024  # connections beyond the stream cap: requests, keep-alive


def raw_error(status: int, reason: str, code: str, message: str) -> bytes:
    """A whole HTTP answer in the API's error shape with the security headers, for
    what the server refuses before the app sees a request (the connection closes)."""
    body = json.dumps({"error": {"code": code, "message": message, "details": {}}}).encode()
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json",
            f"content-length: {len(body)}", "connection: close",
            f"x-request-id: {request_ids.request_id_of(None)}",
            *(f"{name.lower()}: {value}" for name, value in SECURITY_HEADERS.items())]
    return "\r\n".join(head).encode() + b"\r\n\r\n" + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, with limits on a request's headers: how long they
    may take (from the connection's start, or from a new request's first byte) and
    how large they may be; and with the API's error shape (and the security headers)
    on the answers the server gives by itself."""

    header_timeout_s = HEADER_TIMEOUT_S
    max_header_bytes = MAX_HEADER_BYTES

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._squares_transport = transport
        self._squares_timer: asyncio.TimerHandle | None = None
        self._squares_head_bytes = 0
        self._squares_oversized = False
        super().connection_made(transport)
        self._arm_header_timer()

    # the parser's callbacks (httptools): an exception raised in one ends the parse
    # with an HttpParserError, which uvicorn answers with `send_400_response`
    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._squares_head_bytes = 0
        self._arm_header_timer()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        super().on_headers_complete()

    def _count_head(self, size: int) -> None:
        self._squares_head_bytes += size
        if self._squares_head_bytes > self.max_header_bytes:
            self._squares_oversized = True
            raise ValueError("request headers too large")

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        if self._squares_oversized:
            self._refuse("headers_too_large", "Request Header Fields Too Large",
                         f"the request's headers exceed {self.max_header_bytes} bytes")
        else:
            self._refuse("bad_request", "Bad Request", "the request is not valid HTTP")

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
        self._refuse("request_timeout", "Request Timeout",
                     f"the request's headers did not arrive within {self.header_timeout_s:g} s")

    def _refuse(self, code: str, reason: str, message: str) -> None:
        # here, not at the top: the gunicorn master imports this module, the API not
        from .api.statuses import http_error

        self._cancel_header_timer()
        transport = self._squares_transport
        if not transport.is_closing():
            transport.write(raw_error(http_error(code).status, reason, code, message))
            transport.close()


def uvicorn_settings() -> dict[str, Any]:
    """uvicorn's settings for one worker (also ``squares serve --no-gunicorn``)."""
    streams = int(os.environ.get("SQUARES_LIVE_TOTAL", slots.PER_PROCESS))
    return {
        "http": GuardedProtocol,
        "loop": "auto",
        "lifespan": "on",
        "proxy_headers": False,
        "access_log": False,  # the app writes it, with its client address
        "timeout_graceful_shutdown": STOP_GRACE_S,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "limit_concurrency": streams + CONNECTION_HEADROOM,
    }


class Worker(UvicornWorker):
    """``gunicorn -k service.server.Worker``."""

    CONFIG_KWARGS = uvicorn_settings()

    def init_process(self) -> None:
        # in the worker, after the fork: access lines to standard output, the rest to
        # standard error, as SQUARES_LOG_FORMAT says
        logs.configure()
        super().init_process()
