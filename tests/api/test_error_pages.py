"""The site's own error pages (issue 26, "error pages"), through Flask's test client.

Outside ``/api`` an HTTP error (400, 404, 405, 410, 429, 500, 503) is a page of the
site: HTML with the site header and navigation, a title, a sentence in plain words
that starts with a capital letter, links back to Play and the replays, the right
status, the security headers and its own headers (``Allow``, ``Retry-After``), and
never a traceback or the error's text. Under ``/api`` the same errors keep the
JSON error shape (the `CheckedClient` validates each against `ErrorSchema`).

410, 429, 500 and 503 come from test-only routes registered on the test's app (no
page raises them today), the 429 of a page also from a real rate limit.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.exceptions import Gone, TooManyRequests
from werkzeug.test import TestResponse

from service.errors import DatabaseUnavailable
from tests.apps import app_for_tests
from tests.conftest import close_app

from .helpers import CheckedClient, assert_error
from .test_headers import assert_security_headers

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
SECRET = "the-secret-in-the-traceback"
UNKNOWN = "0123456789abcdef0123456789abcdef"


def _gone() -> Any:
    raise Gone()


def _too_many() -> Any:
    raise TooManyRequests(retry_after=7)


def _broken() -> Any:
    raise RuntimeError(SECRET)


def _outage() -> Any:
    # what the store raises when its database fails (service.store.outages)
    raise DatabaseUnavailable("disk I/O error") from sqlite3.OperationalError(
        f"disk I/O error ({SECRET})")


def _limited() -> str:
    return "fine"


TEST_ROUTES = {"gone": _gone, "too-many": _too_many, "broken": _broken, "outage": _outage}


@pytest.fixture
def app(sqlite_database_url: str) -> Iterator[Flask]:
    """The real app with test-only routes, each under ``/test-only/`` (a page) and
    ``/api/test-only/`` (the API); ``/test-only/limited`` is limited to 1 per minute."""
    app = app_for_tests({"DATABASE_URL": sqlite_database_url})
    app.test_client_class = CheckedClient
    for name, view in TEST_ROUTES.items():
        app.add_url_rule(f"/test-only/{name}", f"test_page_{name}", view)
        app.add_url_rule(f"/api/test-only/{name}", f"test_api_{name}", view)
    app.add_url_rule("/test-only/limited", "test_limited", _limited)
    app.extensions["squares_limits"].limit_endpoint("test_limited", "1 per minute")
    yield app
    close_app(app)


@pytest.fixture
def client(app: Flask) -> CheckedClient:
    client: CheckedClient = app.test_client()  # type: ignore[assignment]
    return client


def text_of(html: str, css_class: str) -> str:
    found = re.search(rf'<p class="{css_class}">(.*?)</p>', html, re.S)
    assert found, f"no {css_class} in {html}"
    return re.sub(r"<[^>]+>", "", found.group(1)).strip()


def assert_error_page(response: TestResponse, status: int, title: str) -> str:
    """A page of the site: the status, HTML, the header, the title, a sentence that
    starts with a capital letter and ends a sentence, the links back, the security
    headers, no traceback. The page's HTML."""
    what = f"{response.request.method} {response.request.path}"
    assert response.status_code == status, (what, response.status_code)
    assert response.mimetype == "text/html", what
    html = response.get_data(as_text=True)
    assert '<header class="top">' in html and "<nav>" in html, what
    assert f'<h1 id="error-title">{title}</h1>' in html, what
    assert f"<title>Squares — {title.lower()}</title>" in html, what
    sentence = text_of(html, "error-sentence")
    assert sentence[0].isupper() and sentence.endswith("."), (what, sentence)
    assert re.search(r'<nav class="error-links"[^>]*>\s*<a href="/">Play</a>\s*'
                     r'<a href="/games">Replays</a>', html), what
    # Nothing needs JavaScript: the only scripts are every page's colour scheme and
    # header toggles (issue 35), which the page does without.
    scripts = re.findall(r"<script\b[^>]*>", html)
    assert scripts == ['<script src="/assets/common/theme.js">',
                       '<script type="module" src="/assets/common/header.js">'], (what, scripts)
    for leak in ("Traceback", "Werkzeug", "werkzeug", SECRET):
        assert leak not in html, (what, leak)
    assert_security_headers(response, what)
    return html


@pytest.mark.parametrize(("path", "title"), [
    ("/no/such/path", "Page not found"),
    ("/nothing", "Page not found"),
    (f"/play/{UNKNOWN}", "No such game"),
    (f"/games/{UNKNOWN}", "No such game"),
    (f"/watch/{UNKNOWN}", "No such game"),
    (f"/join/{UNKNOWN}", "No such game"),
])
def test_a_404_is_the_sites_page(client: CheckedClient, path: str, title: str) -> None:
    html = assert_error_page(client.get(path, headers=BROWSER), 404, title)
    assert "Error 404" in html
    if title == "No such game":
        assert f"<code>{UNKNOWN}</code>" in html  # the id, to check it for a typo


def test_a_request_without_an_accept_header_gets_the_page(client: CheckedClient) -> None:
    assert_error_page(client.get("/no/such/path"), 404, "Page not found")


def test_an_unknown_id_is_shown_as_text_and_cut(client: CheckedClient) -> None:
    evil = "<i>x" + "y" * 200
    html = assert_error_page(client.get(f"/play/{evil}", headers=BROWSER), 404,
                             "No such game")
    assert "<i>x" not in html and "&lt;i&gt;x" in html
    assert "y" * 200 not in html


def test_a_405_page_names_the_allowed_methods(client: CheckedClient) -> None:
    response = client.post("/games", headers=BROWSER)
    assert_error_page(response, 405, "Not allowed here")
    assert {m.strip() for m in response.headers["Allow"].split(",")} >= {"GET"}
    api = client.put("/api/games", headers=BROWSER)
    assert_error(api, 405, "method_not_allowed")
    assert api.headers["Allow"]
    assert_security_headers(api, "405 under /api")


def test_a_410_page(client: CheckedClient) -> None:
    assert_error_page(client.get("/test-only/gone", headers=BROWSER), 410, "Gone for good")
    api = client.get("/api/test-only/gone", headers=BROWSER)
    assert_error(api, 410, "http_410")
    assert_security_headers(api, "410 under /api")


def test_a_429_page_keeps_retry_after(client: CheckedClient) -> None:
    response = client.get("/test-only/too-many", headers=BROWSER)
    html = assert_error_page(response, 429, "Too many requests")
    assert response.headers["Retry-After"] == "7"
    assert "Try again in 7 seconds." in text_of(html, "error-sentence")
    api = client.get("/api/test-only/too-many", headers=BROWSER)
    assert_error(api, 429, "rate_limited")
    assert_security_headers(api, "429 under /api")


def test_a_rate_limited_page_is_a_429_page(client: CheckedClient) -> None:
    assert client.get("/test-only/limited", headers=BROWSER).status_code == 200
    response = client.get("/test-only/limited", headers=BROWSER)
    html = assert_error_page(response, 429, "Too many requests")
    seconds = int(response.headers["Retry-After"])
    assert 0 < seconds <= 60
    assert f"Try again in {seconds} seconds." in text_of(html, "error-sentence")
    assert "error-detail" not in html  # not the limiter's "at most 1 per 1 minute ..."


def test_the_apis_real_rate_limit_is_json(sqlite_database_url: str) -> None:
    app = app_for_tests({"DATABASE_URL": sqlite_database_url,
                      "SQUARES_LIMIT_CREATE": "1 per minute"})
    app.test_client_class = CheckedClient
    try:
        client = app.test_client()
        body = {"player_name": "Bora", "height": 7, "width": 9}
        assert client.post("/api/games", json=body, headers=BROWSER).status_code == 201
        response = client.post("/api/games", json=body, headers=BROWSER)
        assert_error(response, 429, "rate_limited")
        assert int(response.headers["Retry-After"]) > 0
        assert_security_headers(response, "429 under /api")
    finally:
        close_app(app)


def test_a_500_page_shows_no_traceback(client: CheckedClient,
                                       caplog: pytest.LogCaptureFixture) -> None:
    assert_error_page(client.get("/test-only/broken", headers=BROWSER), 500,
                      "Something went wrong")
    assert SECRET in caplog.text  # logged, with its traceback
    api = client.get("/api/test-only/broken", headers=BROWSER)
    assert_error(api, 500, "internal_error")
    assert SECRET not in api.get_data(as_text=True)
    assert_security_headers(api, "500 under /api")


def test_a_503_page_keeps_the_outages_retry_after(client: CheckedClient) -> None:
    response = client.get("/test-only/outage", headers=BROWSER)
    html = assert_error_page(response, 503, "Back in a moment")
    assert response.headers["Retry-After"] == "2"
    assert "Try again in 2 seconds." in text_of(html, "error-sentence")
    api = client.get("/api/test-only/outage", headers=BROWSER)
    assert_error(api, 503, "unavailable")
    assert api.headers["Retry-After"] == "2"


def test_a_400_page_says_what_the_view_said(client: CheckedClient) -> None:
    html = assert_error_page(client.get("/games?page=0", headers=BROWSER), 400, "Bad request")
    assert "Reason: page must be a number from 1 to" in text_of(html, "error-detail")


@pytest.mark.parametrize("path", ["/no/such/path", f"/play/{UNKNOWN}"])
def test_a_client_that_prefers_json_gets_json_off_the_api_too(client: CheckedClient,
                                                              path: str) -> None:
    response = client.get(path, headers={"Accept": "application/json"})
    assert_error(response, 404, "not_found")


@pytest.mark.parametrize("path", ["/api/nothing", f"/api/games/{UNKNOWN}"])
def test_api_404s_stay_json_for_a_browser(client: CheckedClient, path: str) -> None:
    response = client.get(path, headers=BROWSER)
    assert response.status_code == 404 and response.mimetype == "application/json"
    assert_security_headers(response, path)


def test_a_page_that_cannot_be_rendered_falls_back_to_a_plain_one(
        client: CheckedClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import service.web.errors as web_errors

    def broken(*_: Any, **__: Any) -> str:
        raise RuntimeError("template gone")

    monkeypatch.setattr(web_errors, "render_template", broken)
    response = client.get("/no/such/path", headers=BROWSER)
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert_security_headers(response, "the fallback 404")
