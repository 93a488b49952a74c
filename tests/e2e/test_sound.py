"""Sound (issue 35, item 8), at 1280 x 800 and 390 x 844 with touch: short sounds
made in the browser with Web Audio (oscillators; nothing downloaded) for a line, a
square, a penalty, the other side's move and game over; off by default, turned on
by the Sound toggle (in the header, on a phone at the page's foot), remembered.

The page tells each sound it plays as a ``squares:sound`` event; a script run before
the page's own keeps them, and counts the oscillators Web Audio made.

Screenshot: ``sound-on-*``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from service.domain.commands import PlaceLine
from service.domain.rules import decide, legal_actions
from tests.conftest import services_on

from .conftest import LiveServer, screenshot
from .helpers import BOARD, own, play_until_over, slot, wait_for_new_version
from .test_zoom_in_view import line_hint

pytestmark = pytest.mark.e2e

TOGGLE = "[data-pref=sound]:visible"
LISTEN = """
window.__sounds = [];
window.__oscillators = 0;
document.addEventListener("squares:sound", (e) => window.__sounds.push(e.detail));
if (window.AudioContext) {
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.__oscillators += 1; return make.call(this); };
}
"""


def sounds(page: Any) -> list[str]:
    return list(page.evaluate("window.__sounds"))


def clear(page: Any) -> None:
    page.evaluate("window.__sounds = []")


def penalty_line(live_server: LiveServer, game_id: str) -> tuple[int, int] | None:
    """A legal stage-1 line of the seat to move that forms only irregular squares
    (RULES T2: it costs 5), by the rules themselves; None if there is none."""
    with services_on(live_server.database_url) as services:
        state = services.queries.get_state(game_id)
        for x, y in legal_actions(state).lines:
            placed = decide(state, PlaceLine(state.turn, x, y))[0]
            if getattr(placed, "penalty", 0):
                return x, y
    return None


def place(page: Any, x: int, y: int) -> None:
    before = int(page.get_attribute(BOARD, "data-version"))
    slot(page, x, y).dispatch_event("click")  # a click or tap on the line
    wait_for_new_version(page, before)


def test_sounds_are_off_by_default_and_on_with_the_remembered_toggle(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    page.add_init_script(LISTEN)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    game, x, y = line_hint(live_server, *range(50, 90))
    own(page, game)
    page.evaluate("localStorage.removeItem('squares.sound')")
    page.goto(f"/play/{game['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    toggle = page.locator(TOGGLE)
    expect(toggle).to_have_count(1)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    place(page, x, y)  # a square, in silence
    assert sounds(page) == [] and page.evaluate("window.__oscillators") == 0

    toggle.click()  # on: it says so with a line's sound
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert sounds(page) == ["line"]
    assert page.evaluate("window.__oscillators") >= 1
    assert page.evaluate("localStorage.getItem('squares.sound')") == "on"
    screenshot(page, "sound-on")
    page.reload()  # remembered
    page.wait_for_selector(f"{BOARD}[data-version]")
    expect(page.locator(TOGGLE)).to_have_attribute("aria-pressed", "true")

    # A penalty (a line that forms only irregular squares: stage 1 ends), a plain line
    # in stage 2, then the other side's moves. (A square: the next test.)
    bad = penalty_line(live_server, game["game_id"])  # (seeds 50..: there is one)
    assert bad is not None
    clear(page)
    place(page, *bad)
    assert sounds(page) == ["penalty"]
    expect(page.locator(BOARD)).to_have_attribute("data-stage", "2")  # the penalty ended it
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    clear(page)
    x2, y2 = state["legal"]["lines"][0]
    place(page, x2, y2)
    assert sounds(page) == ["line"]  # stage 2: a square it closes is nobody's, no "square"
    clear(page)
    page.click("#advance-btn")  # the random pieces
    expect(page.locator(BOARD)).to_have_attribute("data-stage", "3")
    page.click("#advance-btn")  # end of turn: the computer's moves
    page.wait_for_function("window.__sounds.includes('other')")
    assert set(sounds(page)) <= {"other", "over"}, sounds(page)
    assert all(".wav" not in u and ".mp3" not in u and ".ogg" not in u for u in requests)


def test_game_over_has_its_sound(sized_page: Any, live_server: LiveServer) -> None:
    page = sized_page
    page.add_init_script(LISTEN)
    game = live_server.post_json("/api/games", {
        "player_name": "Ayla", "second_name": "Bora", "mode": "two_players",
        "height": 7, "width": 9, "seed": 8})
    own(page, game)
    page.evaluate("localStorage.setItem('squares.sound', 'on')")
    page.goto(f"/play/{game['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    play_until_over(page)
    page.wait_for_function("window.__sounds.includes('over')")
    heard = sounds(page)
    assert heard[-1] == "over" and "other" not in heard, heard  # both seats are this page's
    assert {"line", "square"} <= set(heard), heard
