"""A player's page in a real browser, at 1280 x 800 and 390 x 844 with touch: a name
in the high score table and in the games list is a link to its player's page (a
name with a space and non-ASCII letters, and one with "/" and "?"), and so are the
names at the end of a game (its player, its high score table); the page shows
the player's games and best score, fits the screen, and axe-core finds no serious or
critical violation on it. Screenshots: ``player-*``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from service.projections.catch_up import review_all
from tests.conftest import services_on

from .conftest import SIZES, LiveServer, axe_violations, finish_unassisted, screenshot

pytestmark = pytest.mark.e2e

EDA = "Eda Fırat"
SLASHED = "Ada/Lin?"


@pytest.fixture(scope="module")
def players(live_server: LiveServer) -> dict[str, str]:
    """A ranked game of Eda Fırat played to its end (in the table of 7 x 11, a field
    the other browser tests leave alone) and reviewed, and a game of "Ada/Lin?"."""
    ranked = live_server.post_json("/api/games", {"player_name": EDA, "height": 7,
                                                  "width": 11, "difficulty": "easy"})
    finish_unassisted(live_server, ranked["game_id"], ranked["token"])
    slashed = live_server.post_json("/api/games", {"player_name": SLASHED, "height": 7,
                                                   "width": 9, "seed": 8})
    with services_on(live_server.database_url) as services:
        review_all(services.store)
    return {"ranked": ranked["game_id"], "slashed": slashed["game_id"]}


def check_player_page(page: Any, size: str, name: str, shot: str) -> None:
    expect(page.locator("h1.player-name")).to_have_text(name)
    width = SIZES[size][0]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert axe_violations(page) == []
    screenshot(page, f"player-{shot}")


def test_a_name_links_to_its_players_page_from_the_high_scores_and_the_games(
        sized: tuple[str, Any], sized_page: Any, players: dict[str, str]) -> None:
    size, page = sized[0], sized_page
    page.emulate_media(reduced_motion="reduce")
    ranked = players["ranked"]

    page.goto(f"/highscores?game={ranked}")
    link = page.locator("#highscores-table tr.mine a.player-link")
    expect(link).to_have_text(EDA)
    link.click()
    expect(page).to_have_url(re.compile(r"/players/Eda%20F%C4%B1rat$"))
    row = page.locator(f'#player-games tr[data-game-id="{ranked}"]')
    expect(row).to_be_visible()
    expect(row.locator(".result")).not_to_have_text("—")  # finished: won, lost or a draw
    expect(row.locator(".accuracy")).to_have_text(re.compile(r"^\d+ %$"))  # reviewed
    best = page.locator('#player-best tr[data-mode="vs_computer"][data-size="7x11"]')
    expect(best.locator(".score")).to_have_text(re.compile(r"^\d+$"))
    check_player_page(page, size, EDA, "eda")

    # the end of the game links its player, and the names of its high score table
    page.goto(f"/play/{ranked}")
    page.wait_for_selector("#over-table tbody[data-loaded]", state="attached")
    expect(page.locator("#over-players a.player-link")).to_have_attribute(
        "href", "/players/Eda%20F%C4%B1rat")
    expect(page.locator("#over-table tr.mine a.player-link")).to_have_text(EDA)

    page.goto("/games")
    page.locator(f'tr[data-game-id="{players["slashed"]}"] a.player-link').click()
    expect(page).to_have_url(re.compile(r"/players/Ada%2FLin%3F$"))
    expect(page.locator(f'#player-games tr[data-game-id="{players["slashed"]}"]')
           ).to_be_visible()
    expect(page.locator("#player-no-best")).to_be_visible()  # a practice game: no table
    check_player_page(page, size, SLASHED, "slashed")
