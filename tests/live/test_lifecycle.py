"""What an app opens is let go in one place (`service.ops.lifecycle`): the live hub's
close is registered by its `init_app`; and a stream whose read fails ends cleanly."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from service.live.hub import LiveHub, StreamRequest
from service.live.reads import Page
from service.live.streams import streams_app
from service.ops import lifecycle
from tests.conftest import close_app

from .conftest import live_app

Message = dict[str, Any]


@pytest.fixture
def app(sqlite_database_url: str) -> Iterator[Flask]:
    app = live_app(sqlite_database_url)
    yield app
    close_app(app)


def test_closes_run_once_the_last_registered_first_and_survive_a_failing_one(
        caplog: pytest.LogCaptureFixture) -> None:
    app = SimpleNamespace(extensions={})
    calls: list[str] = []

    def failing() -> None:
        calls.append("failing")
        raise RuntimeError("on purpose")

    lifecycle.on_close(app, lambda: calls.append("first"))
    lifecycle.on_close(app, failing)
    lifecycle.on_close(app, lambda: calls.append("last"))
    with caplog.at_level(logging.ERROR, logger="service.ops.lifecycle"):
        lifecycle.close(app)
    lifecycle.close(app)  # a second close finds nothing left
    assert calls == ["last", "failing", "first"]
    assert "on purpose" in caplog.text


def test_the_streams_apps_shutdown_ends_its_streams_stops_its_hub_and_closes(
        app: Flask) -> None:
    closed: list[str] = []
    streams = streams_app(app.extensions["squares"], on_close=lambda: closed.append("store"))
    messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[Message] = []

    async def receive() -> Message:
        return next(messages)

    async def send(message: Message) -> None:
        sent.append(message)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, streams({"type": "lifespan"}, receive, send)).result()
    assert [m["type"] for m in sent] == ["lifespan.startup.complete",
                                         "lifespan.shutdown.complete"]
    assert streams.hub.draining
    assert streams.hub.feed._stop.is_set() and streams.hub.viewers._stop.is_set()
    assert closed == ["store"]


def test_a_stream_whose_read_fails_ends_and_frees_its_slot(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    def failing_read(game_id: str, after: int) -> Page:
        raise OSError("the database is away")

    game_id = app.extensions["squares"].play.create_game(player_name="Ada", height=7, width=9,
                                                    seed=3).game_id
    services = app.extensions["squares"]
    hub = LiveHub(services.store, failing_read, services.settings.live,
                  services.settings.client_salt)
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def never() -> Message:
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def scenario() -> None:
        assert hub.slots.take("c") is None
        await asyncio.wait_for(hub.serve(StreamRequest(game_id, 0, False, "c"), never,
                                         send), 5)

    try:
        with caplog.at_level(logging.ERROR, logger="service.live.hub"), \
                ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, scenario()).result()
    finally:
        hub.close()
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}
    assert hub.slots.open == 0
    assert f"live stream of game {game_id} failed" in caplog.text
