"""The zoomed 19 x 33 board on a phone (issue 26, item 7), at 390 x 844 with touch:

- the column and row numbers stay in view (sticky strips) when the board scrolls
  sideways in its box and the page scrolls down, and each number is still over
  (beside) its own column (row) of the board;
- a shade and arrow mark each side with more board beyond it, and go once the board
  is scrolled to that edge;
- a line the computer draws off screen brings a "New move" button (under the board)
  (a button with an accessible name, the focus left alone); a tap scrolls the line
  into view and the button goes;
- at 1280 x 800 (not zoomed) none of it shows, not even after the computer's turn.

Screenshots go to ``$SQUARES_SCREENSHOTS`` (default ``build/screenshots``) as
``zoom-<what>-<width>x<height>.png``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, browser_context, screenshot, watch_page
from .helpers import BOARD, own, slot, wait_for_new_version

pytestmark = pytest.mark.e2e

PHONE = (390, 844)
DESKTOP = (1280, 800)
HEIGHT, WIDTH = 19, 33
TOLERANCE = 1.5  # px between a number's centre and its column's (row's)

# JavaScript: the part of the scroller on screen (its box cut by the window), the
# strips' boxes, and for every number in them its box, whether it is shown, and the
# centre of the board's slot in that column (row): (n, 1) or (n, 0) for column n,
# (1, n) or (0, n) for row n (RULES F2).
GEOMETRY = """() => {
  const box = (n) => n.getBoundingClientRect();
  const sc = document.querySelector('#board-scroll'), r = box(sc);
  const view = {left: r.left, right: r.left + sc.clientWidth,
                top: Math.max(r.top, 0), bottom: Math.min(r.top + sc.clientHeight, innerHeight)};
  const centre = (q) => ({x: (q.left + q.right) / 2, y: (q.top + q.bottom) / 2});
  const slot = (x, y) => centre(box(document.querySelector(
    `#board .slot[data-x="${x}"][data-y="${y}"]`)));
  const numbers = (sel, key) => [...document.querySelectorAll(sel + ' span')].map((s) => {
    const n = Number(s.dataset[key]);
    const at = key === 'x' ? slot(n, n % 2 ? 0 : 1) : slot(n % 2 ? 0 : 1, n);
    const q = box(s);
    return {n, text: s.textContent, ...centre(q), left: q.left, right: q.right, top: q.top,
            bottom: q.bottom, slot: at,
            shown: getComputedStyle(s).visibility !== 'hidden'};
  });
  const json = (n) => box(n).toJSON();
  return {view, top: json(document.querySelector('#axis-top')),
          left: json(document.querySelector('#axis-left')),
          cols: numbers('#axis-top', 'x'), rows: numbers('#axis-left', 'y'),
          scrollLeft: sc.scrollLeft, scrollY: window.scrollY};
}"""

FRAME = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.fixture
def open_page(browser: Any, live_server: LiveServer) -> Iterator[Callable[[tuple[int, int]], Any]]:
    """Pages of a given size (touch below 600 px); no page error, nothing from the network."""
    errors: list[str] = []
    with contextlib.ExitStack() as contexts:
        def make(size: tuple[int, int]) -> Any:
            context = contexts.enter_context(browser_context(browser, live_server.base_url,
                                                             size))
            return watch_page(context.new_page(), live_server.base_url, errors)

        yield make
    assert errors == []


def new_game(live_server: LiveServer, seed: int) -> dict[str, Any]:
    return dict(live_server.post_json("/api/games", {
        "player_name": "Selin", "height": HEIGHT, "width": WIDTH, "seed": seed,
        "difficulty": "easy"}))


def act(live_server: LiveServer, game: dict[str, Any], line: list[int] | None = None) -> None:
    """One human action through the API: a line, or the end of the stage."""
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    body: dict[str, Any] = {"expected_version": state["version"]}
    if line:
        body.update(x=line[0], y=line[1])
    live_server.post_json(f"/api/games/{game['game_id']}/{'lines' if line else 'advance'}",
                          body, game["token"])


def to_stage_3(live_server: LiveServer, game: dict[str, Any]) -> dict[str, Any]:
    """The human's first turn up to its stage 3: no square, one extra line, the pieces."""
    act(live_server, game)
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    assert state["stage"] == 2
    act(live_server, game, state["legal"]["lines"][0])
    act(live_server, game)
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    assert (state["stage"], state["turn"]) == (3, 1)
    return dict(state)


def computer_lines(live_server: LiveServer, game_id: str, after: int) -> list[tuple[int, int]]:
    """The lines of the computer's seat (2), its own and its pieces', in order."""
    out: list[tuple[int, int]] = []
    for ev in live_server.get_json(f"/api/games/{game_id}/events?after={after}")["events"]:
        d = ev["data"]
        if ev["type"] == "line_placed" and d["seat"] == 2:
            out.append((d["x"], d["y"]))
        elif ev["type"] == "piece_inserted" and d["seat"] == 2:
            out.extend((x, y) for x, y in d["lines"])
    return out


def open_game(page: Any, game: dict[str, Any]) -> None:
    own(page, game)
    # These tests end the turn when the board is zoomed and scrolled ("End turn"): no
    # stage moves on by itself here (the setting of play/auto.js, off).
    page.evaluate("localStorage.setItem('squares.autoAdvance', 'off')")
    page.goto(f"/play/{game['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")


def zoom_in(page: Any) -> None:
    """The first tap on the fitted board zooms in (as a player would)."""
    box = page.locator(BOARD).bounding_box()
    page.locator(BOARD).tap(position={"x": box["width"] / 3, "y": box["height"] / 2})
    expect(page.locator("#board-scroll")).to_have_class("board-scroll zoomed")


def scroll(page: Any, left: float | None = None, down: float | None = None) -> None:
    """Scroll the board's box sideways to `left` and the page down to `down`, then let a
    frame or two pass (the cues follow in the next animation frame)."""
    if left is not None:
        page.evaluate("v => { document.querySelector('#board-scroll').scrollLeft = v; }", left)
    if down is not None:
        page.evaluate("v => window.scrollTo(0, v)", down)
    page.evaluate(FRAME)


def inside(box: dict[str, float], view: dict[str, float], axis: str) -> bool:
    lo, hi = ("left", "right") if axis == "x" else ("top", "bottom")
    start = box["x"] if axis == "x" else box["y"]
    size = box["width"] if axis == "x" else box["height"]
    return bool(view[lo] - 0.5 <= start and start + size <= view[hi] + 0.5)


def test_the_axis_numbers_stay_in_view_and_over_their_columns_and_rows(
    open_page: Callable[[tuple[int, int]], Any], live_server: LiveServer
) -> None:
    page = open_page(PHONE)
    open_game(page, new_game(live_server, 41))
    for strip in ("#axis-top", "#axis-left", "#axis-corner"):
        expect(page.locator(strip)).to_be_hidden()  # the fitted board has its own numbers
    zoom_in(page)
    screenshot(page, "zoom-zoomed")

    scroll(page, left=190, down=120)
    g = page.evaluate(GEOMETRY)
    view = g["view"]
    assert g["scrollLeft"] == 190 and g["scrollY"] == 120, g
    # The board's own top numbers are off screen now (the page went down by more than
    # the board's top margin): the strips are still in the scroller's part on screen.
    assert view["top"] == 0 and view["bottom"] > view["top"] + 150, view
    assert inside(g["top"], view, "y"), (g["top"], view)
    assert inside(g["left"], view, "x"), (g["left"], view)
    # The numbers shown: each whole on screen, right of the corner and left of the
    # edge (half a "16" would read "6"), below the corner and above the edge, and each
    # over its own column / beside its own row.
    strip_right, strip_bottom = g["left"]["x"] + g["left"]["width"], g["top"]["y"] + g["top"]["height"]
    shown_cols = [c for c in g["cols"] if c["shown"]]
    shown_rows = [r for r in g["rows"] if r["shown"]]
    for c in shown_cols:
        assert strip_right - 1 <= c["left"] and c["right"] <= view["right"] + 1, (c, view)
    for r in shown_rows:
        assert strip_bottom - 1 <= r["top"] and r["bottom"] <= view["bottom"] + 1, (r, view)
    assert len(shown_cols) >= 12 and len(shown_rows) >= 8, (shown_cols, shown_rows)
    for c in shown_cols:
        assert c["text"] == str(c["n"])
        assert abs(c["x"] - c["slot"]["x"]) < TOLERANCE, c
        assert view["top"] <= c["y"] <= g["top"]["y"] + g["top"]["height"], c
    for r in shown_rows:
        assert r["text"] == str(r["n"])
        assert abs(r["y"] - r["slot"]["y"]) < TOLERANCE, r
        assert view["left"] <= r["x"] <= g["left"]["x"] + g["left"]["width"], r
    # The leftmost column number shown is that of the first column of the board right
    # of the row strip (columns 0..8 went left), or of the next one when that number
    # would be partly under the corner (its centre less than half its width and a pixel
    # clear: 4 px for one digit, 7 for two); the same for the topmost row number below
    # the column strip (half a number's height and a pixel: 6 px; rows 0..2 went up
    # with the page).
    col = min(c["n"] for c in g["cols"] if c["slot"]["x"] > strip_right)
    if g["cols"][col]["slot"]["x"] < strip_right + (4 if col < 10 else 7):
        col += 1
    row = min(r["n"] for r in g["rows"] if r["slot"]["y"] > strip_bottom)
    if g["rows"][row]["slot"]["y"] < strip_bottom + 6:
        row += 1
    assert shown_cols[0]["n"] == col > 8, (col, shown_cols[0])
    assert shown_rows[0]["n"] == row > 2, (row, shown_rows[0])
    # and from there on, every column (row) on screen has its number.
    assert [c["n"] for c in shown_cols] == list(range(col, col + len(shown_cols)))
    assert [r["n"] for r in shown_rows] == list(range(row, HEIGHT))
    pitch = shown_cols[1]["slot"]["x"] - shown_cols[0]["slot"]["x"]  # the next column's would not fit
    assert shown_cols[-1]["slot"]["x"] + pitch + 6 > view["right"], (shown_cols[-1], view)
    scroll(page, down=0)  # a screenshot of the whole page shows it from its top
    screenshot(page, "zoom-scrolled")

    # Back to the start: every row number and the columns' from 0 to the edge.
    scroll(page, left=0, down=0)
    g = page.evaluate(GEOMETRY)
    shown = [c["n"] for c in g["cols"] if c["shown"]]
    assert shown == list(range(len(shown))) and 15 <= len(shown) < WIDTH, shown
    assert [r["n"] for r in g["rows"] if r["shown"]] == list(range(HEIGHT))
    assert g["cols"][0]["x"] > g["left"]["x"] + g["left"]["width"]  # column 0 is not covered


def test_a_shade_and_an_arrow_mark_each_side_with_more_board(
    open_page: Callable[[tuple[int, int]], Any], live_server: LiveServer
) -> None:
    page = open_page(PHONE)
    open_game(page, new_game(live_server, 43))
    for side in ("left", "right", "up", "down"):
        expect(page.locator(f'.edge-cue[data-side="{side}"]')).to_be_hidden()
    zoom_in(page)
    left, right = page.locator('.edge-cue[data-side="left"]'), page.locator('.edge-cue[data-side="right"]')
    scroll(page, left=0)
    expect(right).to_be_visible()
    expect(left).to_be_hidden()
    scroll(page, left=150)
    expect(right).to_be_visible()
    expect(left).to_be_visible()
    cue, board = right.bounding_box(), page.locator("#board-scroll").bounding_box()
    assert abs(cue["x"] + cue["width"] - (board["x"] + board["width"])) < 1, (cue, board)
    scroll(page, left=10_000)  # the right edge
    expect(right).to_be_hidden()
    expect(left).to_be_visible()
    # The whole height fits on a phone held upright: nothing above or below.
    expect(page.locator('.edge-cue[data-side="up"]')).to_be_hidden()
    expect(page.locator('.edge-cue[data-side="down"]')).to_be_hidden()
    # Fit the board: no cue, no strip.
    page.tap("#zoom-btn")
    expect(page.locator("#board-scroll")).to_have_class("board-scroll")
    expect(left).to_be_hidden()
    expect(page.locator("#axis-top")).to_be_hidden()


def test_the_computers_line_off_screen_brings_a_new_move_button_that_shows_it(
    open_page: Callable[[tuple[int, int]], Any], live_server: LiveServer
) -> None:
    # Two games of one seed: the second, played first through the API, tells where
    # the computer will draw, so the page can look at the other end of the board.
    game, twin = new_game(live_server, 47), new_game(live_server, 47)
    state, twin_state = to_stage_3(live_server, game), to_stage_3(live_server, twin)
    assert state["lines"] == twin_state["lines"]
    act(live_server, twin)  # End turn: the computer plays
    expected = computer_lines(live_server, twin["game_id"], twin_state["version"])
    assert expected
    last_x = expected[-1][0]
    side = "right" if last_x > WIDTH // 2 else "left"

    page = open_page(PHONE)
    open_game(page, game)
    zoom_in(page)
    scroll(page, left=0 if side == "right" else 10_000)
    button = page.locator(f'.new-move[data-side="{side}"]')
    expect(button).to_be_hidden()
    page.locator(BOARD).focus()
    page.tap("#advance-btn")  # End turn
    expect(button).to_be_visible()  # during the computer's animated turn already
    wait_for_new_version(page, state["version"])
    assert computer_lines(live_server, game["game_id"], state["version"]) == expected
    expect(button).to_be_visible()
    expect(button).to_have_text("New moves →" if side == "right" else "← New moves")
    expect(button).to_have_attribute("aria-label", f"New moves to the {side}, off screen: show the line at "
                                     f"({button.get_attribute('data-x')},\u00a0{button.get_attribute('data-y')})")
    assert page.evaluate("document.activeElement.id") == "board"  # the button took no focus
    x, y = int(button.get_attribute("data-x")), int(button.get_attribute("data-y"))
    assert (x, y) in expected
    screenshot(page, "zoom-new-move")

    def on_screen() -> bool:
        view = page.evaluate(GEOMETRY)["view"]
        line = slot(page, x, y).bounding_box()
        cx = line["x"] + line["width"] / 2
        return bool(view["left"] < cx < view["right"])

    assert not on_screen()
    button.tap()
    expect(button).to_be_hidden()  # the line came into view
    assert on_screen()
    expect(page.locator(".new-move:not([hidden])")).to_have_count(0)
    screenshot(page, "zoom-new-move-shown")


def test_nothing_of_it_on_a_desktop(open_page: Callable[[tuple[int, int]], Any],
                                    live_server: LiveServer) -> None:
    game = new_game(live_server, 47)
    state = to_stage_3(live_server, game)
    page = open_page(DESKTOP)
    open_game(page, game)
    expect(page.locator("#zoom-btn")).to_be_hidden()
    before = page.locator(BOARD).bounding_box()
    page.click("#advance-btn")  # End turn: the computer draws all over the board
    wait_for_new_version(page, state["version"])
    assert computer_lines(live_server, game["game_id"], state["version"])
    expect(page.locator("#board-scroll")).to_have_class("board-scroll")
    for sel in ("#axis-top", "#axis-left", "#axis-corner", ".edge-cue", ".new-move"):
        for node in page.locator(sel).all():
            expect(node).to_be_hidden()
    assert page.locator(BOARD).bounding_box() == before
    screenshot(page, "zoom-desktop")
