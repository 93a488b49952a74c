"""Long names on the game pages (issue 26, item 1), at a desktop size and on a phone
with touch: with two 32-character names (the longest the rules allow) /play (against
the computer and two players on one screen), /watch/<id> and /games/<id> are no
wider than the screen, the score labels and scores of both seats do not overlap,
and the whole name stays in the title (the text is only ellipsized on screen).

Screenshots go to ``$SQUARES_SCREENSHOTS`` (default ``build/screenshots``) as
``names-<page>-<width>x<height>.png``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, play_by_api, screenshot
from .helpers import own

pytestmark = pytest.mark.e2e

NAME1 = "Alexandra Jones-Montgomery Wills"
NAME2 = "Bartholomew Featherstonehaugh-Ri"
assert len(NAME1) == 32 and len(NAME2) == 32


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    """Games with long names, a few rounds in (so both seats have scored)."""
    vs = live_server.post_json("/api/games", {"player_name": NAME1, "height": 9, "width": 13,
                                              "seed": 31, "difficulty": "easy"})
    play_by_api(live_server, vs["game_id"], vs["token"], rounds=2)
    two = live_server.post_json("/api/games", {"player_name": NAME1, "second_name": NAME2,
                                               "mode": "two_players", "height": 9, "width": 13,
                                               "seed": 31})
    play_by_api(live_server, two["game_id"], two["token"], rounds=2)
    return {"vs_computer": vs, "two_players": two}


@pytest.fixture
def page(sized_page: Any) -> Any:
    """A checked page of the module's context of each size (conftest's ``sized``)."""
    return sized_page


def boxes_apart(page: Any) -> None:
    """The score labels and scores of both seats: visible, inside the screen, and no
    two of them overlap."""
    ids = ["st-score-label1", "st-score1", "st-score-label2", "st-score2"]
    for i in ids:
        expect(page.locator(f"#{i}")).to_be_visible()
    boxes = {i: page.locator(f"#{i}").bounding_box() for i in ids}
    width = page.evaluate("window.innerWidth")
    for i, b in boxes.items():
        assert b and b["width"] > 0 and b["x"] >= 0 and b["x"] + b["width"] <= width + 0.5, (i, b)
    for n, a in enumerate(ids):
        for b in ids[n + 1:]:
            p, q = boxes[a], boxes[b]
            apart = (p["x"] + p["width"] <= q["x"] + 0.5 or q["x"] + q["width"] <= p["x"] + 0.5
                     or p["y"] + p["height"] <= q["y"] + 0.5 or q["y"] + q["height"] <= p["y"] + 0.5)
            assert apart, f"{a} {p} overlaps {b} {q}"


def no_overflow(page: Any) -> None:
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"the page is {wide[0]} px wide on a {wide[1]} px screen"


def names_whole(page: Any, second: str) -> None:
    expect(page.locator("#status [data-field=name1]")).to_have_attribute("title", NAME1)
    expect(page.locator("#status [data-field=name1]")).to_have_text(NAME1)
    expect(page.locator("#status [data-field=name2]")).to_have_attribute("title", second)


@pytest.mark.parametrize("mode", ["vs_computer", "two_players"])
def test_play_page_with_long_names(page: Any, games: dict[str, Any], mode: str) -> None:
    game = games[mode]
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    expect(page.locator("#board[data-version]")).to_have_count(1)
    second = "Computer" if mode == "vs_computer" else NAME2
    names_whole(page, second)
    if mode == "two_players":
        # Labelled by name, the whole name in the label's title; nothing says "Computer".
        expect(page.locator("#st-score-label1")).to_have_text(NAME1)
        expect(page.locator("#st-score-label1")).to_have_attribute("title", NAME1)
        expect(page.locator("#status")).not_to_contain_text("Computer")
        expect(page.locator("#status")).not_to_contain_text("(C)")
    else:
        expect(page.locator("#st-score-label1")).to_have_text("You")
        expect(page.locator("#status .who-2")).to_contain_text("(C)")
    no_overflow(page)
    boxes_apart(page)
    screenshot(page, f"names-play-{mode}")


def test_watch_and_replay_with_long_names(page: Any, games: dict[str, Any]) -> None:
    game_id = games["two_players"]["game_id"]
    page.goto(f"/watch/{game_id}")
    expect(page.locator("#watch-root[data-version]")).to_have_count(1)
    names_whole(page, NAME2)
    expect(page.locator(".replay-title .who-2")).to_have_attribute("title", NAME2)
    no_overflow(page)
    boxes_apart(page)
    screenshot(page, "names-watch")

    page.goto(f"/games/{game_id}")
    expect(page.locator("#status [data-field=round]")).not_to_have_text("")
    names_whole(page, NAME2)
    no_overflow(page)
    boxes_apart(page)
    screenshot(page, "names-replay")
