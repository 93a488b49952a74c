"""Issue 14 in Chromium: the player's own moves explained, the how-to-play page and the
stage prompt, a URL for every game, the board on a phone played by taps, axis labels,
and replays by turn with a move list."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from service.domain.commands import NewGame, PlaceLine
from service.domain.events import LinePlaced
from service.domain.fold import apply_all, fold
from service.domain.rules import decide, legal_actions
from service.domain.start import start_game

from .conftest import (
    LiveServer,
    browser_context,
    checked_page,
    finish_unassisted,
    play_by_api,
    screenshot,
)
from .helpers import BOARD, slot, stage, version, wait_for_new_version
from .helpers import start_game as start_on_page

pytestmark = pytest.mark.e2e


def has_classes(*names: str) -> re.Pattern[str]:
    return re.compile("".join(rf"(?=.*(^|\s){re.escape(n)}(\s|$))" for n in names))


def irregular_opening(height: int, width: int) -> tuple[int, tuple[int, int], tuple[int, int]]:
    """A seed whose first stage 1 offers a regular square, then a line that forms only
    a square away from it (RULES T2: ownerless, -5, stage 2): (seed, line 1, line 2)."""
    for seed in range(1, 500):
        state = fold(start_game(NewGame(seed=seed, player_name="X", difficulty="easy",
                                        height=height, width=width)))
        for first in legal_actions(state).lines:
            events = decide(state, PlaceLine(1, *first))
            placed = next(e for e in events if isinstance(e, LinePlaced))
            if placed.penalty or not placed.squares or placed.squares[0][2] != "P":
                continue
            after = apply_all(state, events)
            for second in legal_actions(after).lines:
                again = next(e for e in decide(after, PlaceLine(1, *second))
                             if isinstance(e, LinePlaced))
                if again.penalty and len(again.squares) == 1:
                    return seed, first, second
    raise AssertionError("no seed with an irregular square found")


def legal_lines(live_server: LiveServer, game_id: str) -> list[tuple[int, int]]:
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    return [tuple(p) for p in state["legal"]["lines"]]  # type: ignore[misc]


def test_own_moves_are_explained_scores_animate_and_messages_do_not_outlive_their_truth(
    page: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    seed, first, second = irregular_opening(9, 13)
    game_id = start_on_page(page, "Nil", size="9x13", seed=seed, difficulty="easy")
    expect(page.locator("#prompt")).to_contain_text("Stage 1 — squaring")
    expect(page.locator("#advance-btn")).to_have_text("Next stage ⏎")

    # A refused line: the rule's message, which the next action clears.
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    drawn = {(line["x"], line["y"]) for line in state["lines"]}
    bad = next((x, y) for y in range(9) for x in range(13)
               if (x + y) % 2 == 1 and (x, y) not in drawn
               and [x, y] not in state["legal"]["lines"])
    slot(page, *bad).click()
    expect(page.locator("#message")).to_have_attribute("data-code", "stage1_needs_square")

    # A regular square: +1, said in words, the score counting up with a badge.
    before = version(page)
    slot(page, *first).click()
    wait_for_new_version(page, before)
    message = page.locator("#message")  # the aria-live region that announces each move
    assert message.get_attribute("role") == "status"
    assert message.get_attribute("aria-live") == "polite"
    expect(message).to_have_class(has_classes("message", "good"))
    expect(message).to_contain_text("+1 for you")
    expect(page.locator(".status .delta.up")).to_have_count(1)
    expect(page.locator("#st-score1")).to_have_text("1")

    # An irregular square: the rule named, -5, the score counting down, stage 2 by itself.
    before = version(page)
    slot(page, *second).click()
    wait_for_new_version(page, before)
    expect(message).to_have_class(has_classes("message", "penalty"))
    expect(message).to_contain_text("Irregular square")
    expect(message).to_contain_text("costs 5 points (rule T2)")
    expect(message).to_contain_text("Stage 1 is over")
    expect(page.locator(".status .delta.down")).to_have_text("−5")
    expect(page.locator("#st-score1")).to_have_text("-4")
    assert stage(page) == 2
    expect(page.locator("#prompt")).to_contain_text("Stage 2 — place one extra line")
    screenshot(page, tmp_path / "irregular.png")

    # Stage 2: the extra line in words; then stage 3's pieces, animated and captioned,
    # and the button reads "End turn".
    before = version(page)
    slot(page, *legal_lines(live_server, game_id)[0]).click()
    wait_for_new_version(page, before)
    expect(message).to_contain_text("Extra line at")
    # (Stage 3 ends by itself, play/auto.js: held here by its setting, to be read.)
    page.uncheck("#auto-advance")
    before = version(page)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{BOARD}.animating")  # the pieces land one by one
    wait_for_new_version(page, before)
    assert stage(page) == 3
    expect(page.locator("#pieces li")).to_have_count(3)
    expect(message).to_contain_text("Press End turn")
    expect(page.locator("#advance-btn")).to_have_text("End turn ⏎")
    expect(page.locator("#prompt")).to_contain_text("Stage 3")

    # The turn ends (by itself once the setting is on again): the computer plays; then
    # only this turn is shown, the last one in a line.
    before = version(page)
    page.check("#auto-advance")
    expect(page.locator("#auto-note")).to_have_text("The pieces fell: the computer's turn.")
    page.wait_for_selector(f"{BOARD}.animating")
    expect(message).to_contain_text("Computer")  # each of its moves is announced
    page.keyboard.press("Escape")
    wait_for_new_version(page, before)
    expect(page.locator("#pieces-box")).to_be_hidden()
    expect(page.locator("#last-summary")).to_contain_text("Computer:")
    expect(message).to_contain_text("your turn")
    # A hint is forgotten once an action is taken.
    page.click("#hint-btn")
    expect(message).to_have_attribute("data-code", "hint")
    expect(message).to_contain_text(re.compile(r"Hint: (place the line at \(\d+,\s\d+\)|press)"))
    before = version(page)
    page.keyboard.press("Enter")
    wait_for_new_version(page, before)
    expect(message).not_to_contain_text("Hint")


def test_how_to_play_explains_each_stage_with_figures(page: Any) -> None:
    page.goto("/")
    page.click("header nav >> text=How to play")
    page.wait_for_url("**/how-to-play")
    figures = page.locator("svg.example")
    assert figures.count() >= 6
    text = page.locator("article.how")
    for words in ("regular chain", "5 points", "one extra line", "three random pieces",
                  "Game over", "(3, 2)"):
        expect(text).to_contain_text(words)
    # the figures use the board's colours: a blue line, an ownerless square
    assert page.locator("svg.example .slot.by-P").count() > 0
    assert page.locator("svg.example .box.own-O").count() > 0
    page.click("text=Start a game")
    page.wait_for_url("**/")
    expect(page.locator("#start-form")).to_be_visible()


def test_every_game_has_a_url_and_starting_one_never_loses_another(
    page: Any, live_server: LiveServer, browser: Any
) -> None:
    first = start_on_page(page, "Umut", size="7x9", seed=3, difficulty="hard")
    assert page.url.endswith(f"/play/{first}")
    before = version(page)
    page.keyboard.press("Enter")  # stage 2
    wait_for_new_version(page, before)
    reached = version(page)

    # A second game: the first is still playable, from its URL and from /games.
    page.click("#new-btn")
    expect(page.locator("#player-name")).to_have_value("Umut")  # remembered
    expect(page.locator("#difficulty")).to_have_value("hard")
    expect(page.locator("#resume-desc")).to_contain_text("Umut vs Computer")
    second = start_on_page(page, "Umut", size="7x9", seed=4)
    assert second != first and page.url.endswith(f"/play/{second}")
    page.goto("/games?player=Umut")
    row = page.locator(f'tr[data-game-id="{first}"]')
    expect(row.locator("a.continue-link")).to_be_visible()
    expect(row.locator("td.field-size")).to_have_text(re.compile(r"7 × 9|—"))
    row.locator("a.continue-link").click()
    page.wait_for_url(f"**/play/{first}")
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(reached))
    expect(page.locator("#advance-btn")).to_be_enabled()
    page.reload()  # the URL alone brings it back
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(reached))
    slot(page, *legal_lines(live_server, first)[0]).click()  # the token still works
    wait_for_new_version(page, reached)
    page.go_back()  # history: back to the games list
    page.wait_for_url("**/games**")

    # Another browser (no token) sees the game read-only.
    with browser_context(browser, live_server.base_url) as other:
        watcher = other.new_page()
        watcher.goto(f"/play/{first}")
        expect(watcher.locator("#message")).to_have_attribute("data-code", "watching")
        expect(watcher.locator("#advance-btn")).to_be_disabled()
        expect(watcher.locator("#prompt")).to_contain_text("is to move")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(live_server.base_url + "/play/no-such-game", timeout=30)
    assert refused.value.code == 404


def test_axis_labels_match_the_coordinates_of_hints(page: Any, live_server: LiveServer) -> None:
    game_id = start_on_page(page, "Eren", size="9x13", seed=8)
    labels = page.locator(f"{BOARD} .axes text")
    expect(labels).to_have_count(9 + 13)
    assert labels.all_text_contents() == [str(x) for x in range(13)] + [str(y) for y in range(9)]
    page.click("#hint-btn")
    token = page.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[game_id]["token"]
    expected = live_server.get_json(f"/api/games/{game_id}/hint", token)  # the same hint
    if expected["action"] == "line":
        x, y = expected["x"], expected["y"]
        expect(page.locator("#message")).to_contain_text(f"({x}, {y}) (column {x}, row {y})")
        # the label of column x sits above the slot, the label of row y beside it
        slot_box = slot(page, x, y).bounding_box()
        col = labels.nth(x).bounding_box()
        row = labels.nth(13 + y).bounding_box()
        assert abs((col["x"] + col["width"] / 2) - (slot_box["x"] + slot_box["width"] / 2)) < 3
        assert abs((row["y"] + row["height"] / 2) - (slot_box["y"] + slot_box["height"] / 2)) < 4


@pytest.fixture
def phone(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    with browser_context(browser, live_server.base_url, "phone") as context, \
            checked_page(context, live_server.base_url) as pg:
        yield pg


def test_a_whole_turn_by_taps_on_a_phone_with_the_board_on_screen(
    phone: Any, live_server: LiveServer, tmp_path: Any
) -> None:
    page = phone
    page.goto("/")
    page.fill("#player-name", "Defne")
    page.select_option("#difficulty", "easy")
    page.tap("#start-btn")  # the standard 19 x 33 field
    page.wait_for_selector(f"{BOARD}[data-version]")
    game_id = page.url.rsplit("/", 1)[1]
    width = 390
    box = page.locator(BOARD).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    expect(page.locator("#zoom-btn")).to_be_visible()

    # The first tap zooms in: slots are then at least 24 px apart (centre to centre of
    # the nearest two, 1.41 cells), and nothing is placed.
    before = version(page)
    page.locator(BOARD).tap(position={"x": box["width"] / 2, "y": box["height"] / 2})
    expect(page.locator("#board-scroll")).to_have_class(has_classes("board-scroll", "zoomed"))
    assert version(page) == before
    per_unit = page.evaluate(
        "() => { const b = document.querySelector('#board');"
        " return b.getBoundingClientRect().width / b.viewBox.baseVal.width; }")
    assert per_unit * 20 * 2**0.5 >= 24
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, tmp_path / "phone-zoomed.png")

    # Stage 1 by a tap on a line that squares (if any), else on Next stage.
    lines = legal_lines(live_server, game_id)
    if lines:
        slot(page, *lines[0]).tap()
        wait_for_new_version(page, before)
        before = version(page)
    page.tap("#advance-btn")
    wait_for_new_version(page, before)
    assert stage(page) == 2
    before = version(page)
    slot(page, *legal_lines(live_server, game_id)[0]).tap()  # the extra line
    wait_for_new_version(page, before)
    before = version(page)
    page.tap("#advance-btn")
    wait_for_new_version(page, before)
    assert stage(page) == 3
    expect(page.locator("#advance-btn")).to_have_text("End turn ⏎")
    before = version(page)
    page.tap("#advance-btn")
    page.wait_for_selector(f"{BOARD}.animating")
    page.tap("#skip-btn")
    wait_for_new_version(page, before)
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert (state["round"], state["turn"]) == (2, 1)
    # Back to the whole board: it fits again.
    page.tap("#zoom-btn")
    box = page.locator(BOARD).bounding_box()
    assert box["x"] + box["width"] <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, tmp_path / "phone-round-2.png")


def test_replay_by_turns_with_a_move_list_and_the_step_highlighted(
    page: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Oya", "height": 15,
                                                   "width": 25, "seed": 31,
                                                   "difficulty": "easy"})
    game_id = created["game_id"]
    play_by_api(live_server, game_id, created["token"], rounds=2)
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    total = len(events)
    ends = [e["seq"] for e in events
            if e["type"] == "stage_advanced" and e["data"]["stage"] == 1]
    assert len(ends) >= 3, "two rounds: at least three turns ended"

    # The list's link opens the final position.
    page.goto("/games?player=Oya")
    page.locator(f'tr[data-game-id="{game_id}"] a.replay-link').click()
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total))
    moves = page.locator("#moves")
    expect(moves.locator(".round h3").first).to_have_text("Round 1")
    expect(moves.locator(".turn")).to_have_count(len(ends) + (0 if total in ends else 1))
    expect(moves.locator("a[aria-current]")).to_have_attribute("data-step", str(total))

    # A line in the list: the board shows that step, its line outlined.
    line = next(e for e in events if e["type"] == "line_placed")
    moves.locator(f'a[data-step="{line["seq"]}"]').click()
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(line["seq"]))
    d = line["data"]
    expect(slot(page, d["x"], d["y"])).to_have_class(has_classes("step"))
    expect(moves.locator("a[aria-current]")).to_have_attribute("data-step", str(line["seq"]))

    # Turn by turn: buttons and keys.
    page.click("#next-turn-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(ends[0]))
    page.keyboard.press("Shift+ArrowRight")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(ends[1]))
    page.keyboard.press("PageUp")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(ends[0]))
    page.keyboard.press("Shift+ArrowLeft")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "1")
    expect(page.locator("#prev-turn-btn")).to_be_disabled()
    page.click("#last-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total))
    page.click("#prev-turn-btn")  # the last turn's end before the final step
    expect(page.locator(BOARD)).to_have_attribute("data-step",
                                                  str(max(e for e in ends if e < total)))


def test_high_scores_show_the_field_size_and_filter_by_it(page: Any,
                                                         live_server: LiveServer) -> None:
    # ranked (no seed): a practice game never enters the high score table
    created = live_server.post_json("/api/games", {"player_name": "Filiz", "height": 7,
                                                   "width": 9, "difficulty": "easy"})
    finish_unassisted(live_server, created["game_id"], created["token"])  # no hint
    page.goto(f"/highscores?game={created['game_id']}")
    mine = page.locator("#highscores-table tr.mine")
    expect(mine.locator("td.field-size")).to_have_text("7 × 9")
    expect(mine.locator("a.replay-link")).to_have_attribute(
        "href", f"/games/{created['game_id']}")  # opens at the final position
    page.select_option("#size-filter", "7x9")
    page.click("form.filter button")
    page.wait_for_url("**size=7x9**")
    sizes = page.locator("#highscores-table td.field-size").all_text_contents()
    assert sizes and set(sizes) == {"7 × 9"}
    expect(page.locator("h1")).to_have_text("High scores on 7 × 9")
    expect(page.locator("#highscores-table tr.mine")).to_have_count(1)
    mine.locator("a.replay-link").click()
    events = live_server.get_json(f"/api/games/{created['game_id']}/events")["events"]
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(len(events)))
