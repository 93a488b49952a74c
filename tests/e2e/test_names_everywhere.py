"""32-character names fit everywhere (issue 35, item 3), at 1280 x 800 and 390 x 844
with touch: every page is rendered with the longest names the rules allow, one a
single word of wide letters, and then no page is wider than the screen and no link
or button is pushed out of view (outside the window, or clipped by a box that
scrolls sideways, such as a table's).

Pages: the start page with its unfinished games, /play (against the computer, two
players, online from each side, an ended game), /games and a replay, /live and
/watch, /highscores, a join page. Screenshots: ``names-<page>-*``.
"""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest
from playwright.sync_api import expect

from service.domain.names import NAME_MAX
from service.projections.catch_up import review_all
from tests.conftest import services_on

from .conftest import LiveServer, finish_unassisted, play_by_api, screenshot
from .helpers import BOARD

pytestmark = pytest.mark.e2e

ONE_WORD = "WMWMWMWMWMWMWMWMWMWMWMWMWMWMWMWM"  # one word, no space to wrap at, wide letters
WIDE = "MMMMMMMMMM WWWWWWWWWW MMMMMMMMMMM"[:32]  # the widest letters
assert len(ONE_WORD) == len(WIDE) == NAME_MAX == 32

# Every visible link and button in <main> and whether it is wholly in view: inside the
# window and inside every box around it that clips sideways (overflow not visible).
OUT_OF_VIEW = """() => {
  const out = [];
  for (const el of document.querySelectorAll('main a[href], main button, main summary')) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
    let left = 0, right = innerWidth;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') {
        const q = p.getBoundingClientRect();
        left = Math.max(left, q.left); right = Math.min(right, q.left + p.clientWidth);
      }
    }
    if (r.left < left - 0.5 || r.right > right + 0.5) {
      out.push(`${el.tagName} "${el.textContent.trim().slice(0, 40)}" ${Math.round(r.left)}..${Math.round(r.right)} of ${Math.round(left)}..${Math.round(right)}`);
    }
  }
  return out;
}"""


def fits(page: Any, name: str) -> list[str]:
    problems = []
    wide = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    if wide[0] > wide[1]:
        problems.append(f"{name}: the page is {wide[0]} px wide on a {wide[1]} px screen")
    problems += [f"{name}: out of view: {o}" for o in page.evaluate(OUT_OF_VIEW)]
    return problems


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    """Games with the longest names: unfinished against the computer (two of them, for
    the start page's list), two players, an online game (both seats claimed) and a
    finished ranked game in the high score table, reviewed."""
    send = live_server.post_json
    vs = send("/api/games", {"player_name": ONE_WORD, "height": 9, "width": 13, "seed": 31,
                             "difficulty": "easy"})
    play_by_api(live_server, vs["game_id"], vs["token"], rounds=1)
    other = send("/api/games", {"player_name": WIDE, "height": 7, "width": 9, "seed": 2})
    two = send("/api/games", {"player_name": ONE_WORD, "second_name": WIDE,
                              "mode": "two_players", "height": 9, "width": 13, "seed": 31})
    play_by_api(live_server, two["game_id"], two["token"], rounds=2)
    online = send("/api/games", {"player_name": WIDE, "mode": "online", "height": 7,
                                 "width": 9, "seed": 3, "hints": True})
    claimed = send(f"/api/games/{online['game_id']}/claim",
                   {"code": online["invite"]["code"], "name": ONE_WORD})
    invited = send("/api/games", {"player_name": WIDE, "mode": "online", "height": 7,
                                  "width": 9, "seed": 3})
    ranked = send("/api/games", {"player_name": ONE_WORD, "height": 7, "width": 9,
                                 "difficulty": "easy"})
    finish_unassisted(live_server, ranked["game_id"], ranked["token"])  # no hint: ranked
    with services_on(live_server.database_url) as services:
        review_all(services.store)
    return {"vs": vs, "other": other, "two": two, "online": online,
            "online2": {"game_id": online["game_id"], "token": claimed["token"]},
            "invited": invited, "ranked": ranked}


def hold(page: Any, held: dict[str, Any]) -> None:
    """This browser keeps these games' tokens ({game_id: (token, seat)})."""
    page.goto("/how-to-play")
    page.evaluate("t => localStorage.setItem('squares.tokens', JSON.stringify(t))",
                  {g: {"token": t, "at": n, "seat": s} for n, (g, (t, s)) in enumerate(held.items())})


def test_every_page_fits_the_longest_names(sized_page: Any, games: dict[str, Any]) -> None:
    page = sized_page
    problems: list[str] = []
    g = {k: v["game_id"] for k, v in games.items()}
    hold(page, {g["vs"]: (games["vs"]["token"], 1), g["other"]: (games["other"]["token"], 1),
                g["two"]: (games["two"]["token"], 1), g["ranked"]: (games["ranked"]["token"], 1),
                g["online"]: (games["online"]["token"], 1)})
    pages = [
        ("start", "/", "#resume:not([hidden]) #resume-list li"),
        ("play-vs", f"/play/{g['vs']}", f"{BOARD}[data-version]"),
        ("play-two", f"/play/{g['two']}", f"{BOARD}[data-version]"),
        ("play-online", f"/play/{g['online']}", f"{BOARD}[data-version]"),
        ("play-over", f"/play/{g['ranked']}", "#over-table tbody[data-loaded]"),
        ("games", "/games", "#games-table"),
        ("games-player", "/games?player=" + urllib.parse.quote(ONE_WORD), "#games-table"),
        ("replay", f"/games/{g['ranked']}", '#review[data-state="ready"]'),
        ("replay-two", f"/games/{g['two']}", "#moves a[aria-current]"),
        ("live", "/live", "#live-table"),
        ("watch", f"/watch/{g['online']}", "#watch-root[data-version]"),
        ("highscores", f"/highscores?game={g['ranked']}", "#highscores-table tr.mine"),
        ("join", f"/join/{g['invited']}#code={games['invited']['invite']['code']}",
         "#join-form:not([hidden])"),
    ]
    page.emulate_media(reduced_motion="reduce")  # no animation to wait for (their CSS)
    for name, path, ready in pages:
        page.goto(path)
        page.wait_for_selector(ready, state="attached")
        problems += fits(page, name)
        screenshot(page, f"names-{name}")
    # the list rows keep their links: Continue and Replay, Watch
    page.goto("/games")
    expect(page.locator(f'tr[data-game-id="{g["vs"]}"] a.continue-link')).to_be_visible()
    assert problems == [], "\n".join(problems)


def test_the_other_seat_of_an_online_game_fits_too(sized_page: Any,
                                                   games: dict[str, Any]) -> None:
    page = sized_page
    online = games["online2"]
    hold(page, {online["game_id"]: (online["token"], 2)})
    page.goto(f"/play/{online['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    expect(page.locator("#status .who-2")).to_contain_text("(you)")
    assert fits(page, "play-online-seat-2") == []
    screenshot(page, "names-play-online-seat-2")
