"""The cluster as docs/operating.md ("Several instances") describes it, for real: Debian's
nginx with ``deploy/nginx.conf`` in front of two ``squares serve`` instances on one
PostgreSQL, trusting that one proxy (``SQUARES_TRUSTED_PROXIES=1``), the rate limits
counted in one Redis (``SQUARES_RATELIMIT_STORAGE_URI``) and switched on.

Through nginx, from many client addresses (each client binds its own 127.0.x.y):
80 players each start a game, 20 watchers each follow one, and a friend joins an
online game by its invite link; nobody is refused, because each client has its own
quota. And a quota is one quota: one address whose requests nginx spreads over both
instances is refused past its limit, counted over both (its games in the database,
its hints in Redis).
"""

from __future__ import annotations

import http.client
import json
import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from squares_testing.net import HOST
from squares_testing.nginx import Nginx, running_nginx
from squares_testing.server import Server, start_server
from tests.databases import fresh_postgres_database

pytestmark = pytest.mark.e2e

PLAYERS, WATCHERS = 80, 20
ACTIVE_GAMES = 20  # SQUARES_ACTIVE_GAMES_PER_CLIENT's default
HINT_LIMIT = 60  # SQUARES_LIMIT_HINT's default: 60 per minute


@dataclass
class Node:
    nginx: Nginx
    servers: list[Server]


@pytest.fixture(scope="module")
def node(postgres_template: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Node]:
    """One node for the module: its tests count quotas for addresses of their own."""
    tmp_path = tmp_path_factory.mktemp("node")
    redis = os.environ.get("SQUARES_TEST_REDIS_URL")
    if not redis:
        pytest.fail("SQUARES_TEST_REDIS_URL is not set (scripts/run_tests.py starts a Redis)")
    env = {"SQUARES_TRUSTED_PROXIES": "1", "SQUARES_RATELIMIT_STORAGE_URI": redis,
           "SQUARES_LIVE_URL": "same-origin"}  # nginx routes the streams (deploy/nginx.conf)
    with fresh_postgres_database(postgres_template, prefix="squares_node") as url:
        servers: list[Server] = []
        try:
            for name in ("a", "b"):
                servers.append(start_server(url, log_path=tmp_path / f"{name}.log", env=env,
                                            limits_off=False))  # the defaults, as shipped
            upstreams = [f"{HOST}:{server.port}" for server in servers]
            with running_nginx(upstreams, logs_to=tmp_path / "nginx") as nginx:
                yield Node(nginx, servers)
        finally:
            for server in servers:
                server.stop()


def call(port: int, source: str, method: str, path: str, body: Any = None,
         token: str | None = None) -> tuple[int, Any]:
    """One request through nginx from the client address `source`."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def first_event(port: int, source: str, game_id: str) -> tuple[int, str]:
    """Open a live stream from `source` through nginx; its status and first event."""
    conn = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    try:
        conn.request("GET", f"/api/games/{game_id}/live")
        response = conn.getresponse()
        if response.status != 200:
            return response.status, ""
        while True:
            line = response.readline().decode()
            if line.startswith("event:"):
                return 200, line.split(":", 1)[1].strip()
    finally:
        conn.close()


def new_game(port: int, source: str, **extra: Any) -> tuple[int, Any]:
    return call(port, source, "POST", "/api/games",
                {"player_name": "Ada", "height": 7, "width": 9, **extra})


def in_threads(count: int, work: Any) -> list[Any]:
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        results[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def test_through_nginx_every_client_has_its_own_quota(node: Node) -> None:
    port = node.nginx.port
    players = in_threads(PLAYERS, lambda i: new_game(port, f"127.0.1.{i + 1}", seed=i))
    assert [status for status, _ in players] == [201] * PLAYERS
    created = [data for _, data in players]

    def watch(i: int) -> tuple[int, str]:
        return first_event(port, f"127.0.2.{i + 1}", created[i]["game_id"])

    assert in_threads(WATCHERS, watch) == [(200, "game_created")] * WATCHERS

    # a friend, from another address, joins an online game by its invite link
    status, online = new_game(port, "127.0.3.1", mode="online")
    assert status == 201
    link = online["invite"]["url"]
    assert link.startswith(f"http://{HOST}:{port}/join/")  # nginx's address, forwarded
    status, claimed = call(port, "127.0.3.2", "POST", f"/api/games/{online['game_id']}/claim",
                           {"code": online["invite"]["code"], "name": "Bob"})
    assert status == 201 and claimed["seat"] == 2


def test_one_client_has_one_quota_over_both_instances(node: Node) -> None:
    """nginx spreads one address's requests over both instances, and its quotas are
    counted once: the games it has going in the database (20), its hints in Redis
    (60 a minute). The request past each is refused; another address is not."""
    port, client = node.nginx.port, "127.0.4.1"
    logged_before = [server.log_path.stat().st_size for server in node.servers]
    created = [new_game(port, client, seed=i) for i in range(ACTIVE_GAMES + 1)]
    assert [status for status, _ in created] == [201] * ACTIVE_GAMES + [429]
    assert created[-1][1]["error"]["code"] == "too_many_games"
    game_id, token = created[0][1]["game_id"], created[0][1]["token"]
    hints = [call(port, client, "GET", f"/api/games/{game_id}/hint", token=token)
             for _ in range(HINT_LIMIT + 1)]
    assert [status for status, _ in hints] == [200] * HINT_LIMIT + [429]
    assert hints[-1][1]["error"]["code"] == "rate_limited"
    for server, before in zip(node.servers, logged_before, strict=True):
        with server.log_path.open("rb") as file:  # both instances answered some of them
            file.seek(before)
            log = file.read().decode(errors="replace")
        assert "/hint" in log and "POST /api/games" in log, log[-2000:]
    assert new_game(port, "127.0.4.2")[0] == 201
    assert call(port, "127.0.4.2", "GET", f"/api/games/{game_id}/hint", token=token)[0] == 200
