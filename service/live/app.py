"""The live streams server's ASGI app: ``GET /api/games/{id}/live`` held open as
Server-Sent Events, in a process of its own (`service.serve.streams_server`).

Pages and the rest of the API are the Flask app's (`service.http.app`), served by a WSGI
server whose threads never wait on a stream. Behind the proxy (``deploy/nginx.conf``)
both share one origin; run bare, this server listens on a port of its own and its
answers allow any origin (`CORS_HEADERS`: the events of every game are public), so
that the pages of the app's port may read it.

A stream request is checked here as the Flask view checks it (`service.api.feed`):
a host the service does not answer to is a 400 (`service.ops.hosts`, as in the Flask
app), an unknown game a 404, a bad ``Last-Event-ID``/``after``/``viewers`` a 400
(ASCII digits only: `protocol.paths`), too many streams
from one address a 429 and a full or stopping server a 503 (both with
``Retry-After``), each in the API's error shape with its security headers and
request id. A stream that passes is run by the hub (`LiveHub.serve`) until it ends.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

from ..errors import DatabaseUnavailable, GameNotFound
from ..ops import hosts, metrics
from ..protocol import access_log, request_ids
from ..protocol.answers import answer_headers, error_body
from ..protocol.paths import GAME_ID, STREAM_QUERY_ERROR, parse_after, parse_flag
from ..protocol.statuses import (
    ALL_BY_CODE,
    OUTAGE_RETRY_AFTER_S,
    UNAVAILABLE_MESSAGE,
    service_error,
)
from ..services import Services
from .hub import LiveHub, StreamRequest

log = logging.getLogger(__name__)

Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STREAM_ROUTE = re.compile(r"^/api/games/([^/]+)/live$")
ROUTE_NAME = "/api/games/<game_id>/live"
RETRY_AFTER_S = 5
SSE_HEADERS = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache",
               "X-Accel-Buffering": "no"}
CORS_HEADERS = {"Access-Control-Allow-Origin": "*"}
PREFLIGHT_HEADERS = {**CORS_HEADERS, "Access-Control-Allow-Methods": "GET",
                     "Access-Control-Allow-Headers": "Last-Event-ID",
                     "Access-Control-Max-Age": "86400"}


class Request:
    """What the app reads of one HTTP request's scope."""

    def __init__(self, scope: Message, proxies: int) -> None:
        self.method: str = scope["method"]
        self.path: str = scope["path"]
        self.headers = {name.decode("latin-1").lower(): value.decode("latin-1")
                        for name, value in scope["headers"]}
        self.query = parse_qs(scope.get("query_string", b"").decode("latin-1"),
                              keep_blank_values=True)  # "?after=" is no number, as in Flask
        peer = scope.get("client")
        self.client = client_address(self.headers.get("x-forwarded-for"),
                                     peer[0] if peer else "-", proxies)
        # the host the trusted proxies forwarded, counted as the client's address is
        # (what ``ProxyFix(x_host=proxies)`` gives the Flask app); no Host: none
        self.host = client_address(self.headers.get("x-forwarded-host"),
                                   self.headers.get("host", ""), proxies)
        self.request_id = request_ids.request_id_of(self.headers.get("x-request-id"))
        self.started = time.perf_counter()

    def arg(self, name: str, default: str) -> str:
        values = self.query.get(name)
        return values[0] if values else default


def client_address(forwarded: str | None, peer: str, proxies: int) -> str:
    """The client as `proxies` trusted proxies report it (the address each appended
    to ``X-Forwarded-For``, counted from the right), else the socket's peer: what
    werkzeug's ``ProxyFix(x_for=proxies)`` gives the Flask app."""
    if proxies <= 0 or not forwarded:
        return peer
    hops = [hop.strip() for hop in forwarded.split(",")]
    return hops[-proxies] if len(hops) >= proxies else peer


class StreamsApp:
    """The ASGI callable: streams, their refusals, ``/healthz`` and CORS preflights."""

    def __init__(self, services: Services, hub: LiveHub, *, proxies: int = 0,
                 on_close: Callable[[], object] | None = None) -> None:
        self.services = services
        self.hub = hub
        self.proxies = proxies
        self.trusted_hosts = services.settings.trusted_hosts  # as the Flask app's
        self.on_close = on_close  # what the app's maker opened for it (the database pool)

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(Request(scope, self.proxies), receive, send)

    async def _http(self, request: Request, receive: Receive, send: Send) -> None:
        match = STREAM_ROUTE.match(request.path)
        if not self.trusted_hosts.allows(request.host):  # `service.ops.hosts`
            await self._refuse(request, send, "bad_request", hosts.REFUSED)
        elif request.path == "/healthz" and request.method in ("GET", "HEAD"):
            await self._answer(request, send, 200, {"status": "ok"}, route="/healthz")
        elif match is None:
            await self._refuse(request, send, "not_found", "no such route")
        elif request.method == "OPTIONS":
            await self._answer(request, send, 204, None, PREFLIGHT_HEADERS)
        elif request.method not in ("GET", "HEAD"):
            await self._refuse(request, send, "method_not_allowed",
                               "the live feed takes GET", {"Allow": "GET, HEAD, OPTIONS"})
        else:
            await self._stream(request, match.group(1), receive, send)

    async def _stream(self, request: Request, game_id: str, receive: Receive,
                      send: Send) -> None:
        after = parse_after(request.headers.get("last-event-id", request.arg("after", "0")))
        spectator = parse_flag(request.arg("viewers", ""))
        if after is None or spectator is None:
            await self._refuse(request, send, "invalid_request", STREAM_QUERY_ERROR)
            return
        try:
            exists = GAME_ID.match(game_id) is not None and await self._exists(game_id)
        except DatabaseUnavailable as exc:  # come back later
            log.error("live stream of game %s: the game could not be read: %s", game_id, exc)
            await self._refuse(request, send, exc.code, UNAVAILABLE_MESSAGE,
                               {"Retry-After": str(OUTAGE_RETRY_AFTER_S)})
            return
        except Exception:  # noqa: BLE001 - a bug: logged, answered in the error shape
            log.exception("live stream of game %s: the game could not be read", game_id)
            await self._refuse(request, send, "internal_error",
                               "something went wrong on our side")
            return
        if not exists:
            kind = service_error(GameNotFound(""))
            await self._answer(request, send, kind.status, error_body(
                kind.code, f"no game {game_id!r}"), game_id=game_id)
            return
        hub = self.hub
        if hub.draining:
            await self._refuse(request, send, "streams_full",
                               "this server is restarting; try another", retry=True)
            return
        refused = hub.slots.take(request.client)
        if refused is not None:
            code, message = (("too_many_streams",
                              f"at most {hub.slots.per_client} open streams per client")
                             if refused == "client" else
                             ("streams_full", "this server has no stream free"))
            await self._refuse(request, send, code, message, retry=True)
            return
        wanted = StreamRequest(game_id, after, spectator, request.client)
        try:
            await send(_start(200, {**SSE_HEADERS, **CORS_HEADERS}, request.request_id))
            self._logged(request, 200, game_id)
        except BaseException:
            hub.slots.release(request.client)
            raise
        if request.method == "HEAD":
            hub.slots.release(request.client)
            await send({"type": "http.response.body", "body": b""})
            return
        await hub.serve(wanted, receive, send)

    async def _exists(self, game_id: str) -> bool:
        """Whether the game is stored (read on a thread: the loop never waits on the
        database); a database that does not answer raises."""
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(None, self.services.queries.get_summary, game_id)
        except GameNotFound:
            return False
        return True

    async def _refuse(self, request: Request, send: Send, code: str, message: str,
                      headers: dict[str, str] | None = None, *, retry: bool = False) -> None:
        extra = dict(headers or {})
        if retry:
            extra["Retry-After"] = str(RETRY_AFTER_S)
        await self._answer(request, send, ALL_BY_CODE[code].status, error_body(code, message),
                           extra)

    async def _answer(self, request: Request, send: Send, status: int, body: Any,
                      headers: dict[str, str] | None = None, *, route: str = ROUTE_NAME,
                      game_id: str | None = None) -> None:
        data = b"" if body is None else json.dumps(body, separators=(",", ":")).encode()
        head = {**CORS_HEADERS, **(headers or {})}
        if body is not None:
            head |= {"Content-Type": "application/json", "Content-Length": str(len(data))}
        await send(_start(status, head, request.request_id))
        await send({"type": "http.response.body",
                    "body": b"" if request.method == "HEAD" else data})
        self._logged(request, status, game_id, route)

    def _logged(self, request: Request, status: int, game_id: str | None,
                route: str = ROUTE_NAME) -> None:
        seconds = time.perf_counter() - request.started
        metrics.request_answered(request.method, route, status, seconds)
        if status == 429:
            metrics.rate_limited(route, "too_many_streams")
        access_log.write(client=request.client, method=request.method, path=request.path,
                         route=route, status=status, seconds=seconds,
                         request_id=request.request_id, game_id=game_id)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.started()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                # granian sends it once every connection has ended: the streams were
                # ended on the stop signal already (`LiveHub.started`)
                self.hub.drain()
                self.hub.close()
                if self.on_close is not None:
                    self.on_close()
                await send({"type": "lifespan.shutdown.complete"})
                return


def _start(status: int, headers: dict[str, str], request_id: str) -> Message:
    every = answer_headers(headers, request_id)
    return {"type": "http.response.start", "status": status,
            "headers": [(name.lower().encode(), value.encode()) for name, value in every.items()]}
