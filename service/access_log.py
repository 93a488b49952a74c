"""The access log: one line per request, written by the app, so that it names the
client the app decided on (behind trusted proxies, the forwarded address; see
``SQUARES_TRUSTED_PROXIES``), never a proxy's: ``<client> "<METHOD> <path>" <status>
<ms> ms``. The query string is left out. The server's own access log is off
(`service.server`); ``squares serve`` sends these lines where gunicorn's access log
goes (``--access-logfile -``: standard output).
"""

from __future__ import annotations

import logging
import time

from flask import Flask, Response, g, request

log = logging.getLogger("squares.access")


def init_app(app: Flask) -> None:
    @app.before_request
    def started() -> None:
        g.squares_started = time.perf_counter()

    @app.after_request
    def logged(response: Response) -> Response:
        began = g.get("squares_started")
        took_ms = (time.perf_counter() - began) * 1000 if began is not None else 0.0
        log.info('%s "%s %s" %d %.1f ms', request.remote_addr or "-", request.method,
                 request.path, response.status_code, took_ms)
        return response
