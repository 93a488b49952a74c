"""``GET /api/games/{id}/live``: a game's events as Server-Sent Events (`service.live`).

One SSE message per stored event: ``id`` its sequence number, ``event`` its type,
``data`` the same JSON as ``/events``. ``Last-Event-ID`` (what a browser's
``EventSource`` sends when it reconnects) or ``?after=N`` resumes after that event.
The stream ends after game over. ``?viewers=1`` makes the stream a spectator's: its
client (the address, as for the caps) counts once in the game's viewer count however
many streams it opens (over every server, `service.live.viewers`), and the stream
also gets ``event: viewers`` messages, ``{"count": N}``, without ``id``, when that
count changes. Refused at once, before any stream opens: an unknown game (404), a
bad ``Last-Event-ID``/``after`` (400), too many streams from one address (429) or in
this process (503), a server that is stopping (503); the 429 and 503 carry
``Retry-After``.

This view only checks and decides; the ASGI server holds the open stream
(`service.live.hub`). Under a plain WSGI server (``wsgi.py``), where an open stream
would hold a thread, the answer is the backlog (at most one page of events) and a
``retry:`` of `POLL_RETRY_MS`: the browser's ``EventSource`` comes back with
``Last-Event-ID`` by itself, so the feed still works, by polling.

Settings (app config, defaulting to the environment): ``SQUARES_LIVE_PER_CLIENT``
(8 open streams per address and process), ``SQUARES_LIVE_TOTAL`` (5000 per process,
never more than its file descriptors allow), ``SQUARES_LIVE_HEARTBEAT_S`` (15),
``SQUARES_LIVE_MAX_S`` (3600: then the client reconnects),
``SQUARES_LIVE_WRITE_TIMEOUT_S`` (30: a client that reads nothing for that long
while its stream has something to send is dropped).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, Response, current_app, request

from ..errors import GameNotFound
from ..live import LiveHub, Page, StreamRequest, hub_of, offer
from ..live import init_app as init_live
from ..live.sse import GAME_OVER, sse_event
from . import schemas as s
from .blueprint import blp, checked_game_id, current_services, error_responses
from .errors import api_error
from .views import event_view

POSITION = re.compile(r"^\s*(\d{1,10})\s*$")
RETRY_AFTER_S = 5
POLL_RETRY_MS = 2000
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def init_app(app: Flask) -> None:
    """The app's live hub (`service.live.init_app`), reading pages of SSE text whose
    events are shown as ``/events`` shows them."""
    services = app.extensions["squares"]

    def read(game_id: str, after: int) -> Page:
        events, version, over = services.live_page(game_id, after)
        messages = tuple((e.seq, sse_event(e.seq, e.event.TYPE, event_view(e)))
                         for e in events)
        return Page(messages, version, over)

    init_live(app, read)


def _after() -> int | None:
    """The position to resume after, or None when it is not a non-negative integer."""
    raw = request.headers.get("Last-Event-ID", request.args.get("after", "0"))
    match = POSITION.match(raw)
    if match is None or int(match.group(1)) > s.INT32_MAX:
        return None
    return int(match.group(1))


def _refused(code: str, message: str) -> Any:
    response = api_error(code, message)
    response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return response


@blp.route("/games/<game_id>/live", methods=["GET"])
@blp.response(200, description="text/event-stream: one message per event "
                               "(id = seq, event = type, data = the event as in /events)",
              content_type="text/event-stream")
@error_responses("invalid_request", GameNotFound, "too_many_streams", "streams_full")
def live(game_id: str) -> Any:
    """Follow a game as it is played (Server-Sent Events; resumes after Last-Event-ID).
    With ``?viewers=1`` the stream counts as a spectator and also receives
    ``event: viewers`` messages (``{"count": N}``, no id) when their number changes."""
    game_id = checked_game_id(game_id)
    after = _after()
    if after is None:
        return api_error("invalid_request",
                         "Last-Event-ID (or after) must be a non-negative integer")
    current_services().get_summary(game_id)  # 404 before any stream opens
    hub = hub_of(current_app)
    if hub.draining:
        return _refused("streams_full", "this server is restarting; try another")
    client = request.remote_addr or "-"
    refused = hub.slots.take(client)
    if refused == "client":
        return _refused("too_many_streams",
                        f"at most {hub.slots.per_client} open streams per client")
    if refused == "total":
        return _refused("streams_full", "this server has no stream free")
    wanted = StreamRequest(game_id, after, request.args.get("viewers") == "1", client)
    if not offer(request.environ, wanted):
        hub.slots.release(client)
        return _backlog(hub, game_id, after)
    # An empty iterable, so no Content-Length: the ASGI side sends the body.
    return Response(iter(()), mimetype="text/event-stream", headers=SSE_HEADERS)


def _backlog(hub: LiveHub, game_id: str, after: int) -> Response:
    """The events after `after` (one page) and the end: a plain WSGI server's answer."""
    page = hub.read_page(game_id, after)
    parts = [f"retry: {POLL_RETRY_MS}\n\n".encode(), page.body]
    if page.over and (page.last_seq or after) >= page.version:
        parts.append(GAME_OVER)
    return Response(b"".join(parts), mimetype="text/event-stream", headers=SSE_HEADERS)
