"""The Flask app (any WSGI app) under ASGI, at one thread hop per request.

The body was read whole on the event loop (`service.asgi`), so the environ (PEP
3333, around an `io.BytesIO`) is built on the loop; the app then runs on the thread
pool from start to end (the view, every chunk of its response iterable, its
``close()``), and its whole answer comes back to be sent from the loop. a2wsgi made a
cross-thread round trip for the start, each chunk and the end; buffering is fine here
as every response is bounded (a live stream leaves as a handoff, `service.live.hub`).

``start_response`` again with ``exc_info``: nothing has gone out, so the new status
and headers replace the old and the body so far is dropped. ``write`` collects too.
An app that raises (or breaks the protocol) gets a logged 500 in the API's shape.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
import sys
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from . import request_ids
from .headers import SECURITY_HEADERS

log = logging.getLogger("squares.asgi")

Message = dict[str, Any]
Send = Callable[[Message], Awaitable[None]]
Environ = dict[str, Any]
Headers = list[tuple[bytes, bytes]]
ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None]
Write = Callable[[bytes], None]
StartResponse = Callable[..., Write]
WsgiApp = Callable[[Environ, StartResponse], Iterable[bytes]]

BATCH = 64  # chunks joined into one body message


@dataclass(frozen=True, slots=True)
class Answer:
    """An app's whole response; `failed`: our 500, the app having failed."""

    status: int
    headers: Headers
    body: list[bytes]  # a few pieces, joined on the thread (`_batched`)
    failed: bool = False

    async def send(self, send: Send, *, end: bool = True) -> None:
        """Send it; with `end` False the last message (``more_body: False``) is held
        back: the body goes on elsewhere (a live stream handed over)."""
        await send({"type": "http.response.start", "status": self.status,
                    "headers": self.headers})
        last = len(self.body) - 1
        for i, piece in enumerate(self.body):
            more = i < last or not end
            if piece or not more:
                await send({"type": "http.response.body", "body": piece, "more_body": more})


def _internal_error(request_id: str) -> Answer:
    body = json.dumps({"error": {"code": "internal_error",
                                 "message": "something went wrong on our side",
                                 "details": {}}}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()),
               (request_ids.HEADER.lower().encode(), request_id.encode()),
               *((name.lower().encode("latin-1"), value.encode("latin-1"))
                 for name, value in SECURITY_HEADERS.items())]
    return Answer(500, headers, [body], failed=True)


class WsgiBridge:
    def __init__(self, app: WsgiApp, *, threads: int) -> None:
        self.app = app
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="squares-request")

    async def call(self, scope: Message, body: bytes) -> Answer:
        """Run the app on the request (`scope`, its whole `body`) on the pool."""
        environ = build_environ(scope, body)
        context = contextvars.copy_context()  # as the loop's task sees it
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, context.run, self._run, environ)

    def _run(self, environ: Environ) -> Answer:
        try:
            return run_app(self.app, environ)
        except Exception:
            request_id = request_ids.request_id_of(environ.get("HTTP_X_REQUEST_ID"))
            log.exception("%s %s: the app failed", environ["REQUEST_METHOD"],
                          environ["PATH_INFO"], extra={"request_id": request_id})
            return _internal_error(request_id)

    def close(self) -> None:
        """No new requests; those running finish on their threads."""
        self.pool.shutdown(wait=False)


def run_app(app: WsgiApp, environ: Environ) -> Answer:
    """Call `app` and collect its whole response (in the calling thread)."""
    started: tuple[int, Headers] | None = None
    chunks: list[bytes] = []

    def start_response(status: str, headers: list[tuple[str, str]],
                       exc_info: ExcInfo | None = None) -> Write:
        nonlocal started
        if exc_info is None and started is not None:
            raise AssertionError("start_response called twice without exc_info")
        if exc_info is not None:
            chunks.clear()  # nothing has gone out: the error answer stands alone
        started = (int(status.split(" ", 1)[0]),
                   [(name.strip().lower().encode("latin-1"), value.strip().encode("latin-1"))
                    for name, value in headers])
        return chunks.append  # the legacy write()

    iterable = app(environ, start_response)
    try:
        for chunk in iterable:
            chunks.append(chunk)
    finally:
        close = getattr(iterable, "close", None)
        if close is not None:
            close()
    if started is None:
        raise AssertionError("the app returned without calling start_response")
    return Answer(started[0], started[1], _batched(chunks))


def _batched(chunks: list[bytes]) -> list[bytes]:
    """The body as a few messages, `BATCH` chunks joined in each (one is not copied)."""
    return [b"".join(chunks[i:i + BATCH]) for i in range(0, len(chunks), BATCH)] or [b""]


def build_environ(scope: Message, body: bytes) -> Environ:
    """The WSGI environ (PEP 3333) of an ASGI HTTP `scope` whose `body` is read;
    ``asgi.scope`` is the scope itself (the live handoff is found there)."""
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root):]
    server_name, server_port = scope.get("server") or ("localhost", 80)
    environ: Environ = {
        "REQUEST_METHOD": scope["method"], "SCRIPT_NAME": root.encode().decode("latin-1"),
        "PATH_INFO": path.encode().decode("latin-1"),
        "QUERY_STRING": scope["query_string"].decode("latin-1"),
        "SERVER_NAME": server_name, "SERVER_PORT": str(server_port or 0),
        "SERVER_PROTOCOL": f"HTTP/{scope['http_version']}",
        "wsgi.version": (1, 0), "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body), "wsgi.errors": sys.stderr,
        "wsgi.multithread": True, "wsgi.multiprocess": True, "wsgi.run_once": False,
        "asgi.scope": scope,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = client[0], str(client[1])
    for name, value in scope["headers"]:
        if b"_" in name:
            continue  # X_Forwarded_For would pass for X-Forwarded-For (as gunicorn drops)
        key = name.decode("latin-1").upper().replace("-", "_")
        if key not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            key = "HTTP_" + key
        text = value.decode("latin-1")
        if key in environ:
            text = environ[key] + ("; " if key == "HTTP_COOKIE" else ",") + text
        environ[key] = text
    return environ
