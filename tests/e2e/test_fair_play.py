"""Fair play on the pages (issue 23): a game with a chosen seed is a practice game,
marked "practice" wherever it is shown and never in the high scores; an online game
has hints only if its creator allowed them, and both players see which it is."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from .browsers import Browser, synced
from .conftest import LiveServer
from .helpers import BOARD, play_until_over, start_game

pytestmark = pytest.mark.e2e

PRACTICE = re.compile(r"\bpractice\b", re.IGNORECASE)


def hint_refusal(live_server: LiveServer, game_id: str, token: str) -> tuple[int, str]:
    """GET the hint with `token`, expecting a refusal: its status and error code."""
    request = urllib.request.Request(f"{live_server.base_url}/api/games/{game_id}/hint",
                                     headers={"Authorization": f"Bearer {token}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    body = json.loads(refused.value.read().decode("utf-8"))
    return refused.value.code, str(body["error"]["code"])


def test_a_practice_game_is_marked_practice_on_every_page(page: Any,
                                                          live_server: LiveServer) -> None:
    # The start form says what a chosen seed does.
    page.goto("/")
    page.click("details.more summary")
    expect(page.locator("#seed-help")).to_contain_text("practice game, never in the high scores")
    game_id = start_game(page, "Pelin", size="7x9", seed=42)
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert state["ranked"] is False and state["seed"] == "42"
    expect(page.locator("#practice-note")).to_have_text("Practice game · seed 42")
    expect(page.locator("#hints-note")).to_be_hidden()  # hints: an online game's choice
    expect(page.locator("#hint-btn")).to_be_visible()
    expect(page.locator("#hint-warning")).to_be_hidden()  # a practice game is unranked
    ranked = live_server.post_json("/api/games", {"player_name": "Pelin", "height": 7,
                                                  "width": 9})

    # The lists: the practice game marked in words, the ranked one not.
    for path, table in (("/games?player=Pelin", "#games-table"), ("/live", "#live-table")):
        page.goto(path)
        row = page.locator(f'{table} tr[data-game-id="{game_id}"]')
        expect(row).to_have_attribute("data-ranked", "false")
        expect(row.locator("td.kind")).to_contain_text(PRACTICE)
        other = page.locator(f'{table} tr[data-game-id="{ranked["game_id"]}"]')
        expect(other).to_have_attribute("data-ranked", "true")
        expect(other.locator("td.kind")).not_to_contain_text(PRACTICE)
    page.goto(f"/watch/{game_id}")
    expect(page.locator(".replay-title")).to_contain_text(PRACTICE)
    page.goto(f"/games/{game_id}?step=1")
    expect(page.locator(".replay-title")).to_contain_text(PRACTICE)
    expect(page.locator("#step-desc")).to_contain_text("A new practice game on a 7 × 9 field")
    expect(page.locator("#step-desc")).to_contain_text("Its seed is 42:")
    expect(page.locator('#moves a[data-step="1"]')).to_have_text("start: 7 × 9, practice, seed 42")
    page.goto(f"/games/{ranked['game_id']}?step=1")
    expect(page.locator(".replay-title")).not_to_contain_text(PRACTICE)
    expect(page.locator("#step-desc")).to_contain_text("The random pieces are sealed")
    expect(page.locator("#step-desc")).not_to_contain_text("null")

    # Played to the end: the page says it is not in the high score table, and it is not.
    page.goto(f"/play/{game_id}")
    expect(page.locator(f"{BOARD}[data-version]")).to_have_count(1)
    play_until_over(page)
    expect(page.locator("#over-practice")).to_be_visible()
    expect(page.locator("#over-assisted")).to_be_visible()  # its hints, too
    page.wait_for_selector("#over-table tbody[data-loaded]", state="attached")  # may be empty
    expect(page.locator("#over-table tr.mine")).to_have_count(0)
    table = live_server.get_json("/api/highscores?limit=1000&height=7&width=9")["high_scores"]
    assert [row for row in table if row["game_id"] == game_id] == []

    page.goto("/how-to-play")
    expect(page.locator("#h-fair")).to_have_text("Ranked and practice games")


def test_an_online_game_without_hints_offers_none_to_either_player(
    browser: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Ann", "mode": "online",
                                                   "height": 7, "width": 9})
    game_id = created["game_id"]
    assert created["state"]["hints"] is False  # off unless the creator turns them on
    people = {1: Browser(browser, live_server, address="203.0.113.11"),
              2: Browser(browser, live_server, address="203.0.113.12")}
    try:
        ann, bob = people[1].page, people[2].page
        hint_requests: list[str] = []
        for person in people.values():
            person.page.on("request", lambda r: hint_requests.append(r.url)
                           if r.url.endswith("/hint") else None)
        # The invited friend reads it on the join page, then joins there.
        bob.goto(created["invite"]["url"])
        expect(bob.locator("#join-root .intro")).to_contain_text("hints are off")
        bob.fill("#join-name", "Bob")
        bob.click("#join-btn")
        expect(bob).to_have_url(f"{live_server.base_url}/play/{game_id}")
        ann.goto("/how-to-play")
        ann.evaluate("e => localStorage.setItem('squares.tokens', JSON.stringify(e))",
                     {game_id: {"token": created["token"], "at": 1, "seat": 1}})
        ann.goto(f"/play/{game_id}")
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
        mover = people[state["turn"]].page
        for page in (ann, bob):
            synced(page, state["version"])
            expect(page.locator("#hints-note")).to_have_text("Hints off")
            expect(page.locator("#hint-btn")).to_be_hidden()
            expect(page.locator("#keys-hint")).to_be_hidden()
        expect(mover.locator("#advance-btn")).to_be_enabled()
        # The H key asks for nothing: the page says hints are off.
        mover.locator(BOARD).focus()
        mover.keyboard.press("h")
        expect(mover.locator("#message")).to_have_attribute("data-code", "hints_off")
        expect(mover.locator("#message")).to_have_text("Hints are off in this game.")
        assert hint_requests == []
        # Nor does the server give one, even to the seat to move.
        tokens = {1: created["token"], 2: people[2].token(game_id)}
        assert hint_refusal(live_server, game_id, tokens[state["turn"]]) == (403, "hints_off")
        for person in people.values():
            person.assert_clean("player")
    finally:
        for person in people.values():
            person.context.close()
