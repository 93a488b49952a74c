"""The real streams server per test (`squares_testing.inprocess`), on SQLite and
PostgreSQL, beside the Flask app whose services and test client the tests use."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask

from service.live.hub import LiveHub
from service.services import Services
from squares_testing.inprocess import streams_server
from tests.apps import app_for_tests
from tests.conftest import close_app, services_of


@dataclass
class Live:
    app: Flask  # the Flask app (its services, its test client)
    port: int  # the streams server's
    hub: LiveHub  # the streams server's

    @property
    def services(self) -> Services:
        return services_of(self.app)


def serve(app: Flask) -> Iterator[Live]:
    with streams_server(services_of(app)) as streams:
        yield Live(app, streams.port, streams.hub)


def live_app(url: str, **config: Any) -> Flask:
    return app_for_tests({"DATABASE_URL": url, "SQUARES_RATELIMIT_ENABLED": "0",
                       "SQUARES_LIVE_HEARTBEAT_S": 0.3, **config})


@pytest.fixture
def live(database_url: str) -> Iterator[Live]:
    """The app behind a real server, on every backend."""
    app = live_app(database_url)
    yield from serve(app)
    close_app(app)
