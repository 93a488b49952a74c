"""Security headers (issue 13, item 4) on every response: every route of the URL map,
the pages' and the API's errors (400, 401, 403, 404, 405, 413, 429, 500), static
files (also a 304), HEAD and OPTIONS.

The expected values are spelled out here (not imported from `service.protocol.headers`) so
that a change to the policy has to change this test too.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.routing import Rule
from werkzeug.test import TestResponse

from .helpers import CheckedClient, bearer, create_game

EXPECTED_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
EXPECTED_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}

# Flask's own `/static/<path:filename>` rule: the package has no top-level static
# folder (the assets are the web blueprint's, under /assets), so it answers 404.
NOT_FOUND_ENDPOINTS = {"static"}
# The game this sweep plays on is running: its review is refused until it ends.
RUNNING_GAME_ENDPOINTS = {"api.analysis": 409}
# The sweep has no session: the signed-in player's account is refused.
SESSION_ENDPOINTS = {"api.account": 401, "api.account_passkeys": 401}


def parse_csp(value: str) -> dict[str, list[str]]:
    directives: dict[str, list[str]] = {}
    for part in value.split(";"):
        name, *sources = part.split()
        assert name not in directives, f"{name} given twice in {value!r}"
        directives[name] = sources
    return directives


def assert_security_headers(response: TestResponse, what: str) -> None:
    csp = response.headers.get("Content-Security-Policy")
    assert csp, f"{what}: no Content-Security-Policy"
    assert response.headers.getlist("Content-Security-Policy") == [csp], what
    directives = parse_csp(csp)
    assert directives == EXPECTED_CSP, f"{what}: {csp}"
    for sources in directives.values():
        assert "'unsafe-inline'" not in sources and "'unsafe-eval'" not in sources, what
        assert not any(s.startswith(("http:", "https:", "*")) for s in sources), what
    for name, value in EXPECTED_HEADERS.items():
        assert response.headers.get(name) == value, f"{what}: {name}={response.headers.get(name)}"


@pytest.fixture
def game(client: CheckedClient) -> dict[str, Any]:
    """A real game (7 x 9, seed 7), Ayşe's: its id fills every ``<game_id>``, her name
    every ``<name>``."""
    return create_game(client)


def path_values(rule: Rule, game_id: str) -> dict[str, Any]:
    values: dict[str, Any] = {"game_id": game_id, "step": 1, "filename": "common/style.css",
                              "name": "Ayşe",  # the player of `game`
                              "credential_id": "AAAA",  # nobody's passkey
                              "day": "2026-11-28"}  # a daily challenge's date
    unknown = rule.arguments - values.keys()
    assert not unknown, f"{rule.rule}: give this test a value for {sorted(unknown)}"
    return {name: values[name] for name in rule.arguments}


def method_of(rule: Rule) -> str:
    methods = rule.methods or set()
    if "GET" in methods:
        return "GET"
    return sorted(methods - {"HEAD", "OPTIONS"})[0]


def build_path(app: Flask, rule: Rule, game_id: str) -> str:
    with app.test_request_context():
        adapter = app.url_map.bind("localhost")
        return adapter.build(rule.endpoint, path_values(rule, game_id), method=method_of(rule))


def test_every_route_of_the_url_map_sends_the_security_headers(
    app: Flask, game: dict[str, Any]
) -> None:
    # A plain test client: this sweep is about headers, and it reaches every route,
    # also ones added later; their bodies are checked (by `CheckedClient`) in their
    # own tests, which is where a new route's response schema gets registered.
    client = FlaskClient(app, app.response_class)
    game_id, token = game["game_id"], game["token"]
    # the GETs first: a POST may end the game whose id fills them (a resignation)
    rules = sorted(app.url_map.iter_rules(), key=lambda rule: method_of(rule) != "GET")
    seen: dict[str, int] = {}
    for rule in rules:
        method = method_of(rule)
        path = build_path(app, rule, game_id)
        kwargs: dict[str, Any] = {"headers": bearer(token)}  # the hint needs it too
        if method == "POST":
            kwargs["json"] = ({"player_name": "Bora", "height": 7, "width": 9, "seed": 3}
                              if path == "/api/games" else {})
        response = client.open(path, method=method, **kwargs)
        what = f"{method} {path} ({rule.endpoint}) -> {response.status_code}"
        assert_security_headers(response, what)
        if method == "GET":
            # the filled-in values are real: every GET route answers (but Flask's
            # unused /static), so the headers are checked on the success path too
            want = (404 if rule.endpoint in NOT_FOUND_ENDPOINTS
                    else RUNNING_GAME_ENDPOINTS.get(rule.endpoint,
                                                    SESSION_ENDPOINTS.get(rule.endpoint, 200)))
            assert response.status_code == want, what
        else:
            assert response.status_code < 500, what
        seen[f"{method} {rule.rule}"] = response.status_code
    assert len(seen) == len(rules)
    # the pages, the API, its documents and the assets are all among them
    for key in ("GET /", "GET /games", "GET /games/<game_id>", "GET /highscores",
                "GET /api/docs", "GET /api/openapi.json", "GET /api/games/<game_id>",
                "POST /api/games", "GET /assets/<path:filename>", "GET /healthz"):
        assert key in seen, sorted(seen)


@pytest.mark.parametrize("filename", ["common/style.css", "common/board.js", "play/main.js",
                                      "replay/main.js", "replay/review/main.js",
                                      "docs/api.css"])
def test_every_asset_is_served_with_the_headers(client: CheckedClient, filename: str) -> None:
    response = client.get(f"/assets/{filename}")
    assert response.status_code == 200
    assert_security_headers(response, filename)
    # nosniff makes the browser hold the types to their word
    want = "text/css" if filename.endswith(".css") else "text/javascript"
    assert response.mimetype == want


def test_a_conditional_asset_request_304_has_the_headers(client: CheckedClient) -> None:
    first = client.get("/assets/common/style.css")
    etag = first.headers["ETag"]
    again = client.get("/assets/common/style.css", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert_security_headers(again, "304")


@pytest.mark.parametrize(("method", "path", "status", "json"), [
    ("GET", "/no-such-page", 404, False),
    ("GET", "/games/no-such-game", 404, False),
    ("GET", "/assets/no-such-file.js", 404, False),
    ("GET", "/api/no-such-route", 404, True),
    ("GET", "/api/games/no-such-game", 404, True),
    ("GET", "/api/games/no-such-game/board.txt", 404, True),
    ("POST", "/highscores", 405, False),
    ("DELETE", "/games", 405, False),
    ("DELETE", "/api/games", 405, True),
    ("PUT", "/api/highscores", 405, True),
    ("GET", "/api/games?limit=-1", 400, True),
])
def test_errors_have_the_headers(client: CheckedClient, method: str, path: str,
                                 status: int, json: bool) -> None:
    response = client.open(path, method=method)
    assert response.status_code == status
    assert (response.mimetype == "application/json") is json
    assert_security_headers(response, f"{method} {path}")


def test_an_oversized_body_413_has_the_headers(client: CheckedClient) -> None:
    response = client.post("/api/games", data=b"x" * (65 * 1024),
                           content_type="application/json")
    assert response.status_code == 413
    assert_security_headers(response, "413")


def test_a_token_error_has_the_headers(client: CheckedClient, game: dict[str, Any]) -> None:
    path = f"/api/games/{game['game_id']}/advance"
    missing = client.post(path, json={})
    assert missing.status_code == 401
    assert_security_headers(missing, "401")
    wrong = client.post(path, json={}, headers=bearer("not-the-token"))
    assert wrong.status_code == 403
    assert_security_headers(wrong, "403")


@pytest.mark.parametrize(("path", "json"), [("/highscores", False),
                                             ("/api/highscores", True)])
def test_an_unexpected_500_has_the_headers(app: Flask, client: CheckedClient,
                                           monkeypatch: pytest.MonkeyPatch,
                                           path: str, json: bool) -> None:
    def boom(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(app.extensions["squares"].queries, "high_scores", boom)
    response = client.get(path)
    assert response.status_code == 500
    assert (response.mimetype == "application/json") is json
    assert_security_headers(response, f"500 on {path}")


@pytest.mark.parametrize("method", ["HEAD", "OPTIONS"])
@pytest.mark.parametrize("path", ["/", "/api/games", "/assets/play/main.js"])
def test_head_and_options_have_the_headers(client: CheckedClient, method: str,
                                           path: str) -> None:
    response = client.open(path, method=method)
    assert response.status_code == 200
    assert_security_headers(response, f"{method} {path}")


def test_a_rate_limited_429_has_the_headers(sqlite_database_url: str) -> None:
    from tests.apps import app_for_tests
    from tests.conftest import close_app

    app = app_for_tests({"DATABASE_URL": sqlite_database_url,
                      "SQUARES_LIMIT_CREATE": "1 per minute"})
    try:
        client = FlaskClient(app, app.response_class)
        body = {"player_name": "Bora", "height": 7, "width": 9}
        assert client.post("/api/games", json=body).status_code == 201
        response = client.post("/api/games", json=body)
        assert response.status_code == 429
        assert_security_headers(response, "429")
    finally:
        close_app(app)


def test_the_pages_have_nothing_inline_for_the_policy_to_refuse(
    client: CheckedClient, game: dict[str, Any]
) -> None:
    """No inline scripts, styles, event handlers or javascript: URLs in any page."""
    pages = ["/", "/games", f"/games/{game['game_id']}", "/highscores", "/api/docs",
             "/no-such-page"]
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        for match in re.finditer(r"<script\b([^>]*)>(.*?)</script>", html, re.S | re.I):
            attrs, body = match.groups()
            if re.search(r"""\btype\s*=\s*["']?application/json""", attrs, re.I):
                continue  # a data block (replay.html), never executed
            assert re.search(r"\bsrc\s*=", attrs) and not body.strip(), (path, match[0][:80])
        assert not re.search(r"<style\b", html, re.I), path
        assert not re.search(r"""\sstyle\s*=""", html, re.I), path
        assert not re.search(r"""\son[a-z]+\s*=""", html, re.I), path
        assert "javascript:" not in html.lower(), path
