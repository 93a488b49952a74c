"""What a newcomer's tour found on the pages, at 1280 x 800 and 390 x 844 with touch
(and in both colour schemes where it is about looks):

1. the squares of a game between two people carry their players' letters ("A" and
   "B"; "1" and "2" when the names share a first letter), never "C" for a person;
   the online table of high scores has no Difficulty column;
2. the header never overlaps itself nor leaves the screen, from 320 px to 1280 px
   wide, and the theme's button says what a press does ("Dark mode" / "Light mode")
   with its state in aria-pressed;
3. the start form names the computer's levels in a player's words and shows the
   field size up front;
4. the header's "High scores" opens the table of the game just played; no cell of a
   high score table is empty ("—" for a missing value);
5. spectators read the start of a game in a sentence, and a replay opened on its
   final position shows its move list from the start;
6. a line the state already rules out is refused on the page, with the words of
   the rule ("close a square"), and never sent: no 409 in the console.

Screenshots: ``tour-<what>-<width>x<height>.png``.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import expect

from squares_testing.play import play_hints, play_own_moves

from .conftest import LiveServer, browser_context, checked_page, finish_unassisted, screenshot
from .helpers import BOARD, own, slot

pytestmark = pytest.mark.e2e

WIDTHS = (320, 390, 480, 640, 680, 700, 800, 1024, 1280)
HEADER_ITEMS = "header.top .brand, header.top nav a, header.top .prefs button"
TOGGLE = "[data-pref=theme]:visible"

# The boxes (left, top, right, bottom) of the header's shown items, with their text.
HEADER_BOXES = """sel => [...document.querySelectorAll(sel)]
  .filter((n) => n.getClientRects().length > 0)
  .map((n) => { const r = n.getBoundingClientRect();
                return [n.textContent.trim(), r.left, r.top, r.right, r.bottom]; })"""

# Every cell of the high score table whose text is blank.
EMPTY_CELLS = """() => [...document.querySelectorAll("#highscores-table tbody td")]
  .filter((td) => td.textContent.trim() === "")
  .map((td) => td.dataset.label + " of row " + td.parentElement.dataset.entryId)"""


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    """An online game of Ann and Bob and a two-player game of Ann and ayla, both played
    to the end by hints (both seats win squares); an online game of Cem and Deniz
    played to the end without a hint on 7 x 9 (in the online table)."""
    send = live_server.post_json
    online = send("/api/games", {"player_name": "Ann", "mode": "online", "height": 7,
                                 "width": 9, "seed": 5, "hints": True})
    bob = send(f"/api/games/{online['game_id']}/claim",
               {"code": online["invite"]["code"], "name": "Bob"})
    play_hints(live_server.send, online["game_id"], {1: online["token"], 2: bob["token"]})
    two = send("/api/games", {"player_name": "Ann", "mode": "two_players",
                              "second_name": "ayla", "height": 7, "width": 9, "seed": 5})
    play_hints(live_server.send, two["game_id"], two["token"])
    ranked = send("/api/games", {"player_name": "Cem", "mode": "online", "height": 7,
                                 "width": 9})
    deniz = send(f"/api/games/{ranked['game_id']}/claim",
                 {"code": ranked["invite"]["code"], "name": "Deniz"})
    play_own_moves(live_server.send, ranked["game_id"], {1: ranked["token"], 2: deniz["token"]})
    return {"online": online, "two": two, "ranked": ranked}


def box_texts(page: Any, owner: str) -> set[str]:
    """The texts of the board's squares owned by `owner` (the data's letter)."""
    return set(page.locator(f'{BOARD} .box[data-owner="{owner}"] text').all_text_contents())


def test_squares_of_two_people_carry_their_letters(
    sized_page: Any, live_server: LiveServer, games: dict[str, Any]
) -> None:
    page = sized_page
    online_id = games["online"]["game_id"]
    state = live_server.get_json(f"/api/games/{online_id}")["state"]
    assert state["over"] and min(state["squares"]) > 0, state["squares"]
    own(page, games["online"], seat=1)
    for path in (f"/play/{online_id}", f"/watch/{online_id}", f"/games/{online_id}"):
        page.goto(path)
        expect(page.locator(f"{BOARD} .box.formed").first).to_be_attached()
        assert box_texts(page, "P") == {"A"}, path  # Ann
        assert box_texts(page, "C") == {"B"}, path  # Bob: no "C" for a person
    screenshot(page, "tour-letters-online")

    # Ann and ayla share their first letter: the seats' numbers.
    two_id = games["two"]["game_id"]
    page.goto(f"/watch/{two_id}")
    expect(page.locator(f"{BOARD} .box.formed").first).to_be_attached()
    assert box_texts(page, "P") == {"1"} and box_texts(page, "C") == {"2"}
    screenshot(page, "tour-letters-shared")

    # Against the computer the board keeps P and C, which its "(P)" / "(C)" explain.
    vs = live_server.post_json("/api/games", {"player_name": "Ann", "height": 7, "width": 9,
                                              "seed": 5, "difficulty": "easy"})
    play_hints(live_server.send, vs["game_id"], vs["token"])
    page.goto(f"/watch/{vs['game_id']}")
    expect(page.locator(f"{BOARD} .box.formed").first).to_be_attached()
    assert box_texts(page, "P") <= {"P"} and box_texts(page, "C") <= {"C"}


def test_the_online_table_has_no_difficulty_and_no_cell_is_empty(
    sized_page: Any, games: dict[str, Any]
) -> None:
    page = sized_page
    page.goto("/highscores?mode=online&size=7x9")
    table = page.locator("#highscores-table")
    expect(table.locator("tr[data-entry-id] td.name", has_text="Deniz")).to_have_count(1)
    assert "Difficulty" not in table.locator("thead").inner_text()
    assert table.locator('td[data-label="Difficulty"]').count() == 0
    assert page.evaluate(EMPTY_CELLS) == []
    screenshot(page, "tour-online-table")

    # The main table of the default field: RULES E2's rows say "—" for what they
    # lack (no level, no accuracy), never an empty cell.
    page.goto("/highscores")
    original = table.locator('tr[data-source="original"]')
    assert original.count() >= 5
    expect(original.first.locator('td[data-label="Difficulty"]')).to_have_text("—")
    expect(original.first.locator('td[data-label="Accuracy"]')).to_have_text("—")
    assert page.evaluate(EMPTY_CELLS) == []
    page.goto("/highscores?mode=two_players&size=7x9")
    assert table.locator('td[data-label="Difficulty"]').count() == 0
    assert page.evaluate(EMPTY_CELLS) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_header_never_overlaps_from_320_to_1280_px(
    browser: Any, live_server: LiveServer, scheme: str
) -> None:
    problems: list[str] = []
    for width in WIDTHS:
        with browser_context(browser, live_server.base_url, (width, 800),
                             color_scheme=scheme) as context, \
                checked_page(context, live_server.base_url) as page:
            for path in ("/how-to-play", "/highscores"):
                page.goto(path)
                items = page.evaluate(HEADER_BOXES, HEADER_ITEMS)
                assert len(items) >= 6, (width, items)  # the brand and the five links
                for name, left, _top, right, _bottom in items:
                    if left < 0 or right > width:
                        problems.append(f"{width} px {path}: {name} at {left}..{right}")
                for a, b in itertools.combinations(items, 2):
                    if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]:
                        problems.append(f"{width} px {path}: {a[0]} overlaps {b[0]}")
                scroll = page.evaluate("document.documentElement.scrollWidth")
                if scroll > width:
                    problems.append(f"{width} px {path}: the page is {scroll} px wide")
            if width in (640, 1280, 390):
                screenshot(page, f"tour-header-{scheme}")
    assert problems == [], "\n".join(problems)


def test_the_theme_button_says_what_it_does(sized_page: Any) -> None:
    page = sized_page
    page.emulate_media(color_scheme="light")
    page.goto("/how-to-play")
    page.evaluate("localStorage.removeItem('squares.theme')")
    page.reload()
    toggle = page.locator(TOGGLE)
    expect(toggle).to_have_text("☾ Dark mode", use_inner_text=True)
    expect(toggle).to_have_accessible_name("Dark mode")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(toggle).to_have_text("☀ Light mode", use_inner_text=True)
    expect(toggle).to_have_accessible_name("Light mode")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    screenshot(page, "tour-toggle-dark")
    page.reload()  # the label of the scheme shown from the first paint
    expect(page.locator(TOGGLE)).to_have_text("☀ Light mode", use_inner_text=True)
    page.locator(TOGGLE).click()
    expect(page.locator(TOGGLE)).to_have_text("☾ Dark mode", use_inner_text=True)
    page.evaluate("localStorage.removeItem('squares.theme')")


def test_the_start_form_speaks_plainly_and_shows_the_field_size(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    page.goto("/")
    page.evaluate("localStorage.clear()")
    page.reload()
    expect(page.locator("details.more")).not_to_have_attribute("open", "")
    levels = page.locator("#difficulty option").all_text_contents()
    assert [t.split(" — ")[0] for t in levels] == ["Easy", "Moderate", "Hard", "Expert"]
    assert all(" — " in t and "trial" not in t.lower() for t in levels), levels
    expect(page.locator("#difficulty-label")).not_to_contain_text("trial")
    expect(page.locator("#field-size")).to_be_visible()  # without "More options"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    screenshot(page, "tour-start")

    # A 7 x 9 game, started without opening "More options"; then the header's
    # "High scores" opens the 7 x 9 table, on any page.
    page.fill("#player-name", "Lale")
    page.select_option("#field-size", "7x9")
    page.click("#start-btn")
    expect(page.locator(f"{BOARD}[data-height='7'][data-width='9']")).to_be_attached()
    page.goto("/how-to-play")
    page.click("#nav-highscores")
    expect(page.locator("h1")).to_have_text("High scores on 7 × 9")
    expect(page.locator("#highscores-table")).to_have_attribute("data-mode", "vs_computer")


def in_list_view(page: Any, selector: str) -> bool:
    """Whether the link `selector` shows inside the move list's scrolled box."""
    return bool(page.locator(selector).evaluate(
        """a => { const box = a.closest("#moves").getBoundingClientRect(),
                   r = a.getBoundingClientRect();
                 return r.top >= box.top && r.bottom <= box.bottom; }"""))


def test_spectators_read_sentences_and_the_replay_list_opens_at_its_start(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    game = live_server.post_json("/api/games", {"player_name": "Umut", "height": 7,
                                                "width": 9, "difficulty": "easy"})
    finish_unassisted(live_server, game["game_id"], game["token"])
    events = live_server.get_json(f"/api/games/{game['game_id']}/events")["events"]
    seed = next(e["data"]["seed"] for e in events if e["type"] == "seed_revealed")
    # A small field starts with as many random lines as give its first turn a square to
    # close (rules edition 3): how many depends on the secret seed.
    drawn = len(events[0]["data"]["initial_lines"])
    assert drawn >= 1
    created = (f"A new game on a 7 × 9 field, with {drawn} random line{'s' if drawn > 1 else ''}"
               " already drawn. The random pieces are sealed: the seed is revealed when the"
               " game ends.")
    page.goto(f"/watch/{game['game_id']}")
    first = page.locator("#feed-past li").last
    expect(first).to_have_text(created)
    expect(page.locator("#feed-box")).to_contain_text(
        f"The seed is revealed: {seed}, the one sealed at the start.")
    for jargon in ("sha256", "commit", "Game created"):
        expect(page.locator("#feed-box")).not_to_contain_text(jargon)

    # The replay link opens the final position; its move list shows the start.
    page.goto(f"/games/{game['game_id']}")
    expect(page.locator("#step-desc")).to_contain_text("High score table")
    current = page.locator("#moves a[aria-current]")
    expect(current).to_have_attribute("data-step", str(len(events)))
    expect(page.locator('#moves a[data-step="1"]')).to_have_attribute("title", created)
    assert page.locator("#moves").evaluate("n => n.scrollTop") == 0
    assert in_list_view(page, '#moves a[data-step="1"]')
    screenshot(page, "tour-replay-list")
    # A step chosen in the list is kept in view as before.
    page.goto(f"/games/{game['game_id']}?step={len(events) - 3}")
    expect(page.locator("#moves a[aria-current]")).to_have_attribute(
        "data-step", str(len(events) - 3))
    assert in_list_view(page, "#moves a[aria-current]")


def test_a_refused_line_is_said_at_once_and_never_sent(
    sized: tuple[str, Any], live_server: LiveServer
) -> None:
    game = live_server.post_json("/api/games", {"player_name": "Ece", "seed": 2024,
                                                "height": 9, "width": 13,
                                                "difficulty": "easy"})
    state = live_server.get_json(f"/api/games/{game['game_id']}")["state"]
    assert state["stage"] == 1 and state["turn"] == 1
    legal = {tuple(p) for p in state["legal"]["lines"]}
    drawn = {(line["x"], line["y"]) for line in state["lines"]}
    bad = next((x, y) for y in range(9) for x in range((y + 1) % 2, 13, 2)
               if (x, y) not in drawn and (x, y) not in legal)
    taken = next(iter(drawn))

    # The server says the same words to a client that sends it anyway.
    status, refused = live_server.send("POST", f"/api/games/{game['game_id']}/lines",
                                       {"x": bad[0], "y": bad[1]}, game["token"])
    assert status == 409 and refused["error"]["code"] == "stage1_needs_square"
    assert refused["error"]["message"] == "in stage 1 every line must close a square"

    sent: list[str] = []
    # Checked: no console error (a 409 would log "Failed to load resource").
    with checked_page(sized[1], live_server.base_url, console=("error",)) as page:
        page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
        own(page, game)
        page.goto(f"/play/{game['game_id']}")
        expect(page.locator(f"{BOARD}[data-version='{state['version']}']")).to_be_attached()
        expect(page.locator("#prompt")).to_contain_text("close a square")
        slot(page, *bad).dispatch_event("click")
        message = page.locator("#message")
        expect(message).to_have_attribute("data-code", "stage1_needs_square")
        expect(message).to_have_text("In stage 1 every line must close a square")
        screenshot(page, "tour-refused")
        slot(page, *taken).dispatch_event("click")
        expect(message).to_have_attribute("data-code", "slot_taken")
        expect(message).to_contain_text("is already drawn")
        # A legal line still goes to the server and is played.
        x, y = sorted(legal)[0]
        slot(page, x, y).dispatch_event("click")
        expect(page.locator(BOARD)).not_to_have_attribute("data-version", str(state["version"]))
        lines = [u for u in sent if u.endswith("/lines")]
        assert len(lines) == 1, sent  # only the legal one
