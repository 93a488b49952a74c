"""The ASGI side of a stream (`LiveHub.serve`): how it ends, and that its slot always
comes back: a client that stops reading, a client that leaves, a server that stops."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from flask import Flask

from service.live.hub import LiveHub, StreamRequest
from service.live.streams import streams_app
from tests.conftest import close_app, services_of

from .conftest import live_app

Message = dict[str, Any]
T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` on a thread of its own (the browser tests' Playwright keeps an
    event loop running on the main thread)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


@pytest.fixture
def hub(app: Flask) -> Iterator[LiveHub]:
    """The hub of a streams app on `app`'s services, as the streams server has it."""
    made = streams_app(services_of(app)).hub
    yield made
    made.close()


@pytest.fixture
def app(sqlite_database_url: str) -> Iterator[Flask]:
    app = live_app(sqlite_database_url, SQUARES_LIVE_WRITE_TIMEOUT_S=0.3,
                   SQUARES_LIVE_PER_CLIENT=1, SQUARES_LIVE_HEARTBEAT_S=0.1)
    yield app
    close_app(app)


def _game(app: Flask) -> str:
    services = services_of(app)
    return str(services.play.create_game(player_name="Ada", height=7, width=9, seed=3).game_id)


def _served_for(hub: LiveHub, game_id: str, receive: Any, send: Any) -> float:
    """How long `hub.serve` ran for one stream of client "c" (its slot taken first)."""
    assert hub.slots.take("c") is None

    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await asyncio.wait_for(hub.serve(StreamRequest(game_id, 0, False, "c"), receive,
                                         send), 5)
        return loop.time() - started

    return run(scenario())


async def _never() -> Message:
    await asyncio.Event().wait()
    raise AssertionError("unreachable")


def test_a_client_that_stops_reading_is_dropped_and_its_slot_freed(app: Flask, hub: LiveHub) -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)
        if len(sent) > 1:  # the first write lands; then the client's window is full
            await asyncio.Event().wait()

    assert 0.3 <= _served_for(hub, _game(app), _never, send) < 2.0
    assert hub.slots.take("c") is None  # the slot came back


def test_a_client_that_leaves_ends_its_stream_at_once(app: Flask, hub: LiveHub) -> None:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    async def leave() -> Message:
        await asyncio.sleep(0.2)
        return {"type": "http.disconnect"}

    assert _served_for(hub, _game(app), leave, send) < 1.0
    assert b"game_created" in b"".join(m["body"] for m in sent)
    assert hub.feed.watched() == 0  # the stream stopped watching its game
    assert hub.slots.take("c") is None


def test_drain_ends_every_stream_with_a_retry(app: Flask, hub: LiveHub) -> None:
    game_id = _game(app)
    bodies: list[list[bytes]] = [[] for _ in range(3)]

    async def scenario() -> float:
        loop = asyncio.get_running_loop()

        def sender(i: int) -> Any:
            async def send(message: Message) -> None:
                bodies[i].append(message["body"])
            return send

        tasks = []
        for i, client in enumerate(("a", "b", "c")):
            assert hub.slots.take(client) is None
            request = StreamRequest(game_id, 0, False, client)
            tasks.append(asyncio.ensure_future(hub.serve(request, _never, sender(i))))
        await asyncio.sleep(0.3)
        started = loop.time()
        threading.Thread(target=hub.drain).start()  # as a signal handler would
        await asyncio.wait_for(asyncio.gather(*tasks), 5)
        return loop.time() - started

    assert run(scenario()) < 0.5
    for body in bodies:
        text = b"".join(body)
        assert b"game_created" in text and text.rstrip().splitlines()[-1].startswith(b"retry:")
        assert body[-1] == b""  # the response was ended properly
    assert hub.slots.open == 0


def test_the_flask_apps_answer_is_the_backlog_and_a_retry(app: Flask) -> None:
    """The streams are the streams server's: the Flask app's own answer to the path is
    the events so far and a ``retry:``, so that EventSource polls."""
    game_id = _game(app)
    response = app.test_client().get(f"/api/games/{game_id}/live")
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    text = response.get_data(as_text=True)
    assert text.startswith("retry: 2000\n\n") and "id: 1\nevent: game_created\n" in text
