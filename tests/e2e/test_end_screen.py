"""The end screen (issue 35, item 2), at 1280 x 800 and 390 x 844 with touch:

- the result ("You win!", "You 12 · Computer 9") and "Play again" are at the top of
  the first screen, whether the game ends on the page or the page opens at its end;
- "Play again" starts a game with the same settings (mode, names, level, field, a
  practice game's seed); the link reads "Replay this game" and opens the replay;
- online, "Rematch" makes a new game for the same two players with the seats
  swapped: its maker gets the friend's invite link, the friend's page offers the
  rematch ("Accept the rematch") and accepting it opens the new game, in which each
  plays the other colour.

Screenshots: ``end-vs-computer-*``, ``end-two-players-*``, ``end-rematch-offer-*`` and
``end-rematch-*``.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from squares_testing.play import hint_move

from .conftest import SIZES, LiveServer, browser_context, checked_page, play_by_api, screenshot
from .helpers import BOARD, finished_online_game, own, play_until_over

pytestmark = pytest.mark.e2e

PLAY_URL = re.compile(r"/play/([0-9a-f]{32})$")


def on_first_screen(page: Any, selector: str) -> None:
    """`selector` is visible and wholly inside the window without scrolling."""
    expect(page.locator(selector)).to_be_visible()
    box = page.evaluate(f"""() => {{
        const r = document.querySelector({selector!r}).getBoundingClientRect();
        return {{top: r.top + scrollY, bottom: r.bottom + scrollY, left: r.left, right: r.right,
                 height: innerHeight, width: innerWidth}}; }}""")
    assert box["top"] >= 0 and box["bottom"] <= box["height"], (selector, box)
    assert box["left"] >= 0 and box["right"] <= box["width"], (selector, box)


def game_id_of(page: Any) -> str:
    match = PLAY_URL.search(page.url)
    assert match, page.url
    return match.group(1)


def test_the_end_of_a_game_against_the_computer_offers_to_play_again(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    game = live_server.post_json("/api/games", {"player_name": "Ayla", "height": 7, "width": 9,
                                                "seed": 5, "difficulty": "hard"})
    play_by_api(live_server, game["game_id"], game["token"], rounds=10_000)
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    expect(page.locator(BOARD)).to_have_attribute("data-over", "true")
    title = {0: "A draw", 1: "You win!", 2: "Computer wins"}[state["winner"]]
    expect(page.locator("#over-title")).to_have_text(title)
    expect(page.locator("#over-result")).to_have_text(
        f"You {state['scores'][0]} · Computer {state['scores'][1]}")
    for selector in ("#over-title", "#over-result", "#again-btn", "#over-replay"):
        on_first_screen(page, selector)
    expect(page.locator("#over-replay")).to_have_text("Replay this game")
    expect(page.locator("#replay-link")).to_have_text("Replay this game")
    expect(page.locator("#rematch-btn")).to_be_hidden()
    screenshot(page, "end-vs-computer")

    page.click("#again-btn")
    expect(page).not_to_have_url(re.compile(game["game_id"]))
    expect(page.locator(BOARD)).to_have_attribute("data-over", "false")
    expect(page.locator("#over")).to_be_hidden()
    again = live_server.get_json(f"/api/games/{game_id_of(page)}")["state"]
    for key in ("mode", "difficulty", "height", "width", "ranked", "seed"):
        assert again[key] == state[key], key
    assert [s["name"] for s in again["seats"]] == ["Ayla", "Computer"]

    page.go_back()  # the finished game again, and its replay
    expect(page.locator("#over-replay")).to_be_visible()
    page.click("#over-replay")
    page.wait_for_url(f"**/games/{game['game_id']}**")


def test_a_game_ended_on_the_page_shows_the_result_at_the_top(
    sized_page: Any, live_server: LiveServer
) -> None:
    """Two players on one screen: the API plays all but the last few lines, the page
    the rest; "Play again" keeps both names."""
    page = sized_page
    game = live_server.post_json("/api/games", {
        "player_name": "Ayla", "second_name": "Bora", "mode": "two_players",
        "height": 7, "width": 9, "seed": 8})
    game_id, state = game["game_id"], game["state"]
    slots = sum((x + y) % 2 for x in range(9) for y in range(7))
    while slots - len(state["lines"]) > 3 and not state["over"]:
        state = hint_move(live_server.send, game_id, game["token"], state)["state"]
    assert not state["over"]
    own(page, game)
    page.goto(f"/play/{game_id}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    expect(page.locator("#over")).to_be_hidden()
    play_until_over(page)
    final = live_server.get_json(f"/api/games/{game_id}")["state"]
    s = final["scores"]
    expect(page.locator("#over-result")).to_have_text(f"Ayla {s[0]} · Bora {s[1]}")
    words = {0: "A draw", 1: "Ayla wins", 2: "Bora wins"}
    expect(page.locator("#over-title")).to_have_text(words[final["winner"]])
    page.wait_for_timeout(300)  # the scroll to the result
    for selector in ("#over-title", "#again-btn"):
        on_first_screen(page, selector)
    screenshot(page, "end-two-players")
    page.click("#again-btn")
    expect(page).not_to_have_url(re.compile(game_id))
    again = live_server.get_json(f"/api/games/{game_id_of(page)}")["state"]
    assert [s["name"] for s in again["seats"]] == ["Ayla", "Bora"]
    assert (again["mode"], again["height"], again["width"], again["seed"]) == (
        "two_players", 7, 9, "8")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_online_rematch_swaps_the_seats_and_the_friend_accepts_it(
    browser: Any, live_server: LiveServer, size: str
) -> None:
    old, tokens = finished_online_game(live_server)
    with contextlib.ExitStack() as stack:
        pages = {}
        for seat, who in ((1, "ann"), (2, "bob")):
            context = stack.enter_context(browser_context(browser, live_server.base_url, size))
            page = stack.enter_context(checked_page(context, live_server.base_url))
            own(page, {"game_id": old, "token": tokens[seat]}, seat=seat)
            page.goto(f"/play/{old}")
            expect(page.locator(BOARD)).to_have_attribute("data-over", "true")
            on_first_screen(page, "#rematch-btn")
            expect(page.locator("#again-btn")).to_be_hidden()
            pages[who] = page
        ann, bob = pages["ann"], pages["bob"]

        ann.click("#rematch-btn")  # Ann makes it: her new page shows the friend's invite
        expect(ann).not_to_have_url(re.compile(old))
        new = game_id_of(ann)
        expect(ann.locator("#invite")).to_be_visible()
        expect(ann.locator("#invite-url")).to_have_value(re.compile(rf"/join/{new}#code="))
        expect(ann.locator("#status .who-2")).to_contain_text("(you)")  # the other seat now
        expect(ann.locator("#status [data-field=name1]")).to_have_text("Waiting for a friend")

        # Bob's page learns of it by itself and offers it.
        expect(bob.locator("#rematch-btn")).to_have_text("Accept the rematch", timeout=15_000)
        expect(bob.locator("#again-note")).to_contain_text("Ann asks for a rematch")
        on_first_screen(bob, "#rematch-btn")
        screenshot(bob, "end-rematch-offer")
        bob.click("#rematch-btn")
        expect(bob).to_have_url(re.compile(rf"/play/{new}$"))
        expect(bob.locator("#status .who-1")).to_contain_text("(you)")
        expect(bob.locator("#status [data-field=name2]")).to_have_text("Ann")
        state = live_server.get_json(f"/api/games/{new}")["state"]
        assert [s["name"] for s in state["seats"]] == ["Bob", "Ann"]
        assert state["open_seat"] is None
        # Ann's page follows the game: Bob joined, the invite is gone.
        expect(ann.locator("#status [data-field=name1]")).to_have_text("Bob")
        expect(ann.locator("#invite")).to_be_hidden()
        screenshot(ann, "end-rematch")
