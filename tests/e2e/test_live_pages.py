"""The pages' streams: the play and watch pages each hold at most one live stream
(``EventSource``) per tab, across new games and reconnects; a hidden tab closes its
stream and, shown again, reopens it from the last event it applied (``?after=``), so
the moves made meanwhile appear once each; while the stream reconnects, a polite
status line near the board says so.

Driven in Debian's Chromium with the pages' Content-Security-Policy enforced (every
wait through `expect` or `poll`). An init script counts the EventSources each
document constructs (``window.__streams``, the most open at once in
``window.__maxOpen``), lets the test hide and show the tab (``__setVisibility``:
``document.visibilityState`` / ``hidden`` and a ``visibilitychange`` event, as a
browser does when the tab is switched), and records every text the live status
lines showed (``window.__notes``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

from .browsers import Browser, synced
from .conftest import VISIBILITY, LiveServer, play_by_api
from .helpers import BOARD
from .test_csp import poll
from .test_watch import one_action

pytestmark = pytest.mark.e2e

RECONNECTING = "Reconnecting to the live game…"
LIVE_URL = re.compile(r"/api/games/[0-9a-f]+/live\?")

# Counts the EventSources a page opens (and how many are open at once), hides and
# shows the tab (`VISIBILITY`) and keeps the texts of the live note and state.
INSTRUMENT = VISIBILITY + """
(() => {
  const Native = window.EventSource;
  const made = [];
  window.__streams = made;
  window.__maxOpen = 0;
  window.EventSource = class extends Native {
    constructor(url, init) {
      super(url, init);
      made.push(this);
      const open = made.filter((s) => s.readyState !== Native.CLOSED).length;
      window.__maxOpen = Math.max(window.__maxOpen, open);
    }
  };
  window.__notes = [];
  const last = {};
  new MutationObserver(() => {
    for (const id of ["live-note", "live-state"]) {
      const el = document.getElementById(id);
      if (el && el.textContent !== last[id]) {
        last[id] = el.textContent;
        window.__notes.push(el.textContent);
      }
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
"""


def streams(page: Any) -> list[dict[str, Any]]:
    """Every EventSource the document constructed: its URL and whether it is open
    (connecting or open, not closed)."""
    made: list[dict[str, Any]] = page.evaluate(
        "window.__streams.map((s) => ({ url: s.url, open: s.readyState !== 2 }))")
    return made


def open_streams(page: Any) -> list[str]:
    return [s["url"] for s in streams(page) if s["open"]]


def after_of(url: str) -> int:
    return int(parse_qs(urlparse(url).query)["after"][0])


def set_visibility(page: Any, value: str) -> None:
    page.evaluate("v => window.__setVisibility(v)", value)


def seqs(page: Any, root: str) -> list[int]:
    return [int(v) for v in (page.get_attribute(root, "data-seqs") or "").split()]


@pytest.fixture
def person(browser: Any, live_server: LiveServer) -> Iterator[Browser]:
    made = Browser(browser, live_server)
    made.page.add_init_script(INSTRUMENT)
    try:
        yield made
    finally:
        made.context.close()


def two_players(live_server: LiveServer, seed: int) -> tuple[str, str, dict[str, Any]]:
    """A two-player game (one token moves both seats): its id, token and state."""
    created = live_server.post_json("/api/games", {
        "player_name": "Ann", "mode": "two_players", "second_name": "Bob",
        "height": 7, "width": 9, "seed": seed})
    return created["game_id"], created["token"], created["state"]


def open_play_page(page: Any, game_id: str, token: str) -> None:
    """The play page of a game whose token this browser holds."""
    page.goto("/how-to-play")
    page.evaluate("e => localStorage.setItem('squares.tokens', JSON.stringify(e))",
                  {game_id: {"token": token, "at": 1}})
    page.goto(f"/play/{game_id}")


def start_from_form(page: Any, name: str, seed: int) -> str:
    """Start a game against the computer with the form on the page (no reload)."""
    page.fill("#player-name", name)
    page.check('input[name="mode"][value="vs_computer"]')
    page.select_option("#difficulty", "easy")
    page.select_option("#field-size", "7x9")
    if not page.is_visible("#seed"):  # the second game's form keeps "More options" open
        page.click("details.more summary")
    page.fill("#seed", str(seed))
    page.click("#start-btn")
    expect(page.locator("#game")).to_be_visible()
    expect(page.locator(f"{BOARD}[data-version]")).to_have_count(1)
    match = re.search(r"/play/([0-9a-f]+)$", page.url)
    assert match, page.url
    return match.group(1)


def test_the_play_and_watch_pages_hold_one_stream_each(
    person: Browser, live_server: LiveServer
) -> None:
    page = person.page
    page.goto("/")
    first = start_from_form(page, "Ann", seed=3)
    poll(page, "() => window.__streams.length >= 1")
    page.wait_for_timeout(500)  # a second stream would have been opened by now
    made = streams(page)
    assert len(made) == 1, made
    assert made[0]["open"] and f"/api/games/{first}/live?after=" in made[0]["url"]

    # A new game in the same tab: the first game's stream closes, one opens.
    page.click("#new-btn")
    expect(page.locator("#start")).to_be_visible()
    assert open_streams(page) == []
    second = start_from_form(page, "Ann", seed=4)
    assert second != first
    poll(page, "() => window.__streams.length >= 2")
    page.wait_for_timeout(500)
    made = streams(page)
    assert len(made) == 2, made
    assert [s["open"] for s in made] == [False, True]
    assert f"/api/games/{second}/live?after=" in made[1]["url"]
    assert len(person.live_requests) == 2, person.live_requests
    assert page.evaluate("window.__maxOpen") == 1
    token = page.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[second]["token"]
    person.assert_clean("play")

    # The watch page: one spectator's stream, kept while moves arrive.
    page.goto(f"/watch/{second}")
    board = page.locator(BOARD)
    expect(page.locator("#live-state")).to_contain_text("Live")
    for _ in range(2):
        state = one_action(live_server, second, token)
        expect(board).to_have_attribute("data-version", str(state["version"]))
    made = streams(page)
    assert len(made) == 1 and made[0]["open"], made
    assert made[0]["url"].endswith("&viewers=1")
    assert page.evaluate("window.__maxOpen") == 1
    person.assert_clean("watch")


def test_a_hidden_play_page_closes_its_stream_and_catches_up_once(
    person: Browser, live_server: LiveServer
) -> None:
    page = person.page
    game_id, token, start = two_players(live_server, seed=11)
    open_play_page(page, game_id, token)
    synced(page, start["version"])
    poll(page, "() => window.__streams.length === 1")
    state = one_action(live_server, game_id, token)
    shown = state["version"]
    synced(page, shown)  # the feed works

    set_visibility(page, "hidden")
    poll(page, "() => window.__streams.every((s) => s.readyState === 2)")
    for _ in range(3):
        state = one_action(live_server, game_id, token)
    page.wait_for_timeout(800)
    # Nothing reached the hidden page: it holds no stream.
    assert page.get_attribute(BOARD, "data-version") == str(shown)
    assert open_streams(page) == []
    expect(page.locator("#live-note")).to_have_text("")

    set_visibility(page, "visible")
    synced(page, state["version"])
    made = streams(page)
    assert len(made) == 2, made
    assert made[1]["open"] and after_of(made[1]["url"]) == shown
    # Every event once, in order: those the page opened with, then each applied.
    assert seqs(page, "#play-root") == list(range(1, state["version"] + 1))

    # Played to the end: the stream ends with the game, without a reconnect notice.
    play_by_api(live_server, game_id, token, rounds=10_000)
    final = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert final["over"]
    synced(page, final["version"])
    expect(page.locator("#over")).to_be_visible()
    page.wait_for_timeout(1500)  # not reopened after game over
    assert len(streams(page)) == 2 and open_streams(page) == []
    assert seqs(page, "#play-root") == list(range(1, final["version"] + 1))
    assert RECONNECTING not in page.evaluate("window.__notes")
    expect(page.locator("#live-note")).to_have_text("")
    assert page.evaluate("window.__maxOpen") == 1
    person.assert_clean("play")


def test_a_hidden_watch_page_closes_its_stream_and_catches_up_once(
    person: Browser, live_server: LiveServer
) -> None:
    page = person.page
    game_id, token, start = two_players(live_server, seed=12)
    page.goto(f"/watch/{game_id}")
    board = page.locator(BOARD)
    expect(page.locator("#watch-root")).to_have_attribute("data-opened", str(start["version"]))
    expect(page.locator("#live-state")).to_contain_text("Live")
    state = one_action(live_server, game_id, token)
    shown = state["version"]
    expect(board).to_have_attribute("data-version", str(shown))

    # Hidden: the stream closes; the game is played to its end meanwhile.
    set_visibility(page, "hidden")
    poll(page, "() => window.__streams.every((s) => s.readyState === 2)")
    play_by_api(live_server, game_id, token, rounds=10_000)
    final = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert final["over"]
    page.wait_for_timeout(800)
    assert page.get_attribute(BOARD, "data-version") == str(shown)
    assert seqs(page, "#watch-root") == [shown]
    expect(page.locator("#live-state")).not_to_contain_text("Reconnecting")

    # Shown again: it resumes after the last event it captioned, to the game's end.
    set_visibility(page, "visible")
    expect(board).to_have_attribute("data-over", "true")
    expect(board).to_have_attribute("data-version", str(final["version"]))
    expect(page.locator("#live-state")).to_have_text("Game over.")
    # The board shows the state fetched on the first event; the captions follow as
    # the stream brings the rest (on a busy machine, after the board): each once.
    expect(page.locator("#watch-root")).to_have_attribute(
        "data-seqs", " ".join(map(str, range(start["version"] + 1, final["version"] + 1))))
    expect(page.locator("#feed li")).to_have_count(final["version"] - start["version"])
    made = streams(page)
    assert len(made) == 2, made
    assert after_of(made[1]["url"]) == shown and made[1]["url"].endswith("&viewers=1")
    page.wait_for_timeout(1500)  # the finished stream is closed, not reopened
    assert len(streams(page)) == 2 and open_streams(page) == []
    assert RECONNECTING not in page.evaluate("window.__notes")
    assert page.evaluate("window.__maxOpen") == 1
    person.assert_clean("watch")


def test_the_play_page_says_while_its_stream_reconnects(
    person: Browser, live_server: LiveServer
) -> None:
    page = person.page
    game_id, token, start = two_players(live_server, seed=13)
    requests: list[str] = []
    held: list[Any] = []

    def live(route: Any) -> None:
        requests.append(route.request.url)
        if len(requests) == 1:
            # The first stream opens and ends at once: the browser reconnects
            # after 300 ms, and that request waits until the test lets it through.
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                          body="retry: 300\n\n")
        elif len(requests) == 2:
            held.append(route)
        else:
            route.continue_()

    page.route(LIVE_URL, live)
    open_play_page(page, game_id, token)
    synced(page, start["version"])
    note = page.locator("#live-note")
    expect(note).to_have_attribute("aria-live", "polite")
    expect(note).to_have_text(RECONNECTING)
    expect(note).to_be_visible()
    for _ in range(100):  # the browser's reconnect, after the 300 ms it was told
        if held:
            break
        page.wait_for_timeout(50)
    assert len(requests) == 2 and len(held) == 1, requests
    # While that request waits, the stream is connecting and the notice stays.
    page.wait_for_timeout(300)
    expect(note).to_have_text(RECONNECTING)
    assert page.evaluate("window.__streams.map((s) => s.readyState)") == [0]

    held[0].continue_()  # the real stream: the notice goes, moves arrive again
    expect(note).to_have_text("")
    state = one_action(live_server, game_id, token)
    synced(page, state["version"])
    # The browser's own reconnect: still the one EventSource.
    made = streams(page)
    assert len(made) == 1 and made[0]["open"], made
    assert len(requests) == 2, requests
    assert page.evaluate("window.__notes").count(RECONNECTING) == 1
    assert seqs(page, "#play-root") == list(range(1, state["version"] + 1))
    person.assert_clean("play")


def test_the_watch_page_retries_a_refused_stream_but_not_while_hidden(
    browser: Any, live_server: LiveServer
) -> None:
    # Chromium logs the refused stream (503) as a console error, on purpose here.
    person = Browser(browser, live_server, console_errors=False)
    page = person.page
    page.add_init_script(INSTRUMENT)
    try:
        game_id, token, start = two_players(live_server, seed=14)
        requests: list[str] = []

        def live(route: Any) -> None:
            requests.append(route.request.url)
            if len(requests) == 1:
                route.fulfill(status=503, headers={"Retry-After": "5"},
                              content_type="application/json", body="{}")
            else:
                route.continue_()

        page.route(LIVE_URL, live)
        page.goto(f"/watch/{game_id}")
        live_state = page.locator("#live-state")
        expect(live_state).to_have_text(RECONNECTING)
        expect(live_state).to_have_class(re.compile(r"\blost\b"))
        assert open_streams(page) == []  # refused: closed, a retry waits

        # Hidden while the retry waits: no notice, and no retry until shown.
        set_visibility(page, "hidden")
        expect(live_state).not_to_have_text(RECONNECTING)
        page.wait_for_timeout(5600)  # longer than the retry's wait
        assert len(requests) == 1 and len(streams(page)) == 1, requests

        set_visibility(page, "visible")
        expect(live_state).to_have_text("Live: following the game as it is played.")
        made = streams(page)
        assert len(made) == 2 and made[1]["open"], made
        assert after_of(made[1]["url"]) == start["version"]
        state = one_action(live_server, game_id, token)
        expect(page.locator(BOARD)).to_have_attribute("data-version", str(state["version"]))
        expect(page.locator("#feed li")).to_have_count(state["version"] - start["version"])
        assert len(requests) == 2 and page.evaluate("window.__maxOpen") == 1
        person.assert_clean("watch")
    finally:
        person.context.close()
