"""The streams server's app, put together: `create_streams_app`."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..config import database_url, trusted_proxies
from ..services import Services
from .app import StreamsApp
from .hub import LiveHub, LiveSettings
from .pages import page_reader


def create_streams_app(config: dict[str, Any] | None = None) -> StreamsApp:
    """The streams app on ``DATABASE_URL`` (or ``config["DATABASE_URL"]``), with the
    live settings of `config` (`LiveSettings`, defaulting to the environment) and the
    client addresses that ``SQUARES_TRUSTED_PROXIES`` proxies report."""
    settings = dict(config or {})
    services = Services.from_url(settings.get("DATABASE_URL") or database_url())
    return streams_app(services, settings, on_close=services.store.dispose)


def streams_app(services: Services, config: dict[str, Any] | None = None, *,
                on_close: Callable[[], object] | None = None) -> StreamsApp:
    """The streams app on `services` (see `create_streams_app`)."""
    settings = dict(config or {})
    hub = LiveHub(services.store, page_reader(services), LiveSettings.of(settings))
    proxies = trusted_proxies(str(settings.get(
        "SQUARES_TRUSTED_PROXIES", os.environ.get("SQUARES_TRUSTED_PROXIES", "0"))))
    return StreamsApp(services, hub, proxies=proxies, on_close=on_close)
