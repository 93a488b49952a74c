"""The high score page says what it ranks, in a real browser at 1280 x 800 and 390 x
844 with touch: the main table shows each row's level under a heading per level
(the hardest first), and its Level filter shows one level's rows only, keeping the
field size and the table (docs/rules.md, "How each table ranks"). Screenshots:
``highscore-levels-*``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SIZES, LiveServer, finish_unassisted, screenshot

pytestmark = pytest.mark.e2e

FIELD = {"height": 9, "width": 11}  # a field the other browser tests leave alone


@pytest.fixture(scope="module")
def levels(live_server: LiveServer) -> dict[str, str]:
    """A ranked game against the easy computer and one against the hard, each played
    to its end without a hint: each in the 9 x 11 table. Their game ids by level."""
    ids = {}
    for level, name in (("easy", "Kolay Kaan"), ("hard", "Zor Zeynep")):
        created = live_server.post_json("/api/games", {"player_name": name, "difficulty": level,
                                                       **FIELD})
        finish_unassisted(live_server, created["game_id"], created["token"])
        ids[level] = created["game_id"]
    return ids


def _rows(page: Any) -> list[tuple[str, str]]:
    """Each entry row of the table: its data-level and its level cell as shown."""
    rows = page.locator("#highscores-table tbody tr[data-entry-id]")
    return [(row.get_attribute("data-level"), row.locator("td.level").inner_text().strip())
            for row in rows.all()]


def test_a_level_picked_on_the_high_score_page_shows_only_that_level(
        sized: tuple[str, Any], sized_page: Any, levels: dict[str, str]) -> None:
    size, page = sized[0], sized_page
    page.goto("/highscores?size=9x11")
    expect(page.locator("h1")).to_have_text("High scores on 9 × 11")
    heads = page.locator("#highscores-table tr.level-head")
    expect(heads).to_have_text(["hard", "easy"])  # the hardest first
    expect(heads.first).to_be_visible()
    assert _rows(page) == [("hard", "hard"), ("easy", "easy")]
    cells = page.locator("#highscores-table tbody tr[data-entry-id] td.level")
    for cell in cells.all():
        expect(cell).to_be_visible()  # the level is on screen at both sizes
    screenshot(page, "highscore-levels-all")

    # the filter applies at once (the Show button stays for browsers without scripts)
    page.select_option("#level-filter", "easy")
    page.wait_for_url("**difficulty=easy**")
    assert "size=9x11" in page.url and "mode=vs_computer" in page.url
    expect(page.locator("h1")).to_have_text("High scores on 9 × 11, easy level")
    expect(page.locator("#level-filter")).to_have_value("easy")
    expect(page.locator("#size-filter")).to_have_value("9x11")
    expect(page.locator("#highscores-table tr.level-head")).to_have_count(0)
    assert _rows(page) == [("easy", "easy")]
    mine = page.locator(f'#highscores-table tr[data-entry-id] a.replay-link[href="/games/{levels["easy"]}"]')
    expect(mine).to_be_visible()
    expect(page.locator("#highscores-table tbody tr[data-entry-id] td.num").first).to_have_text("1")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    screenshot(page, "highscore-levels-easy")

    # a level without entries: the table says so; every level again: both
    page.select_option("#level-filter", "expert")
    page.wait_for_url("**difficulty=expert**")
    expect(page.locator("#highscores-table tbody")).to_contain_text("No scores")
    page.select_option("#level-filter", "")
    page.wait_for_url(re.compile(r"[?&]difficulty=(&|$)"))
    assert _rows(page) == [("hard", "hard"), ("easy", "easy")]
