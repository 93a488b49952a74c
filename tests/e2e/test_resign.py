"""Resigning on the play page, at 1280 x 800 and 390 x 844 with touch: "Resign" asks
first, in the page ("Yes, resign" / "Keep playing"; Escape keeps playing too), and
only the second press ends the game; the end screen then says "You resigned" and the
computer's win, and the game is finished in the API, in no high score table. Online,
"Abort" is offered before both seats moved, and the friend's page says "The game was
aborted". Screenshots: ``resign-ask-*``, ``resign-end-*``."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, browser_context, checked_page, screenshot
from .helpers import BOARD, own, version

pytestmark = pytest.mark.e2e


def test_resigning_against_the_computer_asks_first_then_shows_the_end(
        sized_page: Any, live_server: LiveServer) -> None:
    page = sized_page
    game = live_server.post_json("/api/games", {"player_name": "Ayla", "height": 7,
                                                "width": 9, "difficulty": "easy"})
    game_id = game["game_id"]
    own(page, game)
    page.goto(f"/play/{game_id}")
    expect(page.locator(BOARD)).to_have_attribute("data-over", "false")
    expect(page.locator("#abort-btn")).to_be_hidden()  # not an online game
    start = version(page)

    page.click("#resign-btn")  # the first press only asks
    expect(page.locator("#end-confirm")).to_be_visible()
    expect(page.locator("#end-question")).to_have_text(
        "Resign this game? The computer wins, and the game enters no high score table.")
    expect(page.locator("#end-yes")).to_have_text("Yes, resign")
    expect(page.locator("#end-yes")).to_be_focused()
    screenshot(page, "resign-ask")
    page.keyboard.press("Escape")  # keeps playing
    expect(page.locator("#end-confirm")).to_be_hidden()
    expect(page.locator("#resign-btn")).to_be_focused()
    page.click("#resign-btn")
    page.click("#end-no")  # so does "Keep playing"
    expect(page.locator("#end-confirm")).to_be_hidden()
    assert live_server.get_json(f"/api/games/{game_id}")["state"]["version"] == start

    page.click("#resign-btn")
    page.click("#end-yes")
    expect(page.locator(BOARD)).to_have_attribute("data-over", "true")
    state = live_server.get_json(f"/api/games/{game_id}")
    assert (state["state"]["resigned"], state["state"]["winner"]) == (1, 2)
    assert state["summary"]["status"] == "finished" and state["state"]["table"] is None
    expect(page.locator("#over-title")).to_have_text("You resigned")
    scores = state["state"]["scores"]
    expect(page.locator("#over-result")).to_have_text(
        f"Computer wins. You {scores[0]} · Computer {scores[1]}")
    expect(page.locator("#message")).to_have_text("You resigned: Computer wins.")
    expect(page.locator("#end-game")).to_be_hidden()
    expect(page.locator("#over-title")).to_be_in_viewport()
    screenshot(page, "resign-end")


def test_online_abort_is_offered_before_both_moved_and_both_pages_see_it(
        browser: Any, live_server: LiveServer) -> None:
    game = live_server.post_json("/api/games", {"player_name": "Ann", "mode": "online",
                                                "height": 7, "width": 9})
    game_id = game["game_id"]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim",
                                    {"code": game["invite"]["code"], "name": "Bob"})
    with browser_context(browser, live_server.base_url) as ann_context, \
            browser_context(browser, live_server.base_url) as bob_context, \
            checked_page(ann_context, live_server.base_url) as ann, \
            checked_page(bob_context, live_server.base_url) as bob:
        own(ann, game)
        own(bob, {"game_id": game_id, "token": claimed["token"]}, seat=2)
        for page in (ann, bob):
            page.goto(f"/play/{game_id}")
            expect(page.locator("#abort-btn")).to_be_visible()
            expect(page.locator("#resign-btn")).to_be_visible()
        bob.click("#abort-btn")
        expect(bob.locator("#end-question")).to_have_text(
            "Abort this game? It ends with no result, for both of you.")
        bob.click("#end-yes")
        for page in (bob, ann):  # Ann's page follows the game live
            expect(page.locator(BOARD)).to_have_attribute("data-over", "true")
            expect(page.locator("#over-title")).to_have_text("The game was aborted")
            expect(page.locator("#end-game")).to_be_hidden()
    summary = live_server.get_json(f"/api/games/{game_id}")["summary"]
    assert (summary["status"], summary["winner"]) == ("aborted", None)
