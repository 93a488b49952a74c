"""Issue 34 in the browser: the play page says before the first hint that a hint makes
the game unranked, marks the game assisted after it (its own page at once, the other
player's through the live feed), and the move chosen from the hint still lands; the
lists and the replay show the mark (RULES E1)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, browser_context, checked_page, screenshot
from .helpers import BOARD, ask_hint, slot, start_game, version, wait_for_new_version

pytestmark = pytest.mark.e2e

WARNING = "A hint makes this game unranked: it then enters no high score table."


def test_rule_E1_the_play_page_warns_before_the_first_hint_and_marks_the_game_after_it(
    page: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    game_id = start_game(page, "Umut", size="9x13", difficulty="easy")  # ranked
    expect(page.locator("#hint-warning")).to_have_text(WARNING)
    expect(page.locator("#assisted-note")).to_be_hidden()
    assert version(page) == 1

    hint = ask_hint(page)  # the first hint: hint_used, the game one version on
    expect(page.locator("#assisted-note")).to_be_visible()
    expect(page.locator("#hint-warning")).to_be_hidden()
    assert version(page) == 2
    expect(page.locator("#play-root")).to_have_attribute("data-seqs", "1 2")
    screenshot(page, tmp_path / "play-assisted.png")
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert (state["version"], state["assisted"], state["table"]) == (2, True, None)

    # The hinted move lands (no version conflict), and a second hint writes nothing.
    if hint == "advance":
        page.click("#advance-btn")
    else:
        slot(page, *(int(v) for v in hint.split(","))).click()
    moved = wait_for_new_version(page, 2)
    expect(page.locator("#message")).not_to_have_attribute("data-code", "version_conflict")
    ask_hint(page)
    assert version(page) == moved
    assert live_server.get_json(f"/api/games/{game_id}")["state"]["version"] == moved

    # After a reload, in the games list and on the replay: "assisted".
    page.reload()
    expect(page.locator(f"{BOARD}[data-version]")).to_have_count(1)
    expect(page.locator("#assisted-note")).to_be_visible()
    page.goto("/games")
    row = page.locator(f'#games-table tr[data-game-id="{game_id}"]')
    expect(row).to_have_attribute("data-assisted", "true")
    expect(row.locator("td.kind .tag-assisted")).to_have_text("assisted")
    page.goto(f"/games/{game_id}?step=2")
    expect(page.locator(".replay-title .tag-assisted")).to_have_text("assisted")
    expect(page.locator('#moves a[data-step="2"]')).to_have_text("hint (assisted)")
    expect(page.locator("#step-desc")).to_contain_text("asked for a hint")


def test_rule_E1_online_a_hint_marks_the_game_assisted_on_both_pages(
    browser: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Ann", "mode": "online",
                                                   "height": 7, "width": 9, "hints": True})
    game_id = created["game_id"]
    code = created["invite"]["url"].split("#code=")[1]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim",
                                    {"code": code, "name": "Bob"})
    tokens = {1: created["token"], 2: claimed["token"]}
    first = claimed["state"]["first_seat"]
    with browser_context(browser, live_server.base_url) as one, \
            browser_context(browser, live_server.base_url) as two, \
            checked_page(one, live_server.base_url) as mover, \
            checked_page(two, live_server.base_url) as other:
        for page, seat in ((mover, first), (other, 3 - first)):
            page.goto("/how-to-play")
            page.evaluate("e => localStorage.setItem('squares.tokens', JSON.stringify(e))",
                          {game_id: {"token": tokens[seat], "at": 1, "seat": seat}})
            page.goto(f"/play/{game_id}")
            expect(page.locator(f"{BOARD}[data-version]")).to_have_count(1)
        expect(mover.locator("#hint-warning")).to_have_text(WARNING)
        expect(other.locator("#hint-warning")).to_be_hidden()  # not its turn
        ask_hint(mover)
        expect(mover.locator("#assisted-note")).to_be_visible()
        version_after = claimed["state"]["version"] + 1
        # the other player's page learns it from the live feed, once
        expect(other.locator(BOARD)).to_have_attribute("data-version", str(version_after))
        expect(other.locator("#assisted-note")).to_be_visible()
        seqs = other.locator("#play-root").get_attribute("data-seqs").split()
        assert seqs == [str(n) for n in range(1, version_after + 1)]
