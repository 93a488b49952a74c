"""``GET /api/games/{id}/live``: a game's events as Server-Sent Events (`service.live`).

One SSE message per stored event: ``id`` its sequence number, ``event`` its type,
``data`` the same JSON as ``/events``. ``Last-Event-ID`` (what a browser's
``EventSource`` sends when it reconnects) or ``?after=N`` resumes after that event.
The stream ends after game over. ``?viewers=1`` makes the stream a spectator's: it
counts in the game's viewer count (over every server, `service.viewers`) and also
gets ``event: viewers`` messages, ``{"count": N}``, without ``id``, when that count
changes. Refused before any stream opens: an unknown game
(404), a bad ``Last-Event-ID``/``after`` (400), too many streams from one address
(429) or in this process (503, with ``Retry-After``).

Settings (app config, defaulting to the environment): ``SQUARES_LIVE_PER_CLIENT``
(8 open streams per address), ``SQUARES_LIVE_TOTAL`` (200 per process),
``SQUARES_LIVE_HEARTBEAT_S`` (15), ``SQUARES_LIVE_MAX_S`` (3600: then the client
reconnects).
"""

from __future__ import annotations

import os
import re
from typing import Any

from flask import Flask, Response, current_app, request

from ..live import Feed, Page, SharedReads, StreamSlots
from ..sse import Released, sse_event, stream
from ..viewers import Viewers
from . import schemas as s
from .errors import error_response
from .routes import _errors, _game_id, _services, blp
from .views import event_view

SETTINGS = {
    "SQUARES_LIVE_PER_CLIENT": 8,
    "SQUARES_LIVE_TOTAL": 200,
    "SQUARES_LIVE_HEARTBEAT_S": 15.0,
    "SQUARES_LIVE_MAX_S": 3600.0,
}
POSITION = re.compile(r"^\s*(\d{1,10})\s*$")


def init_app(app: Flask) -> None:
    for key, default in SETTINGS.items():
        app.config.setdefault(key, type(default)(os.environ.get(key, default)))
    services = app.extensions["squares"]
    feed = Feed(services.store)

    def read(game_id: str, after: int) -> Page:
        events, version, over = services.live_page(game_id, after)
        return [(e.seq, sse_event(e.seq, e.event.TYPE, event_view(e))) for e in events], \
            version, over

    app.extensions["squares_feed"] = feed
    app.extensions["squares_viewers"] = Viewers(services.store, on_change=feed.nudge)
    app.extensions["squares_reads"] = SharedReads(feed, read)
    app.extensions["squares_streams"] = StreamSlots(app.config["SQUARES_LIVE_PER_CLIENT"],
                                                    app.config["SQUARES_LIVE_TOTAL"])


def _after() -> int | None:
    """The position to resume after, or None when it is not a non-negative integer."""
    raw = request.headers.get("Last-Event-ID", request.args.get("after", "0"))
    match = POSITION.match(raw)
    if match is None or int(match.group(1)) > s.INT32_MAX:
        return None
    return int(match.group(1))


@blp.route("/games/<game_id>/live", methods=["GET"])
@blp.response(200, description="text/event-stream: one message per event "
                               "(id = seq, event = type, data = the event as in /events)",
              content_type="text/event-stream")
@_errors(400, 404)
def live(game_id: str) -> Any:
    """Follow a game as it is played (Server-Sent Events; resumes after Last-Event-ID).
    With ``?viewers=1`` the stream counts as a spectator and also receives
    ``event: viewers`` messages (``{"count": N}``, no id) when their number changes."""
    services = _services()
    game_id = _game_id(game_id)
    after = _after()
    if after is None:
        return error_response(400, "invalid_request",
                              "Last-Event-ID (or after) must be a non-negative integer")
    spectator = request.args.get("viewers") == "1"
    services.get_summary(game_id)  # 404 before any stream opens
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    slots: StreamSlots = app.extensions["squares_streams"]
    client = request.remote_addr or "-"
    refused = slots.take(client)
    if refused == "client":
        return error_response(429, "too_many_streams",
                              f"at most {slots.per_client} open streams per client")
    if refused == "total":
        response = error_response(503, "streams_full", "this server has no stream free")
        response.headers["Retry-After"] = "5"
        return response

    body = stream(app.extensions["squares_feed"], game_id, after,
                  app.extensions["squares_reads"].read,
                  heartbeat_s=app.config["SQUARES_LIVE_HEARTBEAT_S"],
                  max_s=app.config["SQUARES_LIVE_MAX_S"],
                  viewers=app.extensions["squares_viewers"] if spectator else None)
    return Response(Released(body, lambda: slots.release(client)),
                    mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
