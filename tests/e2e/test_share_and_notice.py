"""Sharing a game and hearing of one's turn, at 1280 × 800 and 390 × 844, in Debian's
Chromium with the pages' Content-Security-Policy enforced.

- "Copy replay link" (`/games/<id>`) and "Copy watch link" (`/watch/<id>`) put the
  page's public address on the clipboard and say "Link copied"; the test reads the
  clipboard back (``navigator.clipboard.readText``, the context granted
  ``clipboard-read`` / ``clipboard-write``). Where writing is refused (a context
  granted only ``clipboard-read``: Playwright's list is the context's whole set, so
  ``clipboard-write`` is denied) the address is shown in a read-only field, selected.
- An online game between two browsers: while Ann's tab is hidden (``VISIBILITY``) and
  her friend's move makes it her turn, her tab's title says "● Your turn — Squares",
  and her own title comes back when the tab is shown. Having pressed "Notify me when
  it's my turn" (``notifications`` granted), she gets one browser notification per
  turn. Playwright cannot see the system's notifications, so an init script wraps
  ``window.Notification`` and records each one the page constructs, and each
  ``window.focus()`` (a click on the notification brings the tab forward).
- The permission is asked only on the button's click, never on page load; where it is
  refused or the browser has no Notification API, the button says so.
- axe-core finds no serious or critical violation on the pages as changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .browsers import Browser
from .conftest import (
    SIZES,
    VISIBILITY,
    LiveServer,
    axe_violations,
    new_context,
    play_by_api,
    screenshot,
    watch_page,
)
from .helpers import NEWER_AND_DRAWN, own
from .test_csp import poll

pytestmark = pytest.mark.e2e

TURN_TITLE = "● Your turn — Squares"
OWN_TITLE = re.compile(r"^Squares — round \d+, Ann, stage \d$")  # the play page's, on her turn
ASK = "Notify me when it's my turn"

# Records what the page does with notifications: every one it constructs (its title,
# body, whether it was closed) in `window.__notices`, the objects in `__noticeObjects`
# (a test clicks one), every permission request in `__asked`, every window.focus() in
# `__focused`. The notifications are still made by the browser.
RECORD_NOTICES = """
(() => {
  window.__notices = [];
  window.__noticeObjects = [];
  window.__asked = 0;
  window.__focused = 0;
  const focus = window.focus;
  window.focus = function () {
    window.__focused += 1;
    return focus.call(window);
  };
  const Native = window.Notification;
  if (typeof Native !== "function") return;
  const ask = Native.requestPermission;
  Native.requestPermission = function (...args) {
    window.__asked += 1;
    return ask.apply(Native, args);
  };
  window.Notification = class extends Native {
    constructor(title, options) {
      super(title, options);
      this.__record = { title, body: (options && options.body) || "", closed: false };
      window.__notices.push(this.__record);
      window.__noticeObjects.push(this);
    }
    close() {
      this.__record.closed = true;
      super.close();
    }
  };
})();
"""
NO_NOTIFICATIONS = "delete window.Notification;"
SELECTED = """() => {
  const field = document.getElementById("share-url");
  return document.activeElement === field && field.selectionStart === 0
    && field.selectionEnd === field.value.length;
}"""
FITS = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(params=sorted(SIZES))
def size(request: Any) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def game(live_server: LiveServer) -> str:
    """A game against the computer in its second round, played through the API."""
    created = live_server.post_json("/api/games", {"player_name": "Selin", "seed": 21,
                                                   "height": 7, "width": 9, "difficulty": "easy"})
    play_by_api(live_server, created["game_id"], created["token"], rounds=1)
    return str(created["game_id"])


def checked(browser: Any, live_server: LiveServer, size: str, errors: list[str],
            **options: Any) -> tuple[Any, Any]:
    """A context of `size` (with `options`, e.g. permissions) and a page of it, its
    policy enforced and its errors noted in `errors`."""
    context = new_context(browser, live_server.base_url, size, bypass_csp=False, **options)
    page = watch_page(context.new_page(), live_server.base_url, errors,
                      console=("error", "assert"), csp=True)
    return context, page


def share_pages(game_id: str) -> list[tuple[str, str, str, str]]:
    """(name, path, the button's name, a selector there once the page is ready)."""
    return [("replay", f"/games/{game_id}", "Copy replay link", "#moves a[aria-current]"),
            ("watch", f"/watch/{game_id}", "Copy watch link", "#watch-root[data-opened]")]


def test_copy_link_puts_the_page_address_on_the_clipboard(
    browser: Any, live_server: LiveServer, game: str, size: str
) -> None:
    errors: list[str] = []
    context, page = checked(browser, live_server, size, errors,
                            permissions=["clipboard-read", "clipboard-write"])
    try:
        for name, path, label, ready in share_pages(game):
            page.goto(path)
            page.wait_for_selector(ready)
            page.evaluate("() => navigator.clipboard.writeText('something else')")
            page.get_by_role("button", name=label).click()
            expect(page.locator("#share-note")).to_have_text("Link copied")
            assert page.evaluate("() => navigator.clipboard.readText()") == live_server.base_url + path
            expect(page.locator("#share-url")).to_be_hidden()
            assert axe_violations(page) == [], name
            screenshot(page, f"share-{name}")
        assert page.evaluate("window.__cspViolations") == []
        assert errors == []
    finally:
        context.close()


def test_copy_link_shows_the_address_selected_when_the_clipboard_is_refused(
    browser: Any, live_server: LiveServer, game: str, size: str
) -> None:
    errors: list[str] = []
    context, page = checked(browser, live_server, size, errors, permissions=["clipboard-read"])
    try:
        for name, path, label, ready in share_pages(game):
            page.goto(path)
            page.wait_for_selector(ready)
            page.get_by_role("button", name=label).click()
            field = page.locator("#share-url")
            expect(field).to_be_visible()
            expect(field).to_have_value(live_server.base_url + path)
            assert page.evaluate(SELECTED), name
            expect(page.locator("#share-note")).to_contain_text("Copy the selected address")
            assert page.evaluate(FITS), name
            assert axe_violations(page) == [], name
            screenshot(page, f"share-refused-{name}")
        assert errors == []
    finally:
        context.close()


# -- "Your turn" in a hidden tab ----------------------------------------------------------


def online_game(live_server: LiveServer) -> dict[str, Any]:
    """Ann's online game on 7 × 9 (a practice seed), waiting for her friend."""
    created: dict[str, Any] = live_server.post_json("/api/games", {
        "player_name": "Ann", "mode": "online", "height": 7, "width": 9, "seed": 8})
    return created


def play_turn(live_server: LiveServer, game_id: str, token: str) -> dict[str, Any]:
    """The rest of the turn of the seat to move, through the API with its token (stages
    1 and 3 ended, stage 2's first free line: no hint); the state once the other seat
    is to move. A page open on that seat may end a stage without a choice by itself
    meanwhile: a move it beat is refused (409) and the game read again."""
    state: dict[str, Any] = live_server.get_json(f"/api/games/{game_id}")["state"]
    seat = state["turn"]
    for _ in range(50):
        if state["turn"] != seat or state["over"]:
            break
        body: dict[str, Any] = {"expected_version": state["version"]}
        lines = state["legal"]["lines"] if state["stage"] == 2 else []
        if lines:
            body.update(x=lines[0][0], y=lines[0][1])
        status, answer = live_server.send(
            "POST", f"/api/games/{game_id}/{'lines' if lines else 'advance'}", body, token)
        assert status in (200, 409), (status, answer)
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert state["turn"] != seat and not state["over"], state
    return state


def shown(page: Any, version: int) -> None:
    """Wait until the play page shows `version` or later (its player's page may have
    moved on by itself since), drawn whole."""
    poll(page, NEWER_AND_DRAWN, version - 1)


def set_visibility(page: Any, value: str) -> None:
    page.evaluate("v => window.__setVisibility(v)", value)


@pytest.fixture
def friend(browser: Any, live_server: LiveServer) -> Iterator[Browser]:
    """Bob's browser: his own context and client address."""
    made = Browser(browser, live_server, address="203.0.113.12")
    try:
        yield made
    finally:
        made.context.close()


def test_a_hidden_tab_hears_of_its_turn_by_title_and_notification(
    browser: Any, live_server: LiveServer, friend: Browser, size: str
) -> None:
    created = online_game(live_server)
    game_id = created["game_id"]
    errors: list[str] = []
    context, ann = checked(browser, live_server, size, errors, permissions=["notifications"])
    try:
        ann.add_init_script(VISIBILITY + RECORD_NOTICES)
        own(ann, created, seat=1)
        ann.goto(f"/play/{game_id}")
        expect(ann.locator("#board[data-version]")).to_have_count(1)
        button = ann.get_by_role("button", name=ASK)
        expect(button).to_be_visible()  # while the friend is awaited too

        # Bob joins through the invite link, in his own browser.
        bob = friend.page
        bob.goto(created["invite"]["url"])
        bob.fill("#join-name", "Bob")
        bob.press("#join-name", "Enter")
        expect(bob).to_have_url(f"{live_server.base_url}/play/{game_id}")
        tokens = {1: created["token"], 2: friend.token(game_id)}
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
        if state["turn"] == 1:  # Ann was drawn to move first: her turn, tab shown
            state = play_turn(live_server, game_id, tokens[1])
        shown(ann, state["version"])
        assert state["turn"] == 2

        ann.click("#notify-btn")
        expect(button).to_have_attribute("aria-pressed", "true")
        expect(ann.locator("#notify-note")).to_contain_text("when it is your turn")
        assert ann.evaluate("window.__asked") == 0  # granted already: nothing to ask
        assert axe_violations(ann) == []
        screenshot(ann, "notice-on")

        # Hidden, Bob to move: the title is the page's own until Bob's turn ends.
        set_visibility(ann, "hidden")
        assert ann.title().startswith("Squares — round")
        state = play_turn(live_server, game_id, tokens[2])
        expect(ann).to_have_title(TURN_TITLE)
        shown(ann, state["version"])  # her page learned it while hidden
        assert ann.evaluate("window.__notices") == [
            {"title": TURN_TITLE, "body": f"Bob has moved: your turn (round {state['round']}).",
             "closed": False}]
        # A click on the notification brings the tab forward and closes it.
        ann.evaluate("window.__noticeObjects[0].dispatchEvent(new Event('click'))")
        assert ann.evaluate("window.__focused") == 1
        assert ann.evaluate("window.__notices[0].closed") is True

        # Shown again: her own title comes back.
        set_visibility(ann, "visible")
        expect(ann).to_have_title(OWN_TITLE)

        # One notification per turn: hidden through her own turn (played elsewhere)
        # nothing is said; Bob's next turn brings the next one.
        set_visibility(ann, "hidden")
        state = play_turn(live_server, game_id, tokens[1])
        shown(ann, state["version"])
        expect(ann).to_have_title(re.compile(r"^Squares — round \d+, Bob, stage \d$"))
        assert len(ann.evaluate("window.__notices")) == 1
        state = play_turn(live_server, game_id, tokens[2])
        expect(ann).to_have_title(TURN_TITLE)
        shown(ann, state["version"])
        assert [n["title"] for n in ann.evaluate("window.__notices")] == [TURN_TITLE] * 2
        set_visibility(ann, "visible")
        expect(ann).to_have_title(OWN_TITLE)
        assert ann.evaluate("window.__notices[1].closed") is True  # the board says it now
        assert ann.evaluate("window.__cspViolations") == []
        assert errors == []
        friend.assert_clean("Bob")
    finally:
        context.close()


def test_notifications_are_asked_for_on_a_click_only_and_a_refusal_is_said(
    browser: Any, live_server: LiveServer, size: str
) -> None:
    created = online_game(live_server)
    errors: list[str] = []
    # No permission granted: headless Chromium refuses when asked.
    context, page = checked(browser, live_server, size, errors)
    try:
        page.add_init_script(RECORD_NOTICES)
        own(page, created, seat=1)
        page.goto(f"/play/{created['game_id']}")
        button = page.locator("#notify-btn")
        expect(button).to_have_text(ASK)
        expect(button).to_be_enabled()
        assert page.evaluate("window.__asked") == 0  # never on page load
        button.click()
        expect(button).to_have_text("Notifications are blocked for this site")
        expect(button).to_be_disabled()
        expect(page.locator("#notify-note")).to_contain_text("blocks notifications")
        assert page.evaluate("window.__asked") == 1
        assert axe_violations(page) == []

        # A browser without the Notification API: the button says so, nothing breaks.
        page.add_init_script(NO_NOTIFICATIONS)
        page.reload()
        expect(button).to_have_text("Notifications are not available in this browser")
        expect(button).to_be_disabled()
        expect(page.locator("#board[data-version]")).to_have_count(1)
        assert page.evaluate("window.__cspViolations") == []
        assert errors == []
    finally:
        context.close()
