"""The live games list in Chromium (issue 26, "/live never updates"): opened once,
``/live`` follows the games without a reload. live.js polls ``/live.json`` (here
every 300 ms instead of 5 s); a new game gets a row, a move updates its step count
and scores, a claimed seat gets its name, the latest move goes first, and a game
that is finished or abandoned leaves the list. A failed poll leaves the list as it
was and is retried; a hidden tab does not poll and catches up when shown. The
polite status region says which games came and went, never that a poll happened.

These tests run their own server on their own copy of the database (the list shows
every active game, and the sweep abandons every game due), with the page's
Content-Security-Policy enforced: waits go through `expect` (see test_csp.py).
Screenshots of the page at a desktop and a phone size go to ``build/screenshots``
(or ``$SQUARES_SCREENSHOTS``): ``live-1280x800.png``, ``live-390x844.png``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from service.services import Services
from service.store import utcnow
from squares_testing.inprocess import app_server
from tests.apps import app_for_tests
from tests.conftest import close_app, services_of
from tests.databases import copy_sqlite

from .conftest import (
    VISIBILITY,
    LiveServer,
    axe_violations,
    browser_context,
    play_by_api,
    screenshot,
)
from .test_csp import Watch
from .test_watch import one_action

pytestmark = pytest.mark.e2e

POLL_MS = 300
ROWS = "#live-table tbody tr"

class Site:
    """The test's own server: its address (`LiveServer`'s HTTP helpers) and app."""

    def __init__(self, server: LiveServer, app: Flask) -> None:
        self.server = server
        self.app = app

    @property
    def services(self) -> Services:
        return services_of(self.app)

    def new_game(self, name: str, **body: Any) -> dict[str, Any]:
        """A game through the API: 7 x 9, against the easy computer unless given."""
        body = {"player_name": name, "height": 7, "width": 9} | body
        if body.get("mode", "vs_computer") == "vs_computer":
            body.setdefault("difficulty", "easy")
        created: dict[str, Any] = self.server.post_json("/api/games", body)
        return created

    def abandon_all(self) -> None:
        """The sweep a retention time from now: every active game is abandoned."""
        self.services.retention.abandon_stale(now=utcnow() + self.services.abandon_after
                                    + timedelta(minutes=1))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[Site]:
    url = copy_sqlite(sqlite_template, tmp_path_factory.mktemp("live-page") / "squares.db")
    app = app_for_tests({"DATABASE_URL": url, "SQUARES_LIVE_POLL_MS": POLL_MS,
                      "SQUARES_RATELIMIT_ENABLED": "0"})
    app.extensions["squares"].active_games_per_client = 0
    try:
        with app_server(app) as port:  # the list page polls the app; no stream here
            yield Site(LiveServer(f"http://127.0.0.1:{port}", url), app)
    finally:
        close_app(app)


@pytest.fixture
def browsing(browser: Any, site: Site) -> Iterator[tuple[Any, Watch]]:
    """A page on the site with its CSP enforced, and its `Watch`."""
    with browser_context(browser, site.server.base_url, bypass_csp=False) as context:
        page = context.new_page()
        page.add_init_script(VISIBILITY)
        yield page, Watch(page, site.server.base_url)


def row(page: Any, game_id: str) -> Any:
    return page.locator(f"{ROWS}[data-game-id='{game_id}']")


def expect_row(page: Any, game_id: str, state: dict[str, Any]) -> None:
    """The row of `game_id` shows `state` (the API's): steps, rounds and scores."""
    shown = row(page, game_id)
    version, rounds = state["version"], state["round"]
    expect(shown).to_have_attribute("data-version", str(version))
    expect(shown.locator(".length")).to_have_text(
        f"{version} step{'' if version == 1 else 's'} · {rounds} round{'' if rounds == 1 else 's'}")
    expect(shown.locator(".score-1")).to_have_text(str(state["scores"][0]))
    expect(shown.locator(".score-2")).to_have_text(str(state["scores"][1]))


def test_the_list_follows_new_games_moves_and_ends_without_a_reload(
    browsing: tuple[Any, Watch], site: Site
) -> None:
    page, watch = browsing
    server = site.server
    site.abandon_all()
    page.goto("/live")
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads
    expect(page.locator("#live-empty")).to_be_visible()
    expect(page.locator("#live-list")).to_be_hidden()

    # a new game appears, then its step count and scores follow its moves
    ada = site.new_game("Ada", seed=11)
    expect(row(page, ada["game_id"])).to_be_visible()
    expect(page.locator("#live-empty")).to_be_hidden()
    expect_row(page, ada["game_id"], ada["state"])
    expect(row(page, ada["game_id"]).locator(".name-2")).to_have_text("Computer")
    # a human's name links to their page, a computer's to none
    expect(row(page, ada["game_id"]).locator(".name-1")).to_have_attribute("href", "/players/Ada")
    assert not row(page, ada["game_id"]).locator(".name-2").evaluate(
        "a => a.hasAttribute('href')")
    expect(row(page, ada["game_id"]).locator(".kind")).to_have_text("easy practice")
    expect(page.locator("#live-news")).to_have_text("New game: Ada vs Computer.")
    expect(page.locator("#live-caption")).to_have_text(
        "1 game with a move in the last 10 minutes, the latest move first.")
    for _ in range(3):
        state = one_action(server, ada["game_id"], ada["token"])
    assert state["version"] > 3
    expect_row(page, ada["game_id"], state)

    # an online game: "(open seat)" until the friend claims it, then the name
    nil = site.new_game("Nil", mode="online", seed=5)
    expect(row(page, nil["game_id"]).locator(".name-2")).to_have_text("(open seat)")
    expect(page.locator(ROWS).first).to_have_attribute("data-game-id", nil["game_id"])
    server.post_json(f"/api/games/{nil['game_id']}/claim",
                     {"code": nil["invite"]["code"], "name": "Bora"})
    expect(row(page, nil["game_id"]).locator(".name-2")).to_have_text("Bora")
    expect(row(page, nil["game_id"]).locator(".name-2")).to_have_attribute("href", "/players/Bora")
    expect(row(page, nil["game_id"])).to_have_attribute("data-version", "2")

    # a move puts its game first; the link that has the focus keeps it
    link = row(page, ada["game_id"]).locator("a.watch-link")
    link.focus()
    state = one_action(server, ada["game_id"], ada["token"])
    expect(page.locator(ROWS).first).to_have_attribute("data-game-id", ada["game_id"])
    expect_row(page, ada["game_id"], state)
    expect(link).to_be_focused()

    # a finished game leaves the list
    ece = site.new_game("Ece", seed=21)
    expect(row(page, ece["game_id"])).to_be_visible()
    play_by_api(server, ece["game_id"], ece["token"], rounds=10_000)
    assert server.get_json(f"/api/games/{ece['game_id']}")["state"]["over"]
    expect(row(page, ece["game_id"])).to_have_count(0)
    expect(page.locator("#live-news")).to_have_text("No longer being played: Ece vs Computer.")
    expect(page.locator(ROWS)).to_have_count(2)

    # the sweep abandons the games untouched since `cut` (SQUARES_ABANDON_AFTER
    # later): they leave the list, a game moved after it stays
    time.sleep(0.01)
    cut = utcnow()
    time.sleep(0.01)
    umut = site.new_game("Umut", seed=9)
    expect(row(page, umut["game_id"])).to_be_visible()
    swept = site.services.retention.abandon_stale(now=cut + site.services.abandon_after)
    assert sorted(g for g, _ in swept.abandoned) == sorted([ada["game_id"], nil["game_id"]])
    expect(row(page, ada["game_id"])).to_have_count(0)
    expect(row(page, nil["game_id"])).to_have_count(0)
    expect(page.locator(ROWS)).to_have_count(1)
    expect(row(page, umut["game_id"])).to_be_visible()
    expect(page.locator("#live-news")).to_have_text(
        "2 games no longer being played: Ada vs Computer; Nil vs Bora.")

    # the last one abandoned: "Nobody is playing right now."
    site.abandon_all()
    expect(page.locator("#live-empty")).to_be_visible()
    expect(page.locator("#live-list")).to_be_hidden()
    expect(page.locator("#live-caption")).to_have_text(
        "0 games with a move in the last 10 minutes, the latest move first.")
    assert page.evaluate("window.__sameDocument") is True
    watch.assert_clean("/live")


def test_a_failed_poll_changes_nothing_and_a_hidden_tab_does_not_poll(
    browsing: tuple[Any, Watch], site: Site
) -> None:
    page, watch = browsing
    server = site.server
    site.abandon_all()
    game = site.new_game("Selin", seed=31)
    polls: list[float] = []
    page.on("request", lambda r: polls.append(time.monotonic())
            if r.url.endswith("/live.json") else None)
    page.goto("/live")
    expect(row(page, game["game_id"])).to_be_visible()
    expect_row(page, game["game_id"], game["state"])
    rows_before = page.locator(ROWS).count()

    # the server cannot be reached, then answers an error page: nothing changes but
    # a quiet note; the list stays as it was
    failed: list[str] = []

    def fail(route: Any) -> None:
        failed.append(route.request.url)
        if len(failed) % 2:
            route.abort()
        else:
            route.fulfill(status=503, content_type="text/html", body="<h1>busy</h1>")

    page.route("**/live.json", fail)
    deadline = time.monotonic() + 10
    while not failed:  # no poll that was under way can bring the move below
        assert time.monotonic() < deadline, "no poll was made"
        page.wait_for_timeout(50)
    state = one_action(server, game["game_id"], game["token"])
    expect(page.locator("#live-note")).to_be_visible()
    expect(page.locator("#live-note")).to_have_text(
        "The list could not be refreshed just now; trying again…")
    assert len(failed) >= 2
    expect(page.locator(ROWS)).to_have_count(rows_before)
    expect_row(page, game["game_id"], game["state"])  # not updated, not emptied
    expect(page.locator("#live-news")).to_have_text("")
    # retried later, further apart: then the list catches up and the note goes
    page.unroute("**/live.json")
    expect(page.locator("#live-note")).to_be_hidden()
    expect_row(page, game["game_id"], state)

    # hidden: no poll at all (the move waits); shown: asked at once
    page.evaluate("window.__setVisibility('hidden')")
    page.wait_for_timeout(100)
    count = len(polls)
    state = one_action(server, game["game_id"], game["token"])
    page.wait_for_timeout(8 * POLL_MS)
    assert len(polls) == count
    expect(row(page, game["game_id"])).not_to_have_attribute("data-version",
                                                             str(state["version"]))
    page.evaluate("window.__setVisibility('visible')")
    expect_row(page, game["game_id"], state)
    assert len(polls) > count
    site.abandon_all()

    # Chromium logs the two refused polls as console errors, on purpose here.
    watch.messages = [m for m in watch.messages if "Failed to load resource" not in m]
    watch.assert_clean("/live")


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
def test_the_list_is_accessible_fits_the_screen_and_is_photographed(
    browser: Any, site: Site, width: int, height: int
) -> None:
    server = site.server
    site.abandon_all()
    mid = site.new_game("Selin Yıldırım-Karaosmanoğlu", seed=14, height=15, width=25,
                        difficulty="moderate")
    play_by_api(server, mid["game_id"], mid["token"], rounds=1)
    site.new_game("Nil", mode="online", height=11, width=17)
    site.new_game("Deniz", mode="two_players", second_name="Ece", seed=4)
    ranked = site.new_game("Umut", height=19, width=33, difficulty="hard")
    one_action(server, ranked["game_id"], ranked["token"])
    try:
        with browser_context(browser, server.base_url, (width, height), bypass_csp=False) as context:
            page = context.new_page()
            watch = Watch(page, server.base_url)
            polls: list[str] = []
            page.on("request", lambda r: polls.append(r.url) if r.url.endswith("/live.json")
                    else None)
            page.goto("/live")
            expect(page.locator(ROWS)).to_have_count(4)
            expect(page.locator("#live-news")).to_have_attribute("role", "status")
            deadline = time.monotonic() + 10
            while len(polls) < 3 and time.monotonic() < deadline:
                page.wait_for_timeout(POLL_MS)
            assert len(polls) >= 3
            expect(page.locator("#live-news")).to_have_text("")  # polls are not news
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert axe_violations(page) == []
            screenshot(page, "live")
            watch.assert_clean("/live")
    finally:
        site.abandon_all()


def test_the_page_without_javascript_is_the_list_when_loaded(browser: Any, site: Site) -> None:
    site.abandon_all()
    game = site.new_game("Ayla", seed=3)
    try:
        with browser_context(browser, site.server.base_url, java_script_enabled=False) as context:
            page = context.new_page()
            page.goto("/live")
            expect(row(page, game["game_id"])).to_be_visible()
            expect(row(page, game["game_id"]).locator(".length")).to_have_text("1 step · 1 round")
            expect(page.locator("#live-empty")).to_be_hidden()
            expect(page.locator("#live-note")).to_be_hidden()
    finally:
        site.abandon_all()
