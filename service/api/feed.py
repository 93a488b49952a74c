"""``GET /api/games/{id}/live``: a game's events as Server-Sent Events.

One SSE message per stored event: ``id`` its sequence number, ``event`` its type,
``data`` the same JSON as ``/events``. ``Last-Event-ID`` (what a browser's
``EventSource`` sends when it reconnects) or ``?after=N`` resumes after that event.

The open stream is the streams server's (`service.live.app`, run by ``squares
serve`` beside this app; behind the proxy on this same path, run bare on its own
port, which the pages are told): it follows the game until game over, counts
spectators (``?viewers=1``) and caps the streams per address and per process. This
app's own answer to the path is the events so far (one page) and a ``retry:`` of
`POLL_RETRY_MS`: a WSGI server would hold a thread for each open stream, so here
an ``EventSource`` comes back with ``Last-Event-ID`` by itself and follows the game
by polling. The checks are the same: an unknown game is a 404, a bad
``Last-Event-ID``/``after``/``viewers`` a 400.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from ..errors import GameNotFound
from ..protocol.event_pages import GAME_OVER, page_reader
from ..protocol.paths import INT32_MAX, STREAM_QUERY_ERROR, parse_after, parse_flag
from .blueprint import blp, checked_game_id, current_services, error_responses
from .errors import api_error

POLL_RETRY_MS = 2000
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@blp.route("/games/<game_id>/live", methods=["GET"])
@blp.response(200, description="text/event-stream: one message per event "
                               "(id = seq, event = type, data = the event as in /events)",
              content_type="text/event-stream")
@error_responses("invalid_request", GameNotFound, "too_many_streams", "streams_full")
@blp.doc(parameters=[  # read by hand (`parse_after`, `parse_flag`), so documented here
    {"in": "query", "name": "after", "schema": {"type": "integer", "minimum": 0,
                                                "maximum": INT32_MAX, "default": 0},
     "description": "resume after this event (seq)"},
    {"in": "header", "name": "Last-Event-ID", "schema": {"type": "integer", "minimum": 0,
                                                         "maximum": INT32_MAX},
     "description": "what a reconnecting EventSource sends; wins over after"},
    {"in": "query", "name": "viewers", "schema": {"type": "integer", "enum": [0, 1],
                                                  "default": 0},
     "description": "1: count this stream as a spectator"}])
def live(game_id: str) -> Any:
    """Follow a game as it is played (Server-Sent Events; resumes after Last-Event-ID).
    With ``?viewers=1`` the stream counts as a spectator and also receives
    ``event: viewers`` messages (``{"count": N}``, no id) when their number changes.
    Served by the streams server; the app's own port answers the events so far and a
    ``retry:``."""
    game_id = checked_game_id(game_id)
    after = parse_after(request.headers.get("Last-Event-ID", request.args.get("after", "0")))
    if after is None or parse_flag(request.args.get("viewers")) is None:
        return api_error("invalid_request", STREAM_QUERY_ERROR)
    page = page_reader(current_services())(game_id, after)  # GameNotFound: 404
    parts = [f"retry: {POLL_RETRY_MS}\n\n".encode(), page.body]
    if page.over and (page.last_seq or after) >= page.version:
        parts.append(GAME_OVER)
    return Response(b"".join(parts), mimetype="text/event-stream", headers=SSE_HEADERS)
