"""The ASGI entry, what ``squares serve`` runs: ``service.asgi:create_asgi_app()``.

Every request goes to the Flask app (`create_app`), run on a thread pool by
`service.wsgi_bridge` (one thread hop per request: the app's whole answer comes back
and is sent from the loop), so views, errors, limits and headers are those of the
WSGI app. Two things happen on the event loop instead, because they may last long
and must not hold a thread:

- the request body is read here first, within `BODY_TIMEOUT_S` and up to the
  largest body the app accepts (a client that sends half a body holds no thread;
  what it sent goes on, and the app refuses it as it would any short body);
- a live stream that the view accepted is handed over (`service.live.hub`) and its
  body is written here, as a coroutine.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import Any

from flask import Flask

from . import lifecycle
from .app import create_app
from .live.hub import HANDOFF_KEY, Handoff, LiveHub
from .wsgi_bridge import WsgiBridge

# The request thread pool of one process (`squares serve --threads`). Requests are
# Python work under one GIL, and they wait only on the database (bodies are read and
# answers sent on the loop): a few threads are enough, and more only queue for the GIL
# (benchmarks/load.py, one run: 2/4/8/32 threads gave 159/171/166/115 moves/s, p99
# 201/239/283/613 ms, 8.1/7.0/7.1/9.5 ms server CPU a move).
THREADS = 8
BODY_TIMEOUT_S = float(os.environ.get("SQUARES_BODY_TIMEOUT_S", "10"))

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class SquaresAsgi:
    def __init__(self, flask_app: Flask, *, threads: int = THREADS) -> None:
        self.flask_app = flask_app
        self.bridge = WsgiBridge(flask_app, threads=threads)
        self.hub: LiveHub = flask_app.extensions["squares_live"]
        self.max_body = int(flask_app.config["MAX_CONTENT_LENGTH"])

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        # no websockets: the server refuses them when the app does not accept

    async def _http(self, scope: Message, receive: Receive, send: Send) -> None:
        read = await self._read_body(receive)
        if read is None:
            return  # the client went before its request was whole
        body, complete = read
        handoff = Handoff()
        scope = {**scope, "headers": _framed(scope["headers"], body, complete),
                 HANDOFF_KEY: handoff}
        try:
            answer = await self.bridge.call(scope, body)
            if answer.failed:  # a 500: no stream, even if the view took one first
                self._let_go(handoff)
            # a stream handed over goes on: the end of its response is held back
            # (`LiveHub.serve` sends it)
            await answer.send(send, end=handoff.request is None)
        except BaseException:
            self._let_go(handoff)
            raise
        if handoff.request is not None:
            await self.hub.serve(handoff.request, receive, send)

    def _let_go(self, handoff: Handoff) -> None:
        """The stream the view took, if any, is not served: free its slot."""
        if handoff.request is not None:
            self.hub.slots.release(handoff.request.client)
            handoff.request = None

    async def _read_body(self, receive: Receive) -> tuple[bytes, bool] | None:
        """The request body, up to one byte more than the app accepts (it refuses
        that), and whether it came whole within `BODY_TIMEOUT_S`."""
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(BODY_TIMEOUT_S):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    chunks.append(chunk)
                    size += len(chunk)
                    if not message.get("more_body", False) or size > self.max_body:
                        break
        except TimeoutError:
            return b"".join(chunks), False
        return b"".join(chunks), True

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.started()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.hub.drain()
                lifecycle.close(self.flask_app)  # the hub's, and whatever else it opened
                self.bridge.close()
                await send({"type": "lifespan.shutdown.complete"})
                return


def _framed(headers: list[tuple[bytes, bytes]], body: bytes,
            complete: bool) -> list[tuple[bytes, bytes]]:
    """The request's headers for the body read here: a ``Content-Length`` in place of
    chunked framing (a WSGI app reads exactly that many bytes); one byte more than
    there is when the rest never came, so that the app sees a cut-off body."""
    framing = (b"content-length", b"transfer-encoding")
    if not any(name in framing for name, _ in headers):
        return headers
    length = len(body) if complete else len(body) + 1
    kept = [(name, value) for name, value in headers if name not in framing]
    return [*kept, (b"content-length", str(length).encode())]


def create_asgi_app(config: dict[str, Any] | None = None, *,
                    threads: int | None = None) -> SquaresAsgi:
    """The app on ``DATABASE_URL`` (see `create_app`); `threads` defaults to
    ``SQUARES_THREADS`` (set by ``squares serve --threads``), else `THREADS`."""
    if threads is None:
        threads = int(os.environ.get("SQUARES_THREADS", THREADS))
    return SquaresAsgi(create_app(config), threads=threads)
