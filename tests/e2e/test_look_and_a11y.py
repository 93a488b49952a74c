"""Every page at a desktop and a phone size (issue 14, items 9 and 10): axe-core finds
no serious or critical accessibility violation, nothing overflows the screen sideways,
and a screenshot of each is saved so that a change of look can be seen.

The screenshots go to ``$SQUARES_SCREENSHOTS`` (default ``build/screenshots``, which
git ignores), one PNG per page and size: ``<page>-<width>x<height>.png``. axe-core
comes from the ``axe-playwright-python`` package (its bundled ``axe.min.js``);
nothing is loaded from the network.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SIZES, LiveServer, axe_violations, play_by_api, screenshot_dir, watch_page

pytestmark = pytest.mark.e2e



@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    """A game in progress (round 2, after a computer turn) on the standard field and a
    finished one on a tiny field, both played through the API."""
    mid = live_server.post_json("/api/games", {"player_name": "Selin", "seed": 14,
                                               "difficulty": "moderate"})
    play_by_api(live_server, mid["game_id"], mid["token"], rounds=1)
    done = live_server.post_json("/api/games", {"player_name": "Bora", "seed": 5,
                                                "height": 7, "width": 9,
                                                "difficulty": "easy"})
    play_by_api(live_server, done["game_id"], done["token"], rounds=10_000)
    assert live_server.get_json(f"/api/games/{done['game_id']}")["state"]["over"]
    # Online games waiting for the invited friend: one's play page shows the invite
    # (this browser started it), the other's invite link opens the join page.
    online, invited = (live_server.post_json("/api/games", {
        "player_name": name, "mode": "online", "height": 7, "width": 9, "seed": 3})
        for name in ("Nil", "Ece"))
    return {"mid": mid, "done": done, "online": online, "invited": invited}


def pages_of(games: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(name, path, a selector that is there once the page is ready)."""
    mid, done = games["mid"]["game_id"], games["done"]["game_id"]
    return [
        ("start", "/", "#start-form"),
        ("how-to-play", "/how-to-play", "svg.example"),
        ("play", f"/play/{mid}", "#board[data-version]"),
        ("play-over", f"/play/{done}", "#over-table tbody[data-loaded]"),
        ("play-invite", f"/play/{games['online']['game_id']}", "#invite:not([hidden])"),
        ("join", "/" + games["invited"]["invite"]["url"].split("/", 3)[3],
         "#join-form:not([hidden])"),
        ("games", "/games", "#games-table"),
        ("replay", f"/games/{mid}", "#moves a[aria-current]"),
        ("highscores", "/highscores", "#highscores-table"),
        ("player", "/players/Bora", "#player-games"),
        ("daily", "/daily", "#daily-form"),
        ("ratings", "/ratings", "#main h1"),
        ("account", "/account", "#account[data-ready]"),
    ]


@pytest.mark.parametrize("language", ["en", "tr"])
def test_every_page_is_accessible_fits_the_screen_and_is_photographed(
    sized: tuple[str, Any], games: dict[str, Any], live_server: LiveServer, language: str
) -> None:
    """In both languages: Turkish words are longer, and a page must still fit."""
    size_name, context = sized
    width, height = SIZES[size_name]
    page = context.new_page()
    page.set_extra_http_headers({"Accept-Language": language})
    # Reduced motion: every animation of the pages is off (their CSS), so each is
    # checked and photographed as it stays, with no wait for an animation to end.
    page.emulate_media(reduced_motion="reduce")
    errors: list[str] = []
    watch_page(page, live_server.base_url, errors)
    # This browser holds the games' tokens, as if it had started them.
    page.goto("/how-to-play")
    held = {games[k]["game_id"]: {"token": games[k]["token"], "at": 1}
            for k in ("mid", "done", "online")}
    online = games["online"]
    held[online["game_id"]].update(seat=1, invite={"url": online["invite"]["url"],
                                                   "expires_at": online["invite"]["expires_at"]})
    page.evaluate("""g => localStorage.setItem('squares.tokens', JSON.stringify(g))""", held)
    problems: list[str] = []
    out = screenshot_dir()
    for name, path, ready in pages_of(games):
        page.goto(path)
        page.wait_for_selector(ready, state="attached")
        overflow = page.evaluate("document.documentElement.scrollWidth")
        if overflow > width:
            problems.append(f"{name}: the page is {overflow} px wide on a {width} px screen")
        problems += [f"{name}: {v}" for v in axe_violations(page)]
        page.screenshot(path=str(out / f"{name}-{language}-{width}x{height}.png"),
                        full_page=True)
    print(f"screenshots: {out.resolve()}")
    page.close()
    assert problems == []
    assert errors == []
