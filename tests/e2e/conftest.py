"""Browser tests: the real app on a loopback port, a temp SQLite file, Debian's Chromium.

The app and its database (a copy of the root conftest's migrated SQLite template)
come from ``tests/conftest.py``; the reliability tests' gunicorn and databases from
``reliability_helpers.py``.

One server and one browser serve the whole e2e session; every test gets a fresh
browser context (so its own localStorage) and plays its own games. Screenshots go
to the test's ``tmp_path`` and their paths are printed.
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from squares_testing.inprocess import asgi_server
from tests.conftest import make_app
from tests.databases import copy_sqlite

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@dataclass(frozen=True)
class LiveServer:
    base_url: str
    database_url: str

    def get_json(self, path: str, token: str | None = None) -> Any:
        """GET a JSON document from the running app over real HTTP (with `token` as
        the bearer token, e.g. an online game's hint for the seat to move)."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        request = urllib.request.Request(self.base_url + path, headers=headers)
        with urllib.request.urlopen(request, timeout=30) as resp:
            return json.loads(resp.read().decode("utf-8"))

    def post_json(self, path: str, body: Any, token: str | None = None) -> Any:
        """POST a JSON body over real HTTP; the answer's JSON (errors raise)."""
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base_url + path, data=json.dumps(body).encode(),
                                         headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=30) as resp:
            return json.loads(resp.read().decode("utf-8"))


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory,
                sqlite_template: Path) -> Iterator[LiveServer]:
    url = copy_sqlite(sqlite_template, tmp_path_factory.mktemp("e2e-db") / "squares.db")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DATABASE_URL", url)
        # One session-wide server that every page test shares: no rate limits here
        # (tests/api/test_public_surface.py checks them).
        mp.setenv("SQUARES_RATELIMIT_ENABLED", "0")
        # nor a cap on the games one address has going (tests/api/test_retention.py)
        mp.setenv("SQUARES_ACTIVE_GAMES_PER_CLIENT", "0")
        # Every browser here is on 127.0.0.1: trusting one proxy lets a test give a
        # browser context an address of its own (``X-Forwarded-For`` in its
        # ``extra_http_headers``), so two spectators count as two viewers.
        mp.setenv("SQUARES_TRUSTED_PROXIES", "1")
        app = make_app(url)
        with asgi_server(app) as port:
            yield LiveServer(f"http://127.0.0.1:{port}", url)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.fail("Debian's chromium is not installed (./dev test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    # Playwright's wait_for_function evaluates its check with eval(), which the
    # pages' Content-Security-Policy forbids; tests/e2e/test_csp.py enforces it.
    context = browser.new_context(
        viewport={"width": 1280, "height": 820}, base_url=live_server.base_url,
        bypass_csp=True,
    )
    context.set_default_timeout(20_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))

    def refuse(route: Any) -> None:
        errors.append(f"external request: {route.request.url}")
        route.abort()

    # Every asset must come from the app itself (no CDN, no network): refuse the rest.
    pg.route(lambda u: not u.startswith(live_server.base_url + "/"), refuse)
    try:
        yield pg
        assert errors == [], errors
    finally:
        context.close()


def screenshot(page: Any, path: Path) -> Path:
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot: {path}")
    return path
