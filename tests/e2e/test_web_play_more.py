"""More of the play page in Chromium: names from the API, two humans, the hint,
and a computer turn left pending (the page asks the server to play it)."""

from __future__ import annotations

import json
import re
import urllib.parse
from typing import Any

import pytest
from playwright.sync_api import expect

from service.domain.commands import Advance, PlaceLine
from service.domain.fold import apply_all
from service.domain.rules import decide, legal_actions
from service.services import Services

from .conftest import LiveServer, screenshot
from .helpers import (
    BOARD,
    ask_hint,
    cursor,
    follow_hint,
    slot,
    stage,
    start_game,
    version,
    wait_for_new_version,
)

pytestmark = pytest.mark.e2e

RED = "rgb(208, 49, 45)"


def has_classes(*names: str) -> re.Pattern[str]:
    return re.compile("".join(rf"(?=.*(^|\s){re.escape(n)}(\s|$))" for n in names))


def adopt(page: Any, game_id: str, token: str) -> None:
    """Make `game_id` this browser's unfinished game, as if started here; open `/`."""
    page.goto("/")
    page.evaluate("g => localStorage.setItem('squares.game', JSON.stringify(g))",
                  {"game_id": game_id, "token": token})
    page.reload()


def test_html_in_a_name_made_through_the_api_stays_text_on_every_page(
    page: Any, live_server: LiveServer
) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    name = "<b>x</b><svg onload=alert(3)>"
    assert len(name) <= 32
    created = live_server.post_json("/api/games", {"player_name": name, "height": 7,
                                                   "width": 9, "seed": 11})
    game_id = created["game_id"]
    adopt(page, game_id, created["token"])
    expect(page.locator("#resume-desc")).to_contain_text(f"{name} vs Computer")
    page.click("#resume-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(created["state"]["version"]))
    expect(page.locator(".players")).to_contain_text(name)
    follow_hint(page)
    for path in ("/", f"/games/{game_id}?step=1", "/games?player=" + urllib.parse.quote(name), "/highscores"):
        page.goto(path)
        assert page.locator("main b, main svg[onload], svg svg").count() == 0, path
    page.goto(f"/games/{game_id}")
    expect(page.locator(".replay-title")).to_contain_text(name)
    expect(page.locator(".chart-legend")).to_contain_text(name)
    assert dialogs == []


def test_two_players_take_turns_on_one_screen(page: Any, live_server: LiveServer) -> None:
    start_game(page, "Ece", size="9x13", seed=21, second_name="Can")
    expect(page.locator("#difficulty-label")).to_be_hidden()
    expect(page.locator("#st-turn")).to_have_text("Ece")
    expect(page.locator("#ai-box")).to_be_hidden()
    # Ece plays her whole turn from the hints; then it is Can's, with no animation
    # and no computer explanation: he is a person.
    for _ in range(40):
        if page.locator("#st-turn").text_content() == "Can":
            break
        follow_hint(page)
    else:
        raise AssertionError("Ece's turn did not end")
    expect(page.locator("#st-round")).to_have_text("1")
    expect(page.locator("#skip-btn")).to_be_hidden()
    expect(page.locator(".status")).to_have_class(has_classes("status", "turn-2"))
    hint = ask_hint(page)
    while hint == "advance":  # a stage-1 with nothing to square: move on
        before = version(page)
        page.keyboard.press("Enter")
        wait_for_new_version(page, before)
        hint = ask_hint(page)
    x, y = (int(v) for v in hint.split(","))
    before = version(page)
    slot(page, x, y).click()
    wait_for_new_version(page, before)
    expect(slot(page, x, y)).to_have_class(has_classes("by-C", "cur"))
    ink = f'{BOARD} .slot[data-x="{x}"][data-y="{y}"] .ink'
    assert page.eval_on_selector(ink, "e => getComputedStyle(e).stroke") == RED
    assert page.locator("#ai-box").is_hidden()


def test_the_hint_marks_its_line_and_moves_the_cursor_there(
    page: Any, live_server: LiveServer
) -> None:
    game_id = start_game(page, "Deniz", size="9x13", seed=8)
    hint = ask_hint(page)
    token = page.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[game_id]["token"]
    expected = live_server.get_json(f"/api/games/{game_id}/hint", token)  # the same hint
    expect(page.locator("#message")).to_contain_text("Hint:")
    if expected["action"] == "line":
        assert hint == f"{expected['x']},{expected['y']}"
        expect(slot(page, expected["x"], expected["y"])).to_have_class(has_classes("empty", "hint"))
        assert cursor(page) == (expected["x"], expected["y"])
        before = version(page)
        page.keyboard.press("Space")
        wait_for_new_version(page, before)
        expect(slot(page, expected["x"], expected["y"])).to_have_class(has_classes("by-P", "cur"))
        assert page.locator(f"{BOARD} .slot.hint").count() == 0
    else:
        assert hint == "advance"
        expect(page.locator("#advance-btn")).to_have_class(has_classes("hint"))


def test_an_action_while_the_page_catches_up_is_played_after_it_not_dropped(
    page: Any, live_server: LiveServer
) -> None:
    """A key pressed while the page reads the game again (its feed was ahead: here the
    player's hint asked from elsewhere appended hint_used) waits for that read and is
    then played: it is not lost. Every request is slowed down (0.8 s) so that the
    press lands inside the read."""
    game_id = start_game(page, "Deniz", size="9x13", seed=8)
    token = page.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[game_id]["token"]
    before = version(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 800,
                                                  "downloadThroughput": -1,
                                                  "uploadThroughput": -1})
    with page.expect_request(lambda r: r.method == "GET"
                             and r.url.endswith(f"/api/games/{game_id}")):
        live_server.get_json(f"/api/games/{game_id}/hint", token)  # hint_used: one on
    page.keyboard.press("Enter")  # the read is under way: the page is busy
    assert wait_for_new_version(page, before + 1) == before + 2  # the advance, played
    assert stage(page) == 2


def test_a_computer_turn_left_pending_is_played_when_the_page_opens(
    page: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    """The human's turn was stored but the computer's was not (a server restart
    in between, say): opening the game plays the computer's turn (the server plays
    it on the first read of the game)."""
    created = live_server.post_json("/api/games", {"player_name": "Kaan", "height": 9,
                                                   "width": 13, "seed": 4,
                                                   "difficulty": "easy"})
    game_id = created["game_id"]
    services = Services.from_url(live_server.database_url)

    def store(command: Any) -> None:  # the human's moves, written without the computer's
        state = services.store.load_state(game_id)  # the store: no service settles it
        events = decide(state, command)
        services.store.append(game_id, state.version, events, apply_all(state, events))

    store(Advance(1))
    x, y = legal_actions(services.store.load_state(game_id)).lines[0]
    store(PlaceLine(1, x, y))
    store(Advance(1))
    store(Advance(1))
    pending = services.store.load_state(game_id)
    assert (pending.turn, pending.over) == (2, False)

    adopt(page, game_id, created["token"])
    page.click("#resume-btn")
    final = wait_for_new_version(page, pending.version)
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert final == state["version"]
    assert state["turn"] == 1 and state["round"] == 2
    expect(page.locator("#st-turn")).to_have_text("Kaan")
    expect(page.locator("#st-round")).to_have_text("2")
    expect(page.locator("#ai-box")).to_be_visible()
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    stage1 = [e["data"] for e in events if e["type"] == "move_explained"
              and e["data"]["stage"] == 1][-1]
    expect(page.locator("#ai-best-point")).to_have_text(str(stage1["best_point"]))
    assert page.locator(f"{BOARD} .slot.by-C").count() == sum(
        1 for line in state["lines"] if line["by"] == "C")
    screenshot(page, tmp_path / "play-pending-computer.png")
    print(json.dumps({"game": game_id, "version": final}))
