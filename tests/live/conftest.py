"""A real threaded HTTP server (werkzeug) per test, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from service.app import create_app
from service.services import Services
from tests.conftest import close_app


class QuietHandler(WSGIRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_request(self, *args: Any) -> None:
        pass


@dataclass
class Live:
    app: Flask
    port: int

    @property
    def services(self) -> Services:
        services: Services = self.app.extensions["squares"]
        return services


def serve(app: Flask) -> Iterator[Live]:
    server: BaseWSGIServer = make_server("127.0.0.1", 0, app, threaded=True,
                                         request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Live(app, server.server_port)
    finally:
        app.extensions["squares_feed"].stop()
        app.extensions["squares_viewers"].stop()
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


def live_app(url: str, **config: Any) -> Flask:
    return create_app({"TESTING": True, "DATABASE_URL": url, "RATELIMIT_ENABLED": False,
                       "SQUARES_LIVE_HEARTBEAT_S": 0.3, **config})


@pytest.fixture
def live(database_url: str) -> Iterator[Live]:
    """The app behind a real server, on every backend."""
    app = live_app(database_url)
    yield from serve(app)
    close_app(app)
