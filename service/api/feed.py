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
``Last-Event-ID``/``after`` a 400.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request

from ..errors import GameNotFound
from ..live.pages import page_reader
from ..live.sse import GAME_OVER
from .blueprint import blp, checked_game_id, current_services, error_responses
from .errors import api_error
from .paths import parse_after

POLL_RETRY_MS = 2000
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@blp.route("/games/<game_id>/live", methods=["GET"])
@blp.response(200, description="text/event-stream: one message per event "
                               "(id = seq, event = type, data = the event as in /events)",
              content_type="text/event-stream")
@error_responses("invalid_request", GameNotFound, "too_many_streams", "streams_full")
def live(game_id: str) -> Any:
    """Follow a game as it is played (Server-Sent Events; resumes after Last-Event-ID).
    With ``?viewers=1`` the stream counts as a spectator and also receives
    ``event: viewers`` messages (``{"count": N}``, no id) when their number changes.
    Served by the streams server; the app's own port answers the events so far and a
    ``retry:``."""
    game_id = checked_game_id(game_id)
    after = parse_after(request.headers.get("Last-Event-ID", request.args.get("after", "0")))
    if after is None:
        return api_error("invalid_request",
                         "Last-Event-ID (or after) must be a non-negative integer")
    page = page_reader(current_services())(game_id, after)  # GameNotFound: 404
    parts = [f"retry: {POLL_RETRY_MS}\n\n".encode(), page.body]
    if page.over and (page.last_seq or after) >= page.version:
        parts.append(GAME_OVER)
    return Response(b"".join(parts), mimetype="text/event-stream", headers=SSE_HEADERS)
