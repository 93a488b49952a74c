"""The browser pages of issue 6, driven in Debian's Chromium against the real app."""

from __future__ import annotations

import json
import math
import re
import urllib.parse
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, screenshot
from .helpers import (
    BOARD,
    cursor,
    follow_hint,
    move_cursor_to,
    play_unassisted_until_over,
    slot,
    stage,
    start_game,
    version,
    wait_for_new_version,
)

pytestmark = pytest.mark.e2e

BLUE = "rgb(31, 95, 214)"
RED = "rgb(208, 49, 45)"
GREEN = "rgb(35, 145, 60)"
DEFAULT_HIGH_SCORES = [
    ("Tarık Yolcu", 325),
    ("Eda Fırat", 200),
    ("Sinem Okur", 153),
    ("Deniz Vadi", 85),
    ("Ali Okyanus", 26),
]


def classes(*names: str) -> re.Pattern[str]:
    """Matches a class attribute that has all `names`."""
    return re.compile("".join(rf"(?=.*(^|\s){re.escape(n)}(\s|$))" for n in names))


def stroke_of(page: Any, selector: str) -> str:
    return str(page.eval_on_selector(selector, "e => getComputedStyle(e).stroke"))


def test_play_by_keyboard_and_mouse_through_the_three_stages(
    page: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    game_id = start_game(page, "Ayşe", size="19x33", seed=2024, difficulty="easy")
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    height, width = state["height"], state["width"]
    assert (height, width) == (19, 33)
    assert page.locator(f"{BOARD} .dots circle").count() == 10 * 17
    assert page.locator(f"{BOARD} .slot.by-R").count() == len(state["lines"])
    assert stroke_of(page, f"{BOARD} .slot.by-R .ink") == GREEN
    expect(page.locator("#st-round")).to_have_text("1")
    expect(page.locator("#st-turn")).to_have_text("Ayşe")
    expect(page.locator("#st-stage")).to_have_text("1")
    expect(page.locator("#st-ownerless")).to_have_text(str(state["ownerless"]))

    # Stage 1, keyboard: a line that forms no square is refused with the rule's
    # message, and nothing changes.
    legal = [tuple(p) for p in state["legal"]["lines"]]
    assert legal, "seed 2024 starts with boxes that one line completes"
    drawn = {(line["x"], line["y"]) for line in state["lines"]}
    empty = [(x, y) for y in range(height) for x in range(width)
             if (x + y) % 2 == 1 and (x, y) not in drawn]
    bad = next(p for p in empty if p not in legal)
    move_cursor_to(page, *bad)
    page.keyboard.press("Space")
    expect(page.locator("#message")).to_have_attribute("data-code", "stage1_needs_square")
    expect(page.locator("#message")).to_contain_text("every line must close a square")
    assert version(page) == state["version"]
    expect(slot(page, *bad)).to_have_class(classes("empty"))

    # ... and a line that forms a square is placed: blue, with a blue P box.
    x, y = legal[0]
    move_cursor_to(page, x, y)
    page.keyboard.press("Space")
    wait_for_new_version(page, state["version"])
    expect(slot(page, x, y)).to_have_class(classes("by-P", "cur"))
    assert stroke_of(page, f'{BOARD} .slot[data-x="{x}"][data-y="{y}"] .ink') == BLUE
    expect(page.locator(f'{BOARD} .box[data-owner="P"] text').first).to_have_text("P")
    expect(page.locator("#st-squares1")).not_to_have_text("0")

    # Enter: stage 2; one line by mouse; a second one is refused.
    before = version(page)
    page.keyboard.press("Enter")
    wait_for_new_version(page, before)
    assert stage(page) == 2
    expect(page.locator("#st-stage")).to_have_text("2")
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    free = [tuple(p) for p in state["legal"]["lines"]]
    slot(page, *free[0]).click()
    wait_for_new_version(page, state["version"])
    expect(slot(page, *free[0])).to_have_class(classes("by-P", "cur"))
    assert cursor(page) == free[0]
    after_one = version(page)
    slot(page, *free[1]).click()
    expect(page.locator("#message")).to_have_attribute("data-code", "stage2_line_done")
    assert version(page) == after_one

    # Enter: stage 3 inserts the random pieces, shown with their figures.
    page.keyboard.press("Enter")
    wait_for_new_version(page, after_one)
    assert stage(page) == 3
    pieces = page.locator("#pieces li")
    expect(pieces).to_have_count(3)
    expect(pieces.nth(0)).to_contain_text("Random piece: 3 lines")
    expect(pieces.nth(1)).to_contain_text("Random piece: 2 lines")
    expect(pieces.nth(2)).to_contain_text("Random piece: 1 line")
    assert page.locator("#pieces .piece-figure").count() == 3
    assert page.locator("#pieces .piece-figure").first.locator("line").count() == 3
    screenshot(page, tmp_path / "play-stage3.png")

    # Enter ends the turn: the computer's turn is animated, then skipped with Escape.
    human_done = version(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{BOARD}.animating")
    expect(page.locator("#skip-btn")).to_be_visible()
    page.wait_for_selector(f"{BOARD}.animating .slot.by-C")  # drawn step by step
    page.keyboard.press("Escape")
    final = wait_for_new_version(page, human_done)
    expect(page.locator("#skip-btn")).to_be_hidden()
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert final == state["version"]
    assert state["turn"] == 1 and state["round"] == 2
    expect(page.locator("#st-round")).to_have_text("2")
    expect(page.locator("#st-turn")).to_have_text("Ayşe")
    expect(page.locator("#st-score2")).to_have_text(str(state["scores"][1]))
    expect(page.locator("#st-squares2")).to_have_text(str(state["squares"][1]))
    assert stroke_of(page, f"{BOARD} .slot.by-C .ink") == RED
    # The board is exactly the server's state, the computer's turn highlighted.
    by_slot = {(line["x"], line["y"]): line["by"] for line in state["lines"]}
    for letter in "PCR":
        assert page.locator(f"{BOARD} .slot.by-{letter}").count() == sum(
            1 for by in by_slot.values() if by == letter)
    assert state["last_turn"]["seat"] == 2
    for lx, ly in state["last_turn"]["lines"]:
        expect(slot(page, lx, ly)).to_have_class(classes(f"by-{by_slot[(lx, ly)]}", "last"))
    # The computer's explanation (RULES A2): its stage-1 plan as in the assignment's
    # screen, and the reason for its stage-2 line.
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    plans = {e["data"]["stage"]: e["data"] for e in events if e["type"] == "move_explained"}
    expect(page.locator("#ai-box")).to_be_visible()
    expect(page.locator("#ai-best-point")).to_have_text(str(plans[1]["best_point"]))
    expect(page.locator("#ai-best-x")).to_have_text(str(plans[1]["best_x"]))
    expect(page.locator("#ai-best-y")).to_have_text(str(plans[1]["best_y"]))
    expect(page.locator("#ai-best-direction")).to_have_text(
        ", ".join(map(str, plans[1]["best_direction"])) or "—")
    expect(page.locator("#ai-plan-2")).to_contain_text(
        f"Stage 2, extra line at ({plans[2]['best_x']}, {plans[2]['best_y']})")
    screenshot(page, tmp_path / "play-after-computer.png")


def test_a_short_game_to_the_end_then_its_replay_and_the_high_scores(
    page: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    name = "Zeynep Kaya"
    # A ranked game (no seed: only those enter the high score table). Its seed is
    # secret, so its length is not chosen: on 9 x 13 the computer always gets a turn
    # (on 7 x 9 the player's first turn ends about one game in five).
    game_id = start_game(page, name, size="9x13", difficulty="easy")
    expect(page.locator("#practice-note")).to_be_hidden()
    expect(page.locator("#hint-warning")).to_have_text(
        "A hint makes this game unranked: it then enters no high score table.")
    play_unassisted_until_over(page)  # no hint (RULES E1): the game stays ranked

    # Game over: final scores and the high score table with the player's row marked.
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert state["over"]
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-result")).to_contain_text(
        f"You {state['scores'][0]} · Computer {state['scores'][1]}")
    page.wait_for_selector("#over-table tbody[data-loaded]")
    mine = page.locator("#over-table tr.mine")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text(name)
    expect(mine.locator("td").nth(2)).to_have_text(str(state["scores"][0]))
    # the game beside the games of its field size (the defaults are the default field's)
    expect(page.locator("#over-caption")).to_have_text("High scores on 9 × 13, easy level")
    expect(page.locator("#over-table")).not_to_contain_text("Tarık Yolcu")
    expect(page.locator("#over-practice")).to_be_hidden()
    expect(page.locator("#over-assisted")).to_be_hidden()
    assert page.evaluate("localStorage.getItem('squares.game')") is None
    screenshot(page, tmp_path / "play-game-over.png")

    # The replay: step by step from the start.
    page.click("#over-replay")
    page.wait_for_url(f"**/games/{game_id}**")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "1")
    expect(page.locator("#step-desc")).to_contain_text("A new game on a 9 × 13 field")
    expect(page.locator("#step-desc")).to_contain_text(
        "The random pieces are sealed: the seed is revealed when the game ends.")
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    total = len(events)
    expect(page.locator("#step-total")).to_have_text(str(total))
    page.keyboard.press("ArrowRight")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "2")
    assert "step=2" in page.url
    page.click("#next-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "3")
    page.click("#prev-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "2")
    page.keyboard.press("End")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total))
    page.keyboard.press("Home")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "1")
    page.locator("#slider").fill("4")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "4")
    expect(page.locator("#chart-marker")).to_have_attribute("data-step", "4")
    assert "step=4" in page.url

    # A shared URL opens at its step, the event described in words, the board
    # exactly the server's state at that step.
    k, event = next((e["seq"], e) for e in events
                    if e["type"] == "line_placed" and e["data"]["seat"] == 2)
    page.goto(f"/games/{game_id}?step={k}")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(k))
    d = event["data"]
    words = f"Computer placed a line at ({d['x']}, {d['y']})"
    if d["squares"]:
        sx, sy, _ = d["squares"][0]
        words += f" — square{'s' if len(d['squares']) > 1 else ''} at ({sx}, {sy})"
    expect(page.locator("#step-desc")).to_contain_text(f"Step {k}: {words}")
    at_k = live_server.get_json(f"/api/games/{game_id}/replay/{k}")["state"]
    assert page.locator(f"{BOARD} .slot:not(.empty)").count() == len(at_k["lines"])
    assert page.locator(f"{BOARD} .box.formed").count() == len(at_k["boxes"])
    expect(page.locator("#st-score2")).to_have_text(str(at_k["scores"][1]))
    screenshot(page, tmp_path / "replay.png")

    # Autoplay at the fastest speed runs to the end and stops there.
    page.select_option("#speed", "50")
    page.keyboard.press("Space")
    expect(page.locator("#play-btn")).to_have_text("Pause")
    # (a step every 50 ms, and each drawn: seconds on a busy machine)
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total), timeout=30_000)
    expect(page.locator("#play-btn")).to_have_text("▶ Play")
    expect(page.locator("#step-desc")).to_contain_text("High score table")
    assert f"step={total}" in page.url

    # The replay list links to it.
    page.goto("/games")
    row = page.locator(f'#games-table tr[data-game-id="{game_id}"]')
    expect(row).to_contain_text(name)
    expect(row).to_contain_text("finished")
    expect(row).to_contain_text(f"{total} steps")
    row.locator("a.replay-link").click()
    page.wait_for_url(f"**/games/{game_id}**")

    # The high score page: the default field's table, descending, the defaults with
    # their Turkish letters, "from the original game" without a replay link (RULES E2)...
    page.goto("/highscores")
    expect(page.locator("h1")).to_have_text("High scores on 19 × 33")
    rows = page.locator("#highscores-table tbody tr")
    names = rows.locator("td.name").all_text_contents()
    scores = [int(s) for s in rows.locator("td.score").all_text_contents()]
    assert scores == sorted(scores, reverse=True)
    for default_name, default_score in DEFAULT_HIGH_SCORES:
        assert names.count(default_name) == 1
        assert scores[names.index(default_name)] == default_score
    original = rows.filter(has_text="Tarık Yolcu")
    expect(original.locator("td.game")).to_have_text("from the original game")
    expect(original.locator("a.replay-link")).to_have_count(0)
    # ... and the game's own table (9 x 13), the finished player's row linking to the replay.
    page.goto(f"/highscores?game={game_id}")
    expect(page.locator("h1")).to_have_text("High scores on 9 × 13")
    marked = page.locator("#highscores-table tr.mine")
    expect(marked).to_have_count(1)
    expect(marked.locator("td.name")).to_have_text(name)
    expect(marked.locator("td.score")).to_have_text(str(state["scores"][0]))
    expect(marked.locator("a.replay-link")).to_have_attribute("href", f"/games/{game_id}")


def test_names_are_shown_as_text_never_as_html(
    page: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    first, second = "<script>alert(1)</script>", "<img src=x onerror=alert(2)>"
    # ranked (no seed), so that both names enter the high score table
    game_id = start_game(page, first, size="7x9", second_name=second)
    expect(page.locator(".players")).to_contain_text(first)
    expect(page.locator(".players")).to_contain_text(second)
    play_unassisted_until_over(page)  # two humans on one screen, no hint
    page.wait_for_selector("#over-table tbody[data-loaded]")
    expect(page.locator("#over-caption")).to_have_text("Two-player results on 7 × 9")
    expect(page.locator("#over-table tr.mine")).to_have_count(2)
    expect(page.locator("#over-table")).to_contain_text(first)
    expect(page.locator("#over-result")).to_contain_text(second)

    page.goto(f"/highscores?game={game_id}")
    marked = page.locator("#highscores-table tr.mine td.name").all_text_contents()
    assert sorted(marked) == sorted([first, second])
    page.goto("/games?player=" + urllib.parse.quote(first))
    expect(page.locator(f'tr[data-game-id="{game_id}"] .names')).to_have_text(
        f"{first} vs {second}")
    page.goto(f"/games/{game_id}?step=2")
    expect(page.locator(".replay-title")).to_contain_text(first)
    expect(page.locator("#step-desc")).to_contain_text(first)
    for path in ("/", f"/games/{game_id}", "/games", "/highscores"):
        page.goto(path)
        assert page.locator("img").count() == 0
        assert page.locator("script:not([src]):not([type])").count() == 0
    assert dialogs == []


def test_an_unfinished_game_is_resumed_from_the_same_browser(
    page: Any, live_server: LiveServer
) -> None:
    game_id = start_game(page, "Mert", size="9x13", seed=8)
    follow_hint(page)
    reached = version(page)
    page.goto("/")
    expect(page.locator("#resume")).to_be_visible()
    expect(page.locator("#resume-desc")).to_contain_text("Mert vs Computer")
    page.click("#resume-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(reached))
    assert page.locator(BOARD).get_attribute("data-height") == "9"
    # The token still works: the next move is accepted.
    follow_hint(page)
    assert live_server.get_json(f"/api/games/{game_id}")["state"]["version"] > reached
    page.goto("/")
    page.click("#forget-btn")
    expect(page.locator("#resume")).to_be_hidden()
    page.reload()
    expect(page.locator("#start-form")).to_be_visible()
    expect(page.locator("#resume")).to_be_hidden()


def test_the_replay_list_is_paginated(page: Any, live_server: LiveServer) -> None:
    for n in range(21):
        request = urllib.request.Request(
            live_server.base_url + "/api/games",
            data=json.dumps({"player_name": f"Pager {n}", "height": 7, "width": 7}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=30) as resp:
            assert resp.status == 201
    total = live_server.get_json("/api/games")["total"]
    pages = math.ceil(total / 20)
    page.goto("/games")
    expect(page.locator("#games-table tbody tr")).to_have_count(20)
    expect(page.locator(".pager")).to_contain_text(f"Page 1 of {pages}")
    page.click("a[rel=next]")
    expect(page.locator(".pager")).to_contain_text(f"Page 2 of {pages}")
    expect(page.locator("#games-table tbody tr")).to_have_count(min(20, total - 20))
    page.click("a[rel=prev]")
    expect(page.locator(".pager")).to_contain_text(f"Page 1 of {pages}")
