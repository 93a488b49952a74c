"""Rate limits counted in Redis (``SQUARES_RATELIMIT_STORAGE_URI=redis://...``), against
a real ``redis-server``: once over several workers/instances, and what happens while
Redis is down (`service/http/limits.py`).

Two `create_app` instances on one storage URI, each on its own SQLite file, stand for
two app server workers or two instances. The Redis server is the one of
``SQUARES_TEST_REDIS_URL`` (`scripts/run_tests.py` starts a throwaway one); the
down-and-back test starts and stops its own. Every test counts for its own client
address, so tests never share counts in Redis.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from squares_testing.net import free_port
from squares_testing.throwaway_redis import throwaway_redis
from tests.apps import app_for_tests
from tests.conftest import close_app
from tests.databases import copy_sqlite

from .helpers import CheckedClient, assert_error

pytestmark = pytest.mark.serial  # every create is timed (`QUICK`): run alone

REDIS_URL_VAR = "SQUARES_TEST_REDIS_URL"
LIMIT = 3  # creates per minute and address
QUICK = 1.0  # seconds: the longest any answer may take, Redis up or down


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get(REDIS_URL_VAR)
    if not url:
        pytest.fail(f"{REDIS_URL_VAR} is not set: run these tests with "
                    "`python scripts/run_tests.py` (./dev test), which starts a throwaway "
                    "redis-server (Debian's redis-server package)")
    return url


@pytest.fixture(autouse=True)
def _module_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limiter's settings as `service/http/limits.py` defaults them, whatever the shell says."""
    for name in ("SQUARES_RATELIMIT_STORAGE_URI", "SQUARES_RATELIMIT_ENABLED",
                 "SQUARES_RATELIMIT_FALLBACK", "SQUARES_RATELIMIT_STORAGE_TIMEOUT"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def make_apps(sqlite_template: Path, tmp_path: Path) -> Iterator[Callable[..., list[Flask]]]:
    """`make_apps(storage_uri)`: two apps (workers) counting in that storage."""
    made: list[Flask] = []

    def make(storage_uri: str, count: int = 2, **config: Any) -> list[Flask]:
        apps = []
        for _ in range(count):
            url = copy_sqlite(sqlite_template, tmp_path / f"app{len(made)}.db")
            app = app_for_tests({"DATABASE_URL": url, "SQUARES_RATELIMIT_ENABLED": "1",
                              "SQUARES_RATELIMIT_STORAGE_URI": storage_uri,
                              "SQUARES_LIMIT_CREATE": f"{LIMIT} per minute", **config})
            app.test_client_class = CheckedClient
            made.append(app)
            apps.append(app)
        return apps

    yield make
    for app in made:
        close_app(app)


def new_address() -> str:
    """A client address of its own (so a count of its own, in Redis too)."""
    return "127." + ".".join(str(b) for b in uuid.uuid4().bytes[:3])


def clients(apps: list[Flask], address: str) -> list[FlaskClient]:
    made = []
    for app in apps:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        made.append(client)
    return made


def create(client: FlaskClient) -> TestResponse:
    """POST /api/games, which must answer (201 or 429) within `QUICK` seconds."""
    started = time.monotonic()
    response = client.post("/api/games", json={"player_name": "Ada", "height": 7, "width": 7})
    took = time.monotonic() - started
    assert response.status_code in (201, 429), response.get_json()
    assert took < QUICK, f"a create took {took:.2f} s"
    return response


def assert_refused(response: TestResponse) -> None:
    assert_error(response, 429, "rate_limited")
    assert int(response.headers["Retry-After"]) > 0
    assert response.headers["X-RateLimit-Limit"] == str(LIMIT)


def assert_shared(apps: list[Flask]) -> None:
    """Creates through both apps in turn count once: the (LIMIT+1)th is refused."""
    a, b = clients(apps, new_address())
    statuses = [create(client).status_code for client in (a, b, a)]
    assert statuses == [201] * LIMIT
    assert_refused(create(b))
    assert_refused(create(a))


@pytest.mark.parametrize("storage", ["redis", "memory"])
def test_redis_counts_once_over_workers_and_memory_per_worker(
        storage: str, make_apps: Callable[..., list[Flask]], redis_url: str) -> None:
    a, b = clients(make_apps(redis_url if storage == "redis" else "memory://"), new_address())
    statuses = [create(client).status_code for client in (a, b) * (LIMIT + 1)]
    if storage == "redis":  # 3 in all, whichever worker answers
        assert statuses == [201] * LIMIT + [429] * (LIMIT + 2)
    else:  # 3 on each worker
        assert statuses == [201] * (2 * LIMIT) + [429] * 2


def test_while_redis_is_down_each_worker_counts_in_memory_until_it_is_back(
        make_apps: Callable[..., list[Flask]], caplog: pytest.LogCaptureFixture) -> None:
    with throwaway_redis() as url:
        assert url is not None, "redis-server not found"
        port = int(url.rsplit(":", 1)[1])
    apps = make_apps(url)  # Redis is stopped: connections are refused

    address = new_address()
    for client in clients(apps, address):  # never a 500, never a wait; limits still apply
        assert [create(client).status_code for _ in range(LIMIT)] == [201] * LIMIT
        assert_refused(create(client))
    assert "falling back to in-memory storage" in caplog.text

    with throwaway_redis(port) as again, redis.from_url(url) as server:
        assert again == url
        waiting = list(apps)
        deadline = time.monotonic() + 40  # the limiter asks again 1 to 32 s apart
        while waiting:
            assert time.monotonic() < deadline, "the apps did not count in Redis again"
            for app in list(waiting):  # one app at a time: what Redis gains is its
                held = server.dbsize()  # (how the limiter names its keys is its own)
                create(clients([app], new_address())[0])
                if server.dbsize() > held:
                    waiting.remove(app)
            time.sleep(0.1)
        assert_shared(apps)
        # the in-memory counts stayed behind: the address starts again at 0 in Redis
        assert create(clients(apps, address)[0]).status_code == 201


def test_a_redis_that_does_not_answer_costs_at_most_the_timeout(
        make_apps: Callable[..., list[Flask]]) -> None:
    with socket.socket() as hung:  # accepts connections (the kernel does), never answers
        hung.bind(("127.0.0.1", 0))
        hung.listen(64)
        # without a timeout a request would wait for ever: close it after a while
        closer = threading.Timer(10, hung.close)
        closer.daemon = True
        closer.start()
        try:
            apps = make_apps(f"redis://127.0.0.1:{hung.getsockname()[1]}", count=1)
            client = clients(apps, new_address())[0]
            assert [create(client).status_code for _ in range(LIMIT)] == [201] * LIMIT
            assert_refused(create(client))
        finally:
            closer.cancel()


def test_without_the_fallback_a_dead_redis_lets_requests_through(
        make_apps: Callable[..., list[Flask]], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("SQUARES_RATELIMIT_FALLBACK", "0")
    apps = make_apps(f"redis://127.0.0.1:{free_port()}", count=1)  # nothing listens
    client = clients(apps, new_address())[0]
    with caplog.at_level(logging.ERROR, logger="service.http.limits"):
        assert [create(client).status_code for _ in range(LIMIT + 2)] == [201] * (LIMIT + 2)
    assert "Failed to rate limit" in caplog.text
