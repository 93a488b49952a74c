"""The Flask app as an ASGI app through a maintained adapter (a2wsgi), for the app
server comparison of ``benchmarks/servers.py`` (one ASGI server for everything)."""

from __future__ import annotations

from typing import Any


def flask_over_a2wsgi() -> Any:
    from a2wsgi import WSGIMiddleware

    from service.serve.app_server import THREADS, create

    return WSGIMiddleware(create(), workers=THREADS)
