"""Plain words (issue 35, item 1), at 1280 x 800 and 390 x 844 with touch:

- the scores and squares read "You 12 · Computer 9" (no "H.Score", "C.Score",
  "H.Squares"); names in two-player games (online games: test_online_seats.py);
- the computer's plan is one sentence ("The computer's plan: start at (15, 13) and
  take 14 squares, going down twice, then left; then an extra line at ...");
- RULES A2 still holds: the assignment's BestPoint / BestX / BestY / BestDirection
  and the reasons ("no safe line: ...") are one click away, in a "Computer's
  reasoning" details element, and the API always has them.

Screenshots: ``words-play-*``, ``words-reasoning-*``, ``words-two-players-*``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, play_by_api, screenshot
from .helpers import own

pytestmark = pytest.mark.e2e

DIRECTIONS = {1: "right", 2: "up", 3: "left", 4: "down"}  # RULES F3
ASSIGNMENT_WORDS = ("H.Score", "C.Score", "H.Squares", "C.Squares", "BestPoint", "BestX",
                    "BestDirection", "no safe line", "Computer AI")


def walk_words(directions: list[int]) -> str:
    """The page's words for a walk (common/words.js, for walks of up to 6 runs)."""
    runs: list[list[int]] = []
    for d in directions:
        if runs and runs[-1][0] == d:
            runs[-1][1] += 1
        else:
            runs.append([d, 1])
    parts = [DIRECTIONS[d] + ("" if n == 1 else " twice" if n == 2 else f" {n} times")
             for d, n in runs]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", then " + parts[-1]


def latest_plans(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    plans: dict[int, dict[str, Any]] = {}
    for e in events:
        if e["type"] == "move_explained":
            d = e["data"]
            plans = {1: d} if d["stage"] == 1 else {**plans, 2: d}
    return plans


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    """Against the computer, two rounds in (seed 14: the computer's latest stage 1
    takes squares along a walk); two players on one screen."""
    vs = live_server.post_json("/api/games", {"player_name": "Ayla", "seed": 14,
                                              "difficulty": "moderate"})
    play_by_api(live_server, vs["game_id"], vs["token"], rounds=1)
    two = live_server.post_json("/api/games", {"player_name": "Ayla", "second_name": "Bora",
                                               "mode": "two_players", "height": 9, "width": 13,
                                               "seed": 31})
    play_by_api(live_server, two["game_id"], two["token"], rounds=2)
    return {"vs": vs, "two": two}


def visible_text(page: Any) -> str:
    return str(page.inner_text("body"))


def test_rule_A2_scores_and_the_computers_plan_in_plain_words_reasoning_one_click_away(
    sized_page: Any, live_server: LiveServer, games: dict[str, Any]
) -> None:
    page = sized_page
    game = games["vs"]
    game_id = game["game_id"]
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    plans = latest_plans(events)
    one, two = plans[1], plans[2]
    # RULES A2 through the API: always there, whatever the page shows.
    for d in (one, two):
        assert {"best_point", "best_x", "best_y", "best_direction", "reason"} <= set(d)
    assert one["best_x"] is not None and len(one["best_direction"]) >= 1, one

    own(page, game)
    page.goto(f"/play/{game_id}")
    expect(page.locator("#board[data-version]")).to_have_count(1)
    s, q = state["scores"], state["squares"]
    expect(page.locator("#status .tally-score dd")).to_have_text(
        re.compile(rf"^\s*You\s+{s[0]}\s*·\s*Computer\s+{s[1]}\s*$"))
    expect(page.locator("#status .tally-squares dd")).to_have_text(
        re.compile(rf"^\s*You\s+{q[0]}\s*·\s*Computer\s+{q[1]}\s*$"))
    expect(page.locator("#status .tally-score dt")).to_have_text("Score")

    # The plan in one sentence.
    sentence = page.locator("#ai-sentence")
    expect(sentence).to_be_visible()
    x, y = one["best_x"], one["best_y"]
    taken = f"{one['best_point']} square{'' if one['best_point'] == 1 else 's'}"
    expect(sentence).to_contain_text(
        f"The computer's plan: start at ({x},\u00a0{y}) and take {taken}, going "
        f"{walk_words(one['best_direction'])}")
    extra = f"then an extra line at ({two['best_x']},\u00a0{two['best_y']})"
    expect(sentence).to_contain_text(extra)
    expect(sentence).to_contain_text("leaves no square to close" if two["best_point"] == 0
                                     else "gives away as little as it could find")
    shown = visible_text(page)
    for word in ASSIGNMENT_WORDS:
        assert word not in shown, word
    screenshot(page, "words-play")

    # One click away: the assignment's figures and the reasons.
    reasoning = page.locator("#ai-reasoning")
    expect(reasoning).not_to_have_attribute("open", "")
    summary = reasoning.locator("summary")
    expect(summary).to_have_text("Computer's reasoning")
    summary.click()
    expect(reasoning).to_have_attribute("open", "")
    expect(page.locator("#ai-best-point")).to_be_visible()
    expect(page.locator("#ai-best-point")).to_have_text(str(one["best_point"]))
    expect(page.locator("#ai-best-x")).to_have_text(str(x))
    expect(page.locator("#ai-best-y")).to_have_text(str(y))
    expect(page.locator("#ai-best-direction")).to_have_text(
        ", ".join(map(str, one["best_direction"])))
    expect(page.locator("#ai-plan-2")).to_contain_text(two["reason"])
    assert "BestDirection" in visible_text(page)
    reasoning.scroll_into_view_if_needed()
    screenshot(page, "words-reasoning")


def test_two_players_scores_read_by_name(sized_page: Any, live_server: LiveServer,
                                          games: dict[str, Any]) -> None:
    page = sized_page
    game = games["two"]
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    expect(page.locator("#board[data-version]")).to_have_count(1)
    s = state["scores"]
    expect(page.locator("#status .tally-score dd")).to_have_text(
        re.compile(rf"^\s*Ayla\s+{s[0]}\s*·\s*Bora\s+{s[1]}\s*$"))
    expect(page.locator("#status")).not_to_contain_text("You")
    for word in ASSIGNMENT_WORDS:
        assert word not in visible_text(page), word
    screenshot(page, "words-two-players")

    # A spectator of the game against the computer reads its names, not "You".
    vs = games["vs"]["game_id"]
    page.goto(f"/watch/{vs}")
    expect(page.locator("#watch-root[data-version]")).to_have_count(1)
    expect(page.locator("#status .tally-score dd")).to_contain_text("Ayla")
    expect(page.locator("#status .tally-score dd")).not_to_contain_text("You")
