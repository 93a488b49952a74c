"""The streams server's app, put together: `create_streams_app`."""

from __future__ import annotations

from collections.abc import Callable

from ..ops.settings import Settings
from ..protocol.event_pages import page_reader
from ..services import Services
from .app import StreamsApp
from .hub import LiveHub


def create_streams_app(settings: Settings | None = None) -> StreamsApp:
    """The streams app on the settings' database (default: the environment's
    settings), with their live settings and the client addresses their trusted
    proxies report."""
    services = Services.from_url(settings=settings)
    return streams_app(services, on_close=services.store.dispose)


def streams_app(services: Services, *,
                on_close: Callable[[], object] | None = None) -> StreamsApp:
    """The streams app on `services`, with their settings."""
    settings = services.settings
    hub = LiveHub(services.store, page_reader(services), settings.live, settings.client_salt)
    return StreamsApp(services, hub, proxies=settings.trusted_proxies, on_close=on_close)
