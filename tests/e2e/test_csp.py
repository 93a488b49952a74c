"""The Content-Security-Policy in Chromium (issue 13, item 4): every page loads and
works without a single policy violation or console error, the policy is really
enforced (an injected inline script is refused), and no other site can frame a page.

These tests make their own browser context with ``bypass_csp=False`` (the policy
enforced, whatever the shared ``page`` fixture does), so they drive the pages
without `page.wait_for_function`: Playwright evaluates its predicate with
``eval`` inside the page, which ``script-src 'self'`` (no ``'unsafe-eval'``) refuses.
``page.evaluate``, ``eval_on_selector``, ``wait_for_selector`` and ``expect`` go
through the DevTools protocol and are not affected; `poll` waits with them. (A
predicate that is true at once passes, since its first call runs inside Playwright's
own evaluation; only the polls after it are refused.)
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, browser_context, watch_page
from .helpers import BOARD, move_cursor_to, slot, start_game, version

pytestmark = pytest.mark.e2e

class Watch:
    """Console messages (errors and warnings), page errors, requests that leave the
    app, and CSP violations of one page."""

    def __init__(self, page: Any, base_url: str) -> None:
        self.page = page
        self.messages: list[str] = []
        watch_page(page, base_url, self.messages, console=("error", "warning", "assert"),
                   csp=True)

    def violations(self) -> list[Any]:
        return list(self.page.evaluate("window.__cspViolations || []"))

    def assert_clean(self, where: str) -> None:
        violations = self.violations()
        assert violations == [], f"{where}: {violations}"
        assert self.messages == [], f"{where}: {self.messages}"


@pytest.fixture
def csp_page(browser: Any, live_server: LiveServer) -> Iterator[tuple[Any, Watch]]:
    """A fresh context with the page's CSP enforced, and its `Watch`."""
    with browser_context(browser, live_server.base_url, bypass_csp=False) as context:
        page = context.new_page()
        yield page, Watch(page, live_server.base_url)


def poll(page: Any, expression: str, arg: Any = None, timeout: float = 20.0) -> Any:
    """Wait until `expression` (a JS function of `arg`) is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def play_a_legal_move(page: Any, live_server: LiveServer, game_id: str, *,
                      use_keyboard: bool) -> int:
    """One legal action (read from the API, not the rate-limited Hint button), by
    mouse or keyboard; the new version once the page shows it."""
    before = version(page)
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert state["version"] == before and not state["over"]
    lines = state["legal"]["lines"]
    if lines:
        x, y = lines[0]
        if use_keyboard:
            move_cursor_to(page, x, y)
            page.keyboard.press("Space")
        else:
            slot(page, x, y).click()
    else:
        assert state["legal"]["can_advance"], state["legal"]
        if use_keyboard:
            page.keyboard.press("Enter")
        else:
            page.click("#advance-btn")
    poll(page, """old => { const b = document.querySelector('#board');
                   return Number(b.dataset.version) > old && !b.classList.contains('animating'); }""",
         before)
    return version(page)


def test_the_headers_reach_the_browser(csp_page: tuple[Any, Watch]) -> None:
    page, watch = csp_page
    response = page.goto("/")
    headers = response.all_headers()
    csp = headers["content-security-policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "same-origin"
    watch.assert_clean("/")


def test_every_page_works_without_a_violation(csp_page: tuple[Any, Watch],
                                              live_server: LiveServer) -> None:
    page, watch = csp_page
    # The play page: styled, a game starts and lines are placed (mouse, then keyboard).
    game_id = start_game(page, "Ceren", size="7x9", seed=11, difficulty="easy")
    assert page.eval_on_selector("header.top", "e => getComputedStyle(e).display") != "inline"
    before = version(page)
    play_a_legal_move(page, live_server, game_id, use_keyboard=False)
    assert play_a_legal_move(page, live_server, game_id, use_keyboard=True) > before
    saved = page.evaluate("JSON.parse(localStorage.getItem('squares.game'))")
    assert saved["game_id"] == game_id and saved["token"]
    # board.js sizes the board through the CSSOM, which style-src 'self' allows
    assert page.eval_on_selector(BOARD, "e => e.style.maxWidth").endswith("px")
    watch.assert_clean("/ (play)")

    # The game's own URL (/play/<id>): resumed with the token kept per game id; the
    # score animation and the feedback run under the policy too.
    page.goto(f"/play/{game_id}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    play_a_legal_move(page, live_server, game_id, use_keyboard=True)
    expect(page.locator(f"{BOARD} .axes text").first).to_have_text("0")
    watch.assert_clean("/play/<id>")

    page.goto("/how-to-play")
    expect(page.locator("svg.example").first).to_be_visible()
    assert page.eval_on_selector("svg.example .slot.by-P", "e => getComputedStyle(e).stroke") \
        == "rgb(31, 95, 214)"
    watch.assert_clean("/how-to-play")

    # The games list's script shows "Continue" for the game this browser holds.
    page.goto("/games")
    expect(page.locator(f'tr[data-game-id="{game_id}"]')).to_be_visible()
    expect(page.locator(f'tr[data-game-id="{game_id}"] a.continue-link')).to_be_visible()
    watch.assert_clean("/games")

    # The replay page reads its <script type="application/json"> data block.
    page.goto(f"/games/{game_id}?step=2")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "2")
    expect(page.locator("#step-desc")).to_contain_text("Step 2")
    page.click("#next-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "3")
    expect(page.locator("#chart polyline")).to_have_count(2)
    page.locator('#moves a[data-step="2"]').click()  # the move list
    expect(page.locator(BOARD)).to_have_attribute("data-step", "2")
    watch.assert_clean("/games/<id>")

    page.goto("/highscores")
    expect(page.locator("#highscores-table tbody tr").first).to_be_visible()
    watch.assert_clean("/highscores")

    # A player's page (plain HTML and its stylesheet), reached by a name's link.
    page.goto("/games")
    page.locator(f'tr[data-game-id="{game_id}"] a.player-link').first.click()
    expect(page.locator(f'#player-games tr[data-game-id="{game_id}"]')).to_be_visible()
    watch.assert_clean("/players/<name>")

    # An online game's join page: join/main.js (a module) reads the code from the #fragment.
    online = live_server.post_json("/api/games", {"player_name": "Ece", "mode": "online",
                                                  "height": 7, "width": 9})
    page.goto("/" + online["invite"]["url"].split("/", 3)[3])
    expect(page.locator("#join-form")).to_be_visible()
    expect(page.locator("#join-name")).to_be_focused()
    watch.assert_clean("/join/<id>")

    # The API page: its styles come from /assets/docs/api.css, not a <style> block.
    page.goto("/api/docs")
    expect(page.locator("h1")).to_contain_text("Squares API")
    assert page.eval_on_selector(".method", "e => getComputedStyle(e).fontWeight") == "700"
    assert page.eval_on_selector("body", "e => getComputedStyle(e).maxWidth") == "960px"
    watch.assert_clean("/api/docs")


def test_the_policy_is_enforced(csp_page: tuple[Any, Watch]) -> None:
    """A positive control for the watch: injected inline code and styles are refused
    and reported, and so is Playwright's own eval-based wait."""
    page, watch = csp_page
    page.goto("/highscores")
    page.evaluate("""() => {
      const s = document.createElement("script");
      s.textContent = "window.__ran = true;";
      document.body.appendChild(s);
      const d = document.createElement("div");
      d.setAttribute("style", "color: red");
      document.body.appendChild(d);
    }""")
    poll(page, "() => window.__cspViolations.length >= 2")
    assert page.evaluate("window.__ran === undefined")
    directives = {v["directive"] for v in watch.violations()}
    assert directives >= {"script-src-elem", "style-src-attr"}, directives
    with pytest.raises(Exception, match="unsafe-eval"):
        # (a predicate that is true at once is not polled, so not refused)
        page.wait_for_function("window.__never === true", timeout=5_000)


def test_no_other_site_can_frame_a_page(csp_page: tuple[Any, Watch],
                                        live_server: LiveServer) -> None:
    """frame-ancestors 'none' (and X-Frame-Options): the play page, which holds the
    game token, does not render inside another document (clickjacking)."""
    page, _ = csp_page
    page.set_content(f'<iframe id="f" src="{live_server.base_url}/"></iframe>')
    poll(page, "() => window.frames.length === 1")
    page.wait_for_timeout(1000)
    expect(page.frame_locator("#f").locator("#start-form")).to_have_count(0)
    child = page.frames[1]
    assert not child.url.startswith(live_server.base_url), child.url


def test_the_watched_pages_note_a_request_that_leaves_the_app(
        browser: Any, live_server: LiveServer) -> None:
    """The check every browser test relies on (`watch_page`): a request to another
    host is noted, ours and the streams server's are not."""
    errors: list[str] = []
    with browser_context(browser, live_server.base_url) as context:
        page = watch_page(context.new_page(), live_server.base_url, errors)
        page.goto("/highscores")
        page.wait_for_selector("#highscores-table")
        assert errors == []
        page.evaluate("""() => { const i = new Image(); i.src = "http://192.0.2.7/x.png";
                                 document.body.appendChild(i); }""")
        page.wait_for_timeout(200)
    assert errors == ["external request: http://192.0.2.7/x.png"], errors
