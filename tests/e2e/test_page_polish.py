"""Page polish (issue 26, items 8 and 9), at a desktop size and on a phone with touch:

- `/watch/<id>` opened mid-game lists the moves made so far (not only those that
  arrive afterwards) and leaves no empty gap on the page;
- the navigation is one compact row on a phone, its links still tap targets;
- a high score is two rows on a phone; the games table on a desktop is wide enough
  for its dates and sizes to stay on one line;
- How to play has no empty left column; the size filter applies on change;
- the replay's move links are tap targets at least 32 px tall on a phone.

Screenshots of the pages go to ``$SQUARES_SCREENSHOTS`` (default
``build/screenshots``) as ``polish-<page>-<width>x<height>.png``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, axe_violations, finish_unassisted, play_by_api, screenshot
from .test_watch import one_action

pytestmark = pytest.mark.e2e

FEED_MAX = 200  # watch/main.js: the captions kept on the page
GAP_MAX = 24  # px between two blocks of a page, at most


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    """A game in progress (round 3 of a 15 x 25 field) and a ranked 7 x 9 one played
    to its end without a hint (so in the high scores), both through the API."""
    mid = live_server.post_json("/api/games", {"player_name": "Melis", "height": 15,
                                               "width": 25, "seed": 31, "difficulty": "easy"})
    play_by_api(live_server, mid["game_id"], mid["token"], rounds=2)
    done = live_server.post_json("/api/games", {"player_name": "Tarkan", "height": 7,
                                                "width": 9, "difficulty": "easy"})
    finish_unassisted(live_server, done["game_id"], done["token"])
    assert live_server.get_json(f"/api/games/{done['game_id']}")["state"]["over"]
    return {"mid": mid, "done": done}


@pytest.fixture
def page(sized_page: Any) -> Any:
    """A checked page of the module's context of each size (conftest's ``sized``)."""
    return sized_page


def is_phone(page: Any) -> bool:
    return bool(page.viewport_size["width"] < 600)


def box(page: Any, selector: str) -> dict[str, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not shown"
    return dict(found)


def gaps(page: Any, selector: str) -> list[tuple[str, str, float]]:
    """The vertical gaps between the shown children of `selector`, one after another:
    (the child above, the one below, px)."""
    found: list[tuple[str, str, float]] = page.evaluate(
        """sel => {
          const shown = [...document.querySelector(sel).children].filter((n) => {
            const r = n.getBoundingClientRect();
            return r.height > 0 && getComputedStyle(n).display !== "none";
          });
          const name = (n) => n.id ? "#" + n.id : n.tagName.toLowerCase() + "." + n.className;
          const out = [];
          for (let i = 1; i < shown.length; i++) {
            const a = shown[i - 1].getBoundingClientRect(), b = shown[i].getBoundingClientRect();
            out.push([name(shown[i - 1]), name(shown[i]), b.top - a.bottom]);
          }
          return out;
        }""", selector)
    return found


# JavaScript: how many lines of text an element's content takes (its inline boxes
# grouped by the vertical room they share; a tag's taller box is on the same line).
LINES = """el => {
  const r = document.createRange();
  r.selectNodeContents(el);
  const rects = [...r.getClientRects()].filter((q) => q.height > 0)
    .sort((a, b) => a.top - b.top);
  let lines = 0, bottom = -Infinity;
  for (const q of rects) {
    if (q.top >= bottom - 2) lines += 1;
    bottom = Math.max(bottom, q.bottom);
  }
  return lines;
}"""


def test_watch_opened_mid_game_lists_the_moves_so_far_without_a_gap(
    page: Any, games: dict[str, Any], live_server: LiveServer
) -> None:
    game_id, token = games["mid"]["game_id"], games["mid"]["token"]
    opened = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert not opened["over"] and opened["version"] > 40
    page.goto(f"/watch/{game_id}")
    root = page.locator("#watch-root")
    expect(root).to_have_attribute("data-opened", str(opened["version"]))
    expect(root).to_have_attribute("data-past", str(min(opened["version"], FEED_MAX)))
    expect(page.locator("#live-state")).to_contain_text("Live")

    # The moves so far, newest first, each numbered with its step.
    past = page.locator("#feed-past li")
    assert past.first.get_attribute("data-seq") == str(opened["version"])
    assert past.last.get_attribute("data-seq") == str(max(1, opened["version"] - FEED_MAX + 1))
    assert past.first.evaluate("li => li.value") == opened["version"]
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    assert events[-1]["seq"] == opened["version"]
    expect(past.last).to_contain_text("A new practice game on a 15 × 25 field")  # step 1: the game as created
    expect(page.locator("#feed li")).to_have_count(0)
    feed = box(page, "#feed-box")
    assert feed["height"] > 150, feed  # a list to read, not an empty heading
    screenshot(page, "polish-watch")

    # No empty gap: the board, its notes and the moves follow one another, and so do
    # the panel's parts (an empty message takes no room); on a phone the panel
    # follows the moves.
    problems = [g for g in gaps(page, ".board-wrap") + gaps(page, "aside.panel")
                if g[2] > GAP_MAX]
    assert problems == []
    if is_phone(page):
        wrap, panel = box(page, ".board-wrap"), box(page, "aside.panel")
        assert panel["y"] - (wrap["y"] + wrap["height"]) <= GAP_MAX
    else:
        # The panel: the status, "Copy watch link" right under it, then the links.
        panel = box(page, "aside.panel")
        status, share = box(page, "#status"), box(page, "#share")
        assert share["y"] - (status["y"] + status["height"]) <= GAP_MAX, share
        assert panel["y"] + panel["height"] - (share["y"] + share["height"]) < 90, panel
    assert axe_violations(page) == []

    # A move made now goes on top, in the live list; the earlier ones stay.
    state = one_action(live_server, game_id, token)
    expect(page.locator("#board")).to_have_attribute("data-version", str(state["version"]))
    expect(page.locator("#feed li")).to_have_count(state["version"] - opened["version"])
    assert page.locator("#feed li").first.get_attribute("data-seq") == str(state["version"])
    assert past.first.get_attribute("data-seq") == str(opened["version"])
    assert page.locator("#feed-box li").count() <= FEED_MAX


def test_watch_a_finished_game_lists_its_last_moves(
    page: Any, games: dict[str, Any], live_server: LiveServer
) -> None:
    game_id = games["done"]["game_id"]
    final = live_server.get_json(f"/api/games/{game_id}")["state"]
    page.goto(f"/watch/{game_id}")
    expect(page.locator("#watch-root")).to_have_attribute(
        "data-past", str(min(final["version"], FEED_MAX)))
    expect(page.locator("#feed-past li").first).to_contain_text("High score table")
    expect(page.locator("#live-state")).to_have_text("Game over.")


@pytest.mark.parametrize("path", ["/games", "/how-to-play", "/highscores"])
def test_the_navigation_is_one_compact_row(page: Any, path: str) -> None:
    page.goto(path)
    header = box(page, "header.top")
    assert header["height"] <= 60, header
    links = page.locator("header.top nav a")
    assert links.count() == 5
    tops = set()
    for i in range(links.count()):
        link = box(page, f"header.top nav a >> nth={i}")
        assert link["height"] >= 24 and link["width"] >= 24, link
        tops.add(round(link["y"]))
    assert len(tops) == 1, tops  # one row
    # every link on screen (the row needs no sideways scroll at these sizes), the
    # page no wider than the screen
    nav = page.evaluate("() => { const n = document.querySelector('header.top nav');"
                        " return [n.scrollWidth, n.clientWidth]; }")
    assert nav[0] <= nav[1], nav
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    expect(page.locator("header.top nav a[aria-current=page]")).to_have_count(1)


def test_high_scores_are_compact_and_the_size_filter_applies_on_change(
    page: Any, games: dict[str, Any]
) -> None:
    page.goto("/highscores")  # the default field's table: RULES E2's rows at least
    rows = page.locator("#highscores-table tbody tr")
    assert rows.count() >= 5
    screenshot(page, "polish-highscores")
    # Each entry: its cells each on one line, in at most two rows.
    shapes = page.evaluate(
        "() => { const lines = " + LINES + """;
          return [...document.querySelectorAll("#highscores-table tbody tr")].map((tr) => {
            const cells = [...tr.cells].filter((td) => td.getBoundingClientRect().height > 0);
            const boxes = cells.map((td) => td.getBoundingClientRect()).sort((a, b) => a.top - b.top);
            let rows = 0, bottom = -Infinity;  // cells side by side share a row
            for (const q of boxes) {
              if (q.top >= bottom - 2) rows += 1;
              bottom = Math.max(bottom, q.bottom);
            }
            const wrapped = cells.filter((td) => lines(td) > 1).map((td) => td.textContent);
            return { rows, wrapped, height: tr.getBoundingClientRect().height };
          }); }""")
    if is_phone(page):
        assert all(s["rows"] <= 2 for s in shapes), shapes
        assert all(s["height"] <= 64 for s in shapes), shapes
    else:
        assert all(s["rows"] == 1 for s in shapes), shapes
        expect(page.locator("#highscores-table thead th").first).to_be_visible()
    assert [s for s in shapes if s["wrapped"]] == []

    # A choice of size or table reloads the list at once; the Show button stays (no
    # script). One table per size (RULES E1): the game's own first (?game=).
    page.goto(f"/highscores?game={games['done']['game_id']}")
    expect(page.locator("#highscores-table tr.mine")).to_have_count(1)
    expect(page.locator("h1")).to_have_text("High scores on 7 × 9")
    expect(page.locator("form.filter button")).to_be_visible()
    page.select_option("#size-filter", "19x33")
    page.wait_for_url("**size=19x33**")
    expect(page.locator("h1")).to_have_text("High scores on 19 × 33")
    sizes = page.locator("#highscores-table td.field-size").all_text_contents()
    assert sizes and set(sizes) == {"19 × 33"}
    expect(page.locator("#highscores-table tr.mine")).to_have_count(0)
    page.select_option("#size-filter", "7x9")
    page.wait_for_url("**size=7x9**")
    expect(page.locator("#highscores-table tr.mine")).to_have_count(1)  # ?game= is kept
    page.select_option("#mode-filter", "two_players")
    page.wait_for_url("**mode=two_players**")
    expect(page.locator("h1")).to_have_text("Two-player results on 7 × 9")
    expect(page.locator("#highscores-table tr.mine")).to_have_count(0)


def test_the_games_table_has_room_for_its_columns(page: Any, games: dict[str, Any]) -> None:
    page.goto("/games")
    screenshot(page, "polish-games")
    table = box(page, "#games-table")
    if not is_phone(page):
        assert table["width"] > 60 * 16 + 40, table  # wider than the old 60rem column
        # dates, sizes, scores, lengths, kinds: each on one line (a kind's marks may go
        # below it when long names in the list leave no room)
        wrapped = page.evaluate(
            "() => { const lines = " + LINES + """;
              return [...document.querySelectorAll(
                "#games-table td.date, #games-table td.num, #games-table td.kind .kind-name")]
                .filter((td) => lines(td) > 1).map((td) => td.textContent.trim()); }""")
        assert wrapped == []
        # a date is one line of text tall (about 1.2 times its font size, not 2.4)
        dates = page.evaluate(
            """() => [...document.querySelectorAll("#games-table td.date")].map((td) => {
              const r = document.createRange();
              r.selectNodeContents(td);
              return r.getBoundingClientRect().height / parseFloat(getComputedStyle(td).fontSize);
            })""")
        assert dates and all(h < 1.6 for h in dates), dates
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_how_to_play_has_no_empty_left_column(page: Any) -> None:
    page.goto("/how-to-play")
    screenshot(page, "polish-how-to-play")
    # In every section the content (after its heading) starts at the section's left
    # edge: no section leaves its first column empty.
    offsets = page.evaluate(
        """() => [...document.querySelectorAll("section.how-step")].map((sec) => {
          const r = sec.getBoundingClientRect(), cs = getComputedStyle(sec);
          const left = r.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
          const kids = [...sec.children].filter((n) => n.tagName !== "H2");
          return [sec.querySelector("h2").textContent,
                  Math.min(...kids.map((n) => n.getBoundingClientRect().left)) - left];
        })""")
    assert len(offsets) >= 8
    assert [o for o in offsets if abs(o[1]) > 2] == []
    article, main = box(page, "article.how"), box(page, "main")
    if is_phone(page):
        assert article["x"] - main["x"] <= 20


def test_replay_move_links_are_tap_targets(page: Any, games: dict[str, Any]) -> None:
    page.goto(f"/games/{games['mid']['game_id']}")
    page.wait_for_selector("#moves a[aria-current]")
    screenshot(page, "polish-replay")
    heights = page.evaluate(
        "() => [...document.querySelectorAll('#moves a.move')].map((a) => a.getBoundingClientRect().height)")
    assert len(heights) > 40
    if is_phone(page):
        assert min(heights) >= 32, min(heights)
