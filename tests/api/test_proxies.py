"""Behind trusted proxies (``SQUARES_TRUSTED_PROXIES=N``): the client is the address
the last N proxies forwarded, for the limits, the stream caps and the invite links'
scheme and host; with N = 0 (the default) no forwarded header changes anything. And
``Cache-Control: no-store`` on every answer that carries a token or a code."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.http.app import create_app
from service.ops import logs
from tests.apps import app_for_tests
from tests.conftest import close_app

PROXY = {"REMOTE_ADDR": "10.0.0.2"}  # the proxy's own address: every request's peer
CREATE = {"player_name": "Ada", "height": 7, "width": 9, "seed": 3}


@pytest.fixture
def make(sqlite_database_url: str) -> Iterator[Any]:
    apps: list[Flask] = []

    def build(proxies: int, **config: Any) -> Flask:
        app = app_for_tests({"DATABASE_URL": sqlite_database_url,
                          "SQUARES_TRUSTED_PROXIES": str(proxies),
                          "SQUARES_LIMIT_CREATE": "2 per minute", **config})
        apps.append(app)
        return app

    yield build
    for app in apps:
        close_app(app)


def create(app: Flask, forwarded_for: str, **headers: str) -> Any:
    return app.test_client().post("/api/games", json=CREATE, environ_base=PROXY,
                                  headers={"X-Forwarded-For": forwarded_for, **headers})


def test_without_trusted_proxies_a_forwarded_address_changes_nothing(make: Any) -> None:
    app = make(0)
    answers = [create(app, f"203.0.113.{i}").status_code for i in range(3)]
    assert answers == [201, 201, 429]  # one quota: the proxy's address


def test_with_one_trusted_proxy_each_forwarded_client_has_its_own_quota(make: Any) -> None:
    app = make(1)
    for i in range(3):
        assert [create(app, f"203.0.113.{i}").status_code for _ in range(2)] == [201, 201]
    assert create(app, "203.0.113.0").status_code == 429


def test_a_client_cannot_choose_its_address_by_sending_x_forwarded_for(make: Any) -> None:
    """The proxy appends the address it saw; only that last hop is trusted."""
    app = make(1)
    assert create(app, "198.51.100.7").status_code == 201
    assert create(app, "198.51.100.7").status_code == 201
    # the same client, pretending to be somebody else: the proxy appends its real address
    assert create(app, "192.0.2.99, 198.51.100.7").status_code == 429


def test_invite_links_follow_the_forwarded_scheme_and_host(make: Any) -> None:
    body = {**CREATE, "mode": "online"}
    headers = {"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Proto": "https",
               "X-Forwarded-Host": "squares.example"}
    hosts = {"SQUARES_TRUSTED_HOSTS": "squares.example,localhost"}
    trusted = make(1, **hosts).test_client().post("/api/games", json=body,
                                                  environ_base=PROXY, headers=headers)
    assert trusted.get_json()["invite"]["url"].startswith("https://squares.example/join/")
    untrusted = make(0, **hosts).test_client().post("/api/games", json=body,
                                                    environ_base=PROXY, headers=headers)
    assert untrusted.get_json()["invite"]["url"].startswith("http://localhost/join/")


def test_the_forwarded_host_is_the_one_checked(make: Any) -> None:
    """Behind the proxy the host a request names is the forwarded one: a client's
    own ``X-Forwarded-Host`` counts only with no trusted proxy, where it is ignored."""
    body = {**CREATE, "mode": "online"}
    forged = {"X-Forwarded-For": "203.0.113.5", "X-Forwarded-Host": "evil.example"}
    refused = make(1).test_client().post("/api/games", json=body, environ_base=PROXY,
                                         headers=forged)
    assert refused.status_code == 400
    assert refused.get_json()["error"]["code"] == "bad_request"
    ignored = make(0).test_client().post("/api/games", json=body, environ_base=PROXY,
                                         headers=forged)
    assert ignored.get_json()["invite"]["url"].startswith("http://localhost/join/")


def test_a_public_url_wins_over_the_forwarded_host(make: Any) -> None:
    app = make(1, SQUARES_PUBLIC_URL="https://play.example",
               SQUARES_TRUSTED_HOSTS="play.example,internal.lan")
    answer = app.test_client().post("/api/games", json={**CREATE, "mode": "online"},
                                    environ_base=PROXY,
                                    headers={"X-Forwarded-Host": "internal.lan"})
    assert answer.get_json()["invite"]["url"].startswith("https://play.example/join/")


def test_a_bad_setting_stops_the_app_at_start(sqlite_database_url: str) -> None:
    with pytest.raises(ValueError, match="SQUARES_TRUSTED_PROXIES"):
        create_app({"DATABASE_URL": sqlite_database_url, "SQUARES_TRUSTED_PROXIES": "x"})


def test_answers_with_a_token_or_a_code_are_never_stored(make: Any) -> None:
    client = make(0).test_client()
    created = client.post("/api/games", json={**CREATE, "mode": "online"},
                          environ_base=PROXY)
    assert created.status_code == 201 and created.headers["Cache-Control"] == "no-store"
    data = created.get_json()
    code = data["invite"]["code"]
    claimed = client.post(f"/api/games/{data['game_id']}/claim",
                          json={"code": code, "name": "Bob"})
    assert claimed.status_code == 201 and claimed.headers["Cache-Control"] == "no-store"
    read = client.get(f"/api/games/{data['game_id']}")
    assert read.headers.get("Cache-Control") != "no-store"  # only where a secret is


def test_the_access_log_names_the_forwarded_client(make: Any,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger="squares.access")
    make(1).test_client().get("/healthz?x=1", environ_base=PROXY,
                              headers={"X-Forwarded-For": "203.0.113.77"})
    make(0).test_client().get("/healthz", environ_base=PROXY,
                              headers={"X-Forwarded-For": "203.0.113.78"})
    lines = [r.getMessage() for r in caplog.records if r.name == "squares.access"]
    assert lines[0].startswith('203.0.113.77 "GET /healthz" 200 ')  # no query string
    assert lines[1].startswith('10.0.0.2 "GET /healthz" 200 ')


def test_a_forwarded_client_cannot_forge_the_text_access_line(
        make: Any, caplog: pytest.LogCaptureFixture) -> None:
    """Behind a trusted proxy the client's address is what the proxy forwarded, text
    the client may have chosen: the text line escapes it."""
    caplog.set_level("INFO", logger="squares.access")
    make(1).test_client().get("/healthz", environ_base=PROXY,
                              headers={"X-Forwarded-For": '"ev\\"il \\\\ \x1b[2J"'})
    [record] = [r for r in caplog.records if r.name == "squares.access"]
    line = logs.TextFormatter("%(message)s").format(record)
    assert record.client == 'ev"il \\ \x1b[2J'  # type: ignore[attr-defined]
    assert line.startswith('ev\\"il \\\\ \\x1b[2J "GET /healthz" 200 '), line
    assert "\x1b" not in line
