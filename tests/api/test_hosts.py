"""The hosts the service answers to (``SQUARES_TRUSTED_HOSTS``, `service.ops.hosts`):
a request naming any other in ``Host`` is refused with 400, by the app (in the error
shape under /api and on /healthz, as the site's error page elsewhere) and by the
streams server alike, so that no invite link or page names a host a client chose;
with ``SQUARES_PUBLIC_URL`` the links and the pages' live-stream origin are built on
it, whatever the request's host."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from service.ops.settings import SettingError
from squares_testing.inprocess import streams_server
from squares_testing.net import HOST
from tests.apps import app_for_tests
from tests.conftest import close_app, services_of
from tests.live.sse import SseClient

from .helpers import assert_error, create_game

Make = Callable[..., Flask]
FOREIGN = ["evil.example", "evil.example:666", "localhost.evil.example",
           "127.0.0.1.evil.example", "[::2]:5000", "10.0.0.1", "bad host"]
LOOPBACK = ["localhost", "localhost:5000", "LocalHost:5000", "app.localhost:8080",
            "127.0.0.1", "127.0.0.1:5000", "127.4.5.6:8000", "[::1]", "[::1]:5000"]
ONLINE = {"player_name": "Ada", "height": 7, "width": 9, "mode": "online"}


@pytest.fixture
def make(sqlite_database_url: str) -> Iterator[Make]:
    apps: list[Flask] = []

    def build(**config: Any) -> Flask:
        app = app_for_tests({"DATABASE_URL": sqlite_database_url,
                             "SQUARES_RATELIMIT_ENABLED": "0", **config})
        apps.append(app)
        return app

    yield build
    for app in apps:
        close_app(app)


def meta_live(html: str) -> str:
    match = re.search(r'<meta name="squares-live" content="([^"]*)">', html)
    assert match, html[:500]
    return match.group(1)


@pytest.mark.parametrize("host", FOREIGN)
def test_a_foreign_host_creates_no_game(make: Make, host: str) -> None:
    client = make().test_client()
    answer = client.post("/api/games", json=ONLINE, headers={"Host": host})
    assert_error(answer, 400, "bad_request")
    assert answer.headers["X-Content-Type-Options"] == "nosniff"  # the usual headers
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/api/games", "/api/no-such"])
def test_a_foreign_host_gets_the_json_error_off_the_pages(make: Make, path: str) -> None:
    answer = make().test_client().get(path, headers={"Host": "evil.example"})
    assert_error(answer, 400, "bad_request")


@pytest.mark.parametrize("path", ["/", "/games", "/play/nosuchgame", "/no-such-page"])
def test_a_foreign_host_gets_the_sites_error_page(make: Make, path: str) -> None:
    app = make(SQUARES_LIVE_URL=":5001")
    answer = app.test_client().get(path, headers={"Host": "evil.example:666",
                                                  "Accept": "text/html"})
    assert answer.status_code == 400
    assert answer.mimetype == "text/html"
    html = answer.get_data(as_text=True)
    assert "Bad request" in html and "evil.example" not in html
    assert "evil.example" not in answer.headers["Content-Security-Policy"]


@pytest.mark.parametrize("host", LOOPBACK)
def test_loopback_hosts_with_any_port_are_answered_on_a_bare_run(make: Make,
                                                                 host: str) -> None:
    client = make(SQUARES_LIVE_URL=":5001").test_client()
    created = client.post("/api/games", json=ONLINE, headers={"Host": host})
    assert created.status_code == 201, created.get_json()
    name = host.lower().rsplit(":", 1)[0] if not host.endswith("]") else host
    assert created.get_json()["invite"]["url"].startswith(f"http://{host.lower()}/join/")
    page = client.get("/", headers={"Host": host})
    assert page.status_code == 200
    assert meta_live(page.get_data(as_text=True)).lower() == f"http://{name}:5001"


def test_a_public_url_makes_the_links_and_the_live_origin_whatever_the_host(
        make: Make) -> None:
    app = make(SQUARES_PUBLIC_URL="https://squares.example/",
               SQUARES_TRUSTED_HOSTS="squares.example,.squares.example",
               SQUARES_LIVE_URL=":5001")
    client = app.test_client()
    for host in ("squares.example", "www.squares.example:8443", "SQUARES.example:80"):
        created = client.post("/api/games", json=ONLINE, headers={"Host": host})
        assert created.status_code == 201, created.get_json()
        data = created.get_json()
        assert data["invite"]["url"] == (f"https://squares.example/join/{data['game_id']}"
                                         f"#code={data['invite']['code']}")
        page = client.get(f"/play/{data['game_id']}", headers={"Host": host})
        assert meta_live(page.get_data(as_text=True)) == "https://squares.example:5001"
        assert "connect-src 'self' https://squares.example:5001;" in \
            page.headers["Content-Security-Policy"]


def test_with_a_public_url_only_its_host_is_answered_by_default(make: Make) -> None:
    client = make(SQUARES_PUBLIC_URL="https://squares.example",
                  SQUARES_LIVE_URL="same-origin").test_client()
    page = client.get("/", headers={"Host": "squares.example"})
    assert page.status_code == 200 and meta_live(page.get_data(as_text=True)) == ""
    assert "connect-src 'self';" in page.headers["Content-Security-Policy"]
    for host in ("localhost:5000", "127.0.0.1", "www.squares.example"):
        assert_error(client.get("/healthz", headers={"Host": host}), 400, "bad_request")


@pytest.mark.parametrize(("config", "says"), [
    ({"SQUARES_TRUSTED_HOSTS": "squares.example:443"}, "SQUARES_TRUSTED_HOSTS="),
    ({"SQUARES_TRUSTED_HOSTS": "*.example"}, "SQUARES_TRUSTED_HOSTS="),
    ({"SQUARES_PUBLIC_URL": "squares.example"}, "SQUARES_PUBLIC_URL="),
    ({"SQUARES_PUBLIC_URL": "https://squares.example?x=1"}, "SQUARES_PUBLIC_URL="),
    ({"SQUARES_PUBLIC_URL": "https://squares.example",
      "SQUARES_TRUSTED_HOSTS": "other.example"}, "SQUARES_PUBLIC_URL's own host"),
])
def test_a_bad_host_setting_stops_the_app_at_start(sqlite_database_url: str,
                                                   config: dict[str, str], says: str) -> None:
    with pytest.raises(SettingError, match=re.escape(says)):
        app_for_tests({"DATABASE_URL": sqlite_database_url, **config})


def test_the_streams_server_refuses_a_foreign_host_as_the_app_does(make: Make) -> None:
    app = make()
    game_id = create_game(app.test_client())["game_id"]
    with streams_server(services_of(app)) as streams:
        for path in ("/healthz", f"/api/games/{game_id}/live"):
            refused = SseClient(HOST, streams.port, path, {"Host": "evil.example:666"})
            assert refused.status == 400
            assert refused.response.getheader("X-Content-Type-Options") == "nosniff"
            assert refused.body_json()["error"]["code"] == "bad_request"
        for host in ("localhost:5001", "[::1]:5001"):
            sse = SseClient(HOST, streams.port, f"/api/games/{game_id}/live",
                            {"Host": host})
            assert sse.status == 200
            assert sse.response.getheader("Content-Type", "").startswith("text/event-stream")
            sse.conn.close()


def test_behind_a_proxy_the_streams_server_checks_the_forwarded_host(make: Make) -> None:
    app = make(SQUARES_TRUSTED_PROXIES="1", SQUARES_PUBLIC_URL="https://squares.example")
    with streams_server(services_of(app)) as streams:
        forged = SseClient(HOST, streams.port, "/healthz",
                           {"Host": "squares.example", "X-Forwarded-Host": "evil.example"})
        assert forged.status == 400
        assert forged.body_json()["error"]["code"] == "bad_request"
        passed = SseClient(HOST, streams.port, "/healthz",
                           {"Host": "127.0.0.1:8101", "X-Forwarded-Host": "squares.example"})
        assert passed.status == 200 and passed.body_json() == {"status": "ok"}
