"""What every request leaves behind: its id, its access line and its metrics.

- **Request id** (`request_ids`): every answer carries it back in ``X-Request-ID``.
- **Access line.** One per request, written by the app so that it names the client
  the app decided on (behind trusted proxies, the forwarded address; see
  ``SQUARES_TRUSTED_PROXIES``), never a proxy's. Text: ``<client> "<METHOD> <path>"
  <status> <ms> ms id=<request id>``, the client's text in it escaped by the text
  formatter (`logs.TextFormatter`: no ``%0a`` starts a forged line); JSON (`logs`):
  the fields request_id, method, route, status, duration_ms, game_id and client. The
  query string is left out.
- **Metrics.** The request's duration by method, route and status, and a count of
  429 refusals (`metrics`).
"""

from __future__ import annotations

import logging
import time

from flask import Response, g, request

from ..ops import metrics
from ..ops.logs import ACCESS_LOGGER
from . import request_ids

log = logging.getLogger(ACCESS_LOGGER)

UNMATCHED = "<unmatched>"  # the route of a request no URL rule matched


def finish(response: Response) -> None:
    """The request id on the answer, its metrics and its access line (the last thing
    a request does, `service.http.hooks`)."""
    began = g.get("squares_started")
    seconds = time.perf_counter() - began if began is not None else 0.0
    request_id = request_ids.current() or request_ids.request_id_of(None)
    response.headers[request_ids.HEADER] = request_id
    route = request.url_rule.rule if request.url_rule is not None else UNMATCHED
    status = response.status_code
    if status == 429:
        metrics.rate_limited(route, _error_code(response))
    metrics.request_answered(request.method, route, status, seconds)
    write(client=request.remote_addr or "-", method=request.method, path=request.path,
          route=route, status=status, seconds=seconds, request_id=request_id,
          game_id=(request.view_args or {}).get("game_id"))


def write(*, client: str, method: str, path: str, route: str, status: int, seconds: float,
          request_id: str, game_id: str | None) -> None:
    """One access line (the Flask app's requests, and the streams server's)."""
    duration_ms = round(seconds * 1000, 1)
    log.info('%s "%s %s" %d %.1f ms id=%s', client, method, path, status, duration_ms,
             request_id, extra={"request_id": request_id, "method": method, "route": route,
                                "status": status, "duration_ms": duration_ms,
                                "game_id": game_id, "client": client})


def _error_code(response: Response) -> str:
    """The API error code of a JSON refusal (``rate_limited``, ``too_many_streams``,
    ...), else ``-``."""
    if response.is_json and not response.is_streamed:
        body = response.get_json(silent=True)
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            return str(body["error"].get("code", "-"))
    return "-"
