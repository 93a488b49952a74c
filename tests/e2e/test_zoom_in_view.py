"""Phone zoom keeps the action in view (issue 35, item 4). On a phone (390 x 844,
touch) with the 19 x 33 board zoomed in:

- a hinted line placed under an edge's shade and arrow (the board scrolled so) is
  scrolled clear of the edge cues and the axis strips when the hint shows it;
- a line that wins squares beyond the edge of the part on screen brings those
  squares clear of the edges too;
- a compact score bar ("You 0 · Computer 0 · Round 1", "Your turn — stage 1: close a
  square") is there while zoomed, and stays at the top of the screen when the page
  scrolls the board up.

At 1280 x 800 (never zoomed) there is no score bar and a hint scrolls nothing.
Screenshots: ``zoom-hint-*``, ``zoom-won-*``, ``zoom-scorebar-*``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, screenshot
from .helpers import BOARD, own, slot, wait_for_new_version
from .test_phone_zoom import FRAME, zoom_in

pytestmark = pytest.mark.e2e

# Where the action must be: inside the part of the scroller on screen, right of and
# below the axis strips, under the score bar, and over no shown edge cue.
CLEAR_OF_EDGES = """(sel) => {
  const sc = document.querySelector('#board-scroll'), r = sc.getBoundingClientRect();
  const strips = ['#axis-left', '#axis-top'].map((s) => document.querySelector(s).getBoundingClientRect());
  const bar = document.querySelector('#scorebar').getBoundingClientRect();
  const view = {left: Math.max(r.left + sc.clientLeft, strips[0].right),
                right: r.left + sc.clientLeft + sc.clientWidth,
                top: Math.max(r.top + sc.clientTop, strips[1].bottom, bar.bottom, 0),
                bottom: Math.min(r.top + sc.clientTop + sc.clientHeight, innerHeight)};
  const cues = [...document.querySelectorAll('.edge-cue:not([hidden])')].map((c) => c.getBoundingClientRect());
  const bad = [];
  for (const el of document.querySelectorAll(sel)) {
    const b = (el.querySelector('.ink, rect') || el).getBoundingClientRect();
    if (b.left < view.left || b.right > view.right || b.top < view.top || b.bottom > view.bottom) {
      bad.push(`${el.dataset.x},${el.dataset.y} outside ${JSON.stringify(view)}: ${JSON.stringify(b)}`);
    }
    for (const c of cues) {
      if (b.left < c.right && c.left < b.right && b.top < c.bottom && c.top < b.bottom) {
        bad.push(`${el.dataset.x},${el.dataset.y} under a cue ${JSON.stringify(c)}`);
      }
    }
  }
  return bad;
}"""

# Scroll the board's box so that the slot (x, y) lies just inside its left or right
# edge (where a cue's shade lies), whichever the board can scroll to.
UNDER_AN_EDGE = """([x, y]) => {
  const sc = document.querySelector('#board-scroll');
  const s = document.querySelector(`#board .slot[data-x="${x}"][data-y="${y}"] .ink`).getBoundingClientRect();
  const r = sc.getBoundingClientRect();
  const at = s.left - r.left + sc.scrollLeft;  // its place in the scroller's content
  const strip = parseFloat(document.querySelector('#board-frame').style.getPropertyValue('--strip-w'));
  const right = at - sc.clientWidth + 12, left = at - strip - 8;
  sc.scrollLeft = right > 0 && right < sc.scrollWidth - sc.clientWidth ? right : Math.max(left, 1);
  return sc.scrollLeft;
}"""


def line_hint(live_server: LiveServer, *seeds: int) -> tuple[dict[str, Any], int, int]:
    """A new 19 x 33 game whose first hint is a line that wins a square; the hint (asked
    with the game's token, as a hint is the player's: the game is then assisted)."""
    for seed in seeds:
        game = live_server.post_json("/api/games", {"player_name": "Selin", "seed": seed,
                                                    "difficulty": "easy"})
        hint = live_server.get_json(f"/api/games/{game['game_id']}/hint", game["token"])
        if hint["action"] == "line":
            return game, hint["x"], hint["y"]
    raise AssertionError(f"no seed of {seeds} starts with a line to play")


def frames(page: Any) -> None:
    page.evaluate(FRAME)
    page.evaluate(FRAME)


@pytest.fixture
def phone(sized: tuple[str, Any], sized_page: Any) -> tuple[bool, Any]:
    return sized[0] == "phone", sized_page


def test_the_hinted_line_and_the_squares_won_come_clear_of_the_edges(
    phone: tuple[bool, Any], live_server: LiveServer
) -> None:
    is_phone, page = phone
    game, x, y = line_hint(live_server, *range(50, 70))
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    if not is_phone:  # a desktop: the whole board, no bar; a hint moves nothing
        expect(page.locator("#scorebar")).to_be_hidden()
        before = page.evaluate("[scrollX, scrollY]")
        page.click("#hint-btn")
        expect(slot(page, x, y)).to_have_class(re.compile(r"\bhint\b"))
        assert page.evaluate("[scrollX, scrollY]") == before
        screenshot(page, "zoom-hint")
        return
    expect(page.locator("#scorebar")).to_be_hidden()
    zoom_in(page)
    expect(page.locator("#scorebar")).to_be_visible()
    page.evaluate(UNDER_AN_EDGE, [x, y])
    frames(page)
    assert page.evaluate(CLEAR_OF_EDGES, f'#board .slot[data-x="{x}"][data-y="{y}"]'), \
        "the hinted line should start under an edge"
    page.tap("#hint-btn")
    expect(slot(page, x, y)).to_have_class(re.compile(r"\bhint\b"))
    frames(page)
    assert page.evaluate(CLEAR_OF_EDGES, f'#board .slot[data-x="{x}"][data-y="{y}"]') == []
    screenshot(page, "zoom-hint")

    # The line again under the edge; played, the squares it wins come clear too.
    page.evaluate(UNDER_AN_EDGE, [x, y])
    frames(page)
    version = int(page.get_attribute(BOARD, "data-version"))
    slot(page, x, y).dispatch_event("click")  # as a tap on the line would
    wait_for_new_version(page, version)
    won = page.locator(f"{BOARD} .box.own-P.cur")
    expect(won.first).to_be_attached()
    frames(page)
    assert page.evaluate(CLEAR_OF_EDGES, f"{BOARD} .box.own-P.cur") == []
    screenshot(page, "zoom-won")


def test_a_compact_score_bar_stays_at_the_top_while_zoomed(
    phone: tuple[bool, Any], live_server: LiveServer
) -> None:
    is_phone, page = phone
    game = live_server.post_json("/api/games", {"player_name": "Selin", "seed": 61,
                                                "difficulty": "easy"})
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    bar = page.locator("#scorebar")
    if not is_phone:
        expect(bar).to_be_hidden()
        return
    zoom_in(page)
    expect(bar).to_be_visible()
    # the scores and the round, then who moves now and in which stage (a stage 1 with
    # no square to close may have moved on by itself: play/auto.js)
    expect(bar).to_have_text(re.compile(r"^\s*You\s+0\s*·\s*Computer\s+0\s+Round 1\s+"
                                        r"Your turn — stage (1: close a square|2: one extra line)\s*$"))
    page.evaluate("window.scrollTo(0, 400)")
    frames(page)
    assert page.evaluate("window.scrollY") > 100
    box = bar.bounding_box()
    assert box is not None and abs(box["y"]) < 1, box  # stuck to the top of the screen
    # the top axis strip lies under the bar, not behind it
    strip = page.locator("#axis-top").bounding_box()
    assert strip is not None and strip["y"] >= box["y"] + box["height"] - 1, (strip, box)
    screenshot(page, "zoom-scorebar")
    page.tap("#zoom-btn")  # Fit the board: no bar
    expect(bar).to_be_hidden()
