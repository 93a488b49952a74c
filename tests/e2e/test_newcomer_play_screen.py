"""What still hurt a newcomer on the play screen, at 1280 x 800 and 390 x 844 with touch
(light and dark where it is about looks):

1. zoomed on a phone, the pinned bar names who moves now and the stage really in play
   ("Your turn — stage 1: close a square", "The computer is moving… (stage 2)"), also
   while the computer's turn is shown move by move, and stays on screen while the
   board is panned and the page scrolled; on a desktop the panel says it;
2. the "New moves" button stands under the board, over none of its lines, in the
   colours of news (not red);
3. the axis numbers are whole at every zoom: the row number 0 is no longer half under
   the column strip;
4. the first tap on a board whose lines are too close to hit only zooms, and the page
   says so ("your first tap zooms in, then a tap draws a line"); zoomed, or on a field
   whose lines are big enough, a tap draws.

Screenshots: ``newcomer-<what>-<width>x<height>.png``.
"""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SIZES, LiveServer, screenshot
from .helpers import BOARD, slot, version
from .newcomer_pages import SCHEMES, in_viewport, open_game, opened, overlaps, phone
from .test_phone_zoom import GEOMETRY, act, computer_lines, new_game, scroll, to_stage_3, zoom_in

pytestmark = pytest.mark.e2e


@pytest.fixture(params=sorted(SIZES))
def size(request: Any) -> str:
    return str(request.param)


# -- 1. who moves now ----------------------------------------------------------------------

BAR_TURN = "#scorebar [data-bar=turn]"


def test_the_bar_names_who_moves_and_the_stage_in_play(
    browser: Any, live_server: LiveServer, size: str
) -> None:
    game = new_game(live_server, 53)
    state = to_stage_3(live_server, game)
    with opened(browser, live_server, size) as page:
        page.clock.install()
        open_game(page, game)
        if phone(page):
            expect(page.locator("#scorebar")).to_be_hidden()  # fitted: the panel is right under
            zoom_in(page)
            expect(page.locator(BAR_TURN)).to_have_text("Your turn — stage 3: the random pieces")
            expect(page.locator("#scorebar [data-bar=stage]")).to_have_text(f"Round {state['round']}")
        else:
            expect(page.locator("#scorebar")).to_be_hidden()  # the panel beside the board says it
        # The computer's turn, held at its first step (its pace is `setTimeout`).
        page.clock.pause_at(datetime.datetime.now() + datetime.timedelta(seconds=5))
        page.locator("#advance-btn").click()
        expect(page.locator(f"{BOARD}.animating")).to_have_count(1)
        stages = set()
        for _ in range(200):
            if page.locator(f"{BOARD}.animating").count() == 0:
                break
            stage = page.locator("#st-stage").text_content()
            stages.add(stage)
            expect(page.locator("#prompt")).to_contain_text(f"stage {stage}")
            if phone(page):
                expect(page.locator(BAR_TURN)).to_have_text(f"The computer is moving… (stage {stage})")
                expect(page.locator(BAR_TURN)).to_have_class(re.compile(r"\bturn-2\b"))
                if stage == "1":
                    in_viewport(page, "#scorebar")
                    screenshot(page, "newcomer-bar-computer")
            else:
                expect(page.locator("#prompt")).to_contain_text("The computer is playing its turn")
            page.clock.run_for(300)
        assert "1" in stages, stages
        page.clock.resume()
        expect(page.locator(f"{BOARD}.animating")).to_have_count(0)
        expect(page.locator("#st-turn")).to_have_text("Selin")
        if not phone(page):
            in_viewport(page, "#prompt")
            return
        stage = page.locator("#st-stage").text_content()
        expect(page.locator(BAR_TURN)).to_have_text(re.compile(rf"^Your turn — stage {stage}: \w"))
        expect(page.locator(BAR_TURN)).to_have_class(re.compile(r"\bturn-1\b"))
        # Panned and scrolled: the bar stays on screen, its line whole.
        scroll(page, left=10_000, down=260)
        assert page.evaluate("window.scrollY") > 100
        bar = in_viewport(page, "#scorebar")
        assert bar["y"] < 2, bar  # pinned at the top of the screen
        assert page.evaluate(
            "s => { const n = document.querySelector(s); return n.scrollWidth <= n.clientWidth; }",
            BAR_TURN)
        screenshot(page, "newcomer-bar-scrolled")


def test_online_the_bar_names_the_friend_whose_turn_it_is(
    browser: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Nil", "mode": "online",
                                                   "height": 19, "width": 33, "seed": 4})
    game_id = created["game_id"]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim",
                                    {"code": created["invite"]["code"], "name": "Bora"})
    tokens = {1: created["token"], 2: claimed["token"]}
    names = {1: "Nil", 2: "Bora"}
    turn = live_server.get_json(f"/api/games/{game_id}")["state"]["turn"]
    with opened(browser, live_server, "phone") as page:
        open_game(page, {"game_id": game_id, "token": tokens[3 - turn]}, seat=3 - turn)
        zoom_in(page)
        expect(page.locator(BAR_TURN)).to_have_text(f"{names[turn]}'s turn — stage 1")
    with opened(browser, live_server, "phone") as page:
        open_game(page, {"game_id": game_id, "token": tokens[turn]}, seat=turn)
        zoom_in(page)
        expect(page.locator(BAR_TURN)).to_have_text(
            re.compile(r"^Your turn — stage (1: close a square|2: one extra line)$"))


# -- 2. the "New moves" button ---------------------------------------------------------------


def rgb(css: str) -> tuple[int, ...]:
    return tuple(int(v) for v in re.findall(r"\d+", css)[:3])


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_new_moves_button_covers_no_line_and_is_not_red(
    browser: Any, live_server: LiveServer, scheme: str
) -> None:
    # A twin game of the same seed, played first, tells where the computer will draw.
    game, twin = new_game(live_server, 47), new_game(live_server, 47)
    state, twin_state = to_stage_3(live_server, game), to_stage_3(live_server, twin)
    act(live_server, twin)
    expected = computer_lines(live_server, twin["game_id"], twin_state["version"])
    side = "right" if expected[-1][0] > 33 // 2 else "left"
    with opened(browser, live_server, "phone", scheme) as page:
        open_game(page, game)
        zoom_in(page)
        scroll(page, left=0 if side == "right" else 10_000)
        page.locator("#advance-btn").tap()  # End turn: the computer plays
        page.wait_for_function("v => Number(document.querySelector('#board').dataset.version) > v"
                               " && !document.querySelector('#board').classList.contains('animating')",
                               arg=state["version"])
        button = page.locator(f'.new-move[data-side="{side}"]')
        expect(button).to_be_visible()
        box = in_viewport(page, f'.new-move[data-side="{side}"]')
        board = page.locator("#board-scroll").bounding_box()
        assert box["y"] >= board["y"] + board["height"], (box, board)  # under the board
        lines = page.evaluate("""() => [...document.querySelectorAll('#board .slot:not(.empty) .ink')]
          .map((n) => n.getBoundingClientRect().toJSON())""")
        assert lines and not [q for q in lines if overlaps(box, q)]
        r, g, b = rgb(button.evaluate("n => getComputedStyle(n).backgroundColor"))
        assert r <= max(g, b), (r, g, b)  # not a red alarm
        ink = rgb(button.evaluate("n => getComputedStyle(n).color"))
        assert abs(sum(ink) - (r + g + b)) > 300, (ink, (r, g, b))  # its words stand out
        screenshot(page, f"newcomer-new-move-{scheme}")
        button.tap()
        expect(button).to_be_hidden()  # the line came into view


def test_no_new_moves_strip_on_a_desktop(browser: Any, live_server: LiveServer) -> None:
    game = new_game(live_server, 47)
    state = to_stage_3(live_server, game)
    with opened(browser, live_server, "desktop") as page:
        open_game(page, game)
        page.click("#advance-btn")
        page.wait_for_function("v => Number(document.querySelector('#board').dataset.version) > v"
                               " && !document.querySelector('#board').classList.contains('animating')",
                               arg=state["version"])
        expect(page.locator("#new-moves")).to_be_hidden()
        expect(page.locator(".new-move:visible")).to_have_count(0)


# -- 3. the axis numbers -------------------------------------------------------------------

# The board's own numbers (the fitted board), each with its box and the svg's.
SVG_NUMBERS = """() => {
  const svg = document.querySelector('#board').getBoundingClientRect();
  return [...document.querySelectorAll('#board .axes text')].map((t) => ({
    text: t.textContent, box: t.getBoundingClientRect().toJSON(), svg: svg.toJSON()}));
}"""


def assert_strip_numbers_whole(page: Any) -> None:
    """Zoomed: every number shown is wholly clear of the other strip and on screen."""
    g = page.evaluate(GEOMETRY)
    view = g["view"]
    top_bottom = g["top"]["y"] + g["top"]["height"]
    left_right = g["left"]["x"] + g["left"]["width"]
    rows = [r for r in g["rows"] if r["shown"]]
    cols = [c for c in g["cols"] if c["shown"]]
    assert rows and cols
    for r in rows:
        assert r["top"] >= top_bottom, (r, top_bottom)  # not under the column strip
        assert r["bottom"] <= view["bottom"] + 0.5 and r["left"] >= view["left"] - 0.5, (r, view)
    for c in cols:
        assert c["left"] >= left_right, (c, left_right)  # not under the row strip
        assert c["bottom"] <= top_bottom + 0.5 and c["right"] <= view["right"] + 0.5, (c, view)


def test_the_axis_numbers_are_whole_at_every_zoom(
    browser: Any, live_server: LiveServer, size: str
) -> None:
    game = new_game(live_server, 41)
    with opened(browser, live_server, size) as page:
        open_game(page, game)
        numbers = page.evaluate(SVG_NUMBERS)
        assert len(numbers) == 19 + 33
        for n in numbers:
            b, svg = n["box"], n["svg"]
            assert b["x"] >= max(svg["x"], 0) and b["y"] >= svg["y"], n
            assert b["x"] + b["width"] <= svg["x"] + svg["width"], n
        if not phone(page):
            return
        zoom_in(page)
        scroll(page, left=0, down=0)
        g = page.evaluate(GEOMETRY)
        assert [r["n"] for r in g["rows"] if r["shown"]] == list(range(19))  # row 0 too
        assert_strip_numbers_whole(page)
        page.screenshot(path=str(screenshot_path(page, "newcomer-axis-corner")),
                        clip={"x": 0, "y": 0, "width": 200, "height": 200})
        for left, down in ((150, 60), (10_000, 140), (333, 17)):
            scroll(page, left=left, down=down)
            assert_strip_numbers_whole(page)


def screenshot_path(page: Any, name: str) -> Any:
    from .conftest import screenshot_dir

    size = page.viewport_size
    return screenshot_dir() / f"{name}-{size['width']}x{size['height']}.png"


# -- 4. the first tap ------------------------------------------------------------------------


def to_stage_2(live_server: LiveServer, height: int, width: int) -> dict[str, Any]:
    """A practice game against the computer whose human is in stage 2 (any free line goes)."""
    game = dict(live_server.post_json("/api/games", {
        "player_name": "Selin", "height": height, "width": width, "seed": 61, "difficulty": "easy"}))
    act(live_server, game)
    assert live_server.get_json(f"/api/games/{game['game_id']}")["state"]["stage"] == 2
    return game


def middle_empty_slot(page: Any) -> Any:
    x, y = page.evaluate("""() => {
      const b = document.querySelector('#board');
      const w = Number(b.dataset.width), h = Number(b.dataset.height);
      const free = [...b.querySelectorAll('.slot.empty')].map((s) => [Number(s.dataset.x), Number(s.dataset.y)]);
      free.sort((p, q) => Math.hypot(p[0] - w / 2, p[1] - h / 2) - Math.hypot(q[0] - w / 2, q[1] - h / 2));
      return free[0];
    }""")
    return slot(page, x, y)


def test_the_first_tap_zooms_only_where_lines_are_too_close_and_the_page_says_so(
    browser: Any, live_server: LiveServer, size: str
) -> None:
    tip = "#zoom-tip"
    with opened(browser, live_server, size) as page:
        open_game(page, to_stage_2(live_server, 19, 33))
        target = middle_empty_slot(page)
        before = version(page)
        if not phone(page):
            expect(page.locator(tip)).to_be_hidden()
            target.click()  # a click draws at once
            expect(target).to_have_class(re.compile(r"\bby-P\b"))
            return
        expect(page.locator(tip)).to_be_visible()
        expect(page.locator(tip)).to_have_text(
            "The lines are too close together to tap: your first tap zooms in, then a tap draws a line.")
        in_viewport(page, tip)
        screenshot(page, "newcomer-first-tap")
        target.tap()  # too close to hit: it zooms in, draws nothing
        expect(page.locator("#board-scroll")).to_have_class(re.compile(r"\bzoomed\b"))
        expect(page.locator(tip)).to_have_text("Tap a line to draw it.")
        assert version(page) == before
        expect(target).to_have_class(re.compile(r"\bempty\b"))
        target.tap()  # zoomed: the tap draws
        expect(target).to_have_class(re.compile(r"\bby-P\b"))

    with opened(browser, live_server, size) as page:
        # 11 x 17 fits a phone with its lines big enough to hit: no zoom, a tap draws.
        open_game(page, to_stage_2(live_server, 11, 17))
        expect(page.locator(tip)).to_be_hidden()
        expect(page.locator("#zoom-btn")).to_be_hidden()
        target = middle_empty_slot(page)
        target.tap() if phone(page) else target.click()
        expect(target).to_have_class(re.compile(r"\bby-P\b"))
        expect(page.locator("#board-scroll")).not_to_have_class(re.compile(r"\bzoomed\b"))
