"""The play page's panel while someone else plays, and at the end of a game (issue 26,
items 2 and 6b), at a desktop size and on a phone with touch:

- after the human ends a turn against the computer, while the computer's turn is
  animated, the prompt names the computer and its stage, "End turn" / "Next stage"
  and "Hint" are disabled with the reason as their title and accessible description,
  the keyboard's shortcuts do nothing, the player-to-move marker is on the computer
  and the stage-3 list shows the computer's pieces only; afterwards the controls come
  back. The animation is held with Playwright's clock (its pace is `setTimeout`).
- an online game's player waits with the same disabled controls ("Waiting for
  <name>"); a computer-vs-computer game names the computer seat that plays.
- on a tiny field, a game that ends on the human's line and one that ends on the
  computer's turn: the last message gives the result and no instruction to go on,
  and "Last turn" describes whoever moved last.

Screenshots of the computer's turn go to ``$SQUARES_SCREENSHOTS`` (default
``build/screenshots``) as ``computer-turn-<width>x<height>.png``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SIZES, LiveServer, browser_context, checked_page, screenshot
from .helpers import BOARD, slot

pytestmark = pytest.mark.e2e

WAIT_COMPUTER = "Wait for the computer's turn to end."
SMALL = (7, 9)
# Words that ask the player to go on: none may follow a move that ended the game.
GO_ON = re.compile(r"press|Close another|Next stage|End turn|place one|Your turn", re.IGNORECASE)


@pytest.fixture(params=sorted(SIZES))
def page(request: Any, browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A checked page in a context of its own at the size; the phone has touch."""
    with browser_context(browser, live_server.base_url, request.param) as context, \
            checked_page(context, live_server.base_url) as pg:
        yield pg


def open_game(page: Any, game_id: str, token: str, seat: int | None = None) -> None:
    """Open /play/<id> as the browser that holds the game's token (as if it had started it)."""
    page.goto("/how-to-play")
    entry: dict[str, Any] = {"token": token, "at": 1}
    if seat is not None:
        entry["seat"] = seat
    page.evaluate("g => localStorage.setItem('squares.tokens', JSON.stringify(g))", {game_id: entry})
    page.goto(f"/play/{game_id}")
    expect(page.locator(f"{BOARD}[data-version]")).to_have_count(1)


def act(server: LiveServer, game_id: str, token: str, action: tuple[Any, ...]) -> dict[str, Any]:
    state = server.get_json(f"/api/games/{game_id}")["state"]
    body: dict[str, Any] = {"expected_version": state["version"]}
    if action[0] == "line":
        body.update(x=action[1], y=action[2])
        return server.post_json(f"/api/games/{game_id}/lines", body, token)
    return server.post_json(f"/api/games/{game_id}/advance", body, token)


def hinted(server: LiveServer, game_id: str, token: str) -> tuple[Any, ...]:
    hint = server.get_json(f"/api/games/{game_id}/hint", token)
    return ("line", hint["x"], hint["y"]) if hint["action"] == "line" else ("advance",)


def expect_waiting(page: Any, reason: str) -> None:
    """Both controls disabled, with `reason` as title and accessible description."""
    for button in ("#advance-btn", "#hint-btn"):
        control = page.locator(button)
        expect(control).to_be_disabled()
        expect(control).to_have_attribute("title", reason)
        expect(control).to_have_accessible_description(reason)


def expect_free(page: Any) -> None:
    expect(page.locator("#advance-btn")).to_be_enabled()
    expect(page.locator("#advance-btn")).to_have_attribute("title", "Enter")
    expect(page.locator("#advance-btn")).not_to_have_attribute("aria-describedby", re.compile("."))
    expect(page.locator("#hint-btn")).to_be_enabled()
    expect(page.locator("#hint-btn")).to_have_attribute("title", "H")


def test_while_the_computer_plays_the_panel_says_so_and_the_controls_wait(
    page: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Ayla", "height": 11, "width": 17,
                                                   "seed": 12, "difficulty": "easy"})
    game_id, token = created["game_id"], created["token"]
    # The human's first turn through the API, up to its stage 3.
    for _ in range(60):
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
        if state["stage"] == 3:
            break
        act(live_server, game_id, token, hinted(live_server, game_id, token))
    assert state["stage"] == 3 and state["turn"] == 1 and not state["over"]

    # The clock stands still: stage 3 waits to end by itself (play/auto.js), and then the
    # computer's turn stops at its first step.
    page.clock.install()
    page.clock.pause_at(datetime.datetime.now() + datetime.timedelta(seconds=5))
    open_game(page, game_id, token)
    expect(page.locator("#prompt")).to_contain_text("Stage 3")
    expect(page.locator("#advance-btn")).to_have_text("End turn ⏎")
    expect(page.locator("#pieces li")).to_have_count(3)  # the human's pieces
    expect_free(page)
    expect(page.locator("#auto-note")).to_have_text("The pieces fell: the computer's turn.")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" or "/hint" in r.url else None)

    page.clock.run_for(1000)  # the turn ends by itself
    expect(page.locator(f"{BOARD}.animating")).to_have_count(1)
    expect(page.locator("#prompt")).to_contain_text("The computer is playing its turn")
    expect(page.locator("#prompt")).to_contain_text("stage 1")
    expect_waiting(page, WAIT_COMPUTER)
    expect(page.locator("#status")).to_have_class(re.compile(r"\bturn-2\b"))
    expect(page.locator("#status")).not_to_have_class(re.compile(r"\bturn-1\b"))
    expect(page.locator("#st-turn")).to_have_text("Computer")
    expect(page.locator("#pieces-box")).to_be_hidden()  # the human's pieces are gone
    expect(page.locator("#game")).to_have_class(re.compile(r"\bwaiting\b"))
    expect(page.locator("#skip-btn")).to_be_visible()
    screenshot(page, "computer-turn")

    # The keyboard's shortcuts do nothing meanwhile (no request is sent).
    sent = len(posts)
    page.locator(BOARD).focus()
    for key in ("Enter", "h", " "):
        page.keyboard.press(key)
    page.wait_for_timeout(200)
    assert posts[sent:] == []
    expect(page.locator(f"{BOARD}.animating")).to_have_count(1)

    # Step by step: the prompt follows the computer's stages, and its pieces come.
    seen_stages = set()
    captions: set[str] = set()
    for _ in range(200):
        page.clock.run_for(300)
        if page.locator(f"{BOARD}.animating").count() == 0:
            break
        stage = page.locator("#st-stage").text_content()
        seen_stages.add(stage)
        expect(page.locator("#prompt")).to_contain_text(f"stage {stage}")
        expect_waiting(page, WAIT_COMPUTER)
        expect(page.locator("#status")).to_have_class(re.compile(r"\bturn-2\b"))
        if stage == "3":
            captions.update(page.locator("#pieces li").all_text_contents())
    assert {"1", "2", "3"} <= seen_stages, seen_stages
    # The list showed the computer's pieces as they landed, never the human's.
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    theirs = [e["data"] for e in events if e["type"] == "piece_inserted" and e["data"]["seat"] == 2]
    at = [f"at ({p['lines'][0][0]},\u00a0{p['lines'][0][1]})" if p["lines"] else "skipped"
          for p in theirs]
    assert captions and len(captions) <= len(theirs), captions
    for caption in captions:
        assert any(where in caption for where in at), (caption, at)
    page.clock.resume()

    # Its turn is over: the controls come back, the marker is on the human again.
    expect(page.locator(f"{BOARD}.animating")).to_have_count(0)
    expect(page.locator("#prompt")).to_contain_text("Stage 1")
    expect_free(page)
    expect(page.locator("#status")).to_have_class(re.compile(r"\bturn-1\b"))
    expect(page.locator("#st-turn")).to_have_text("Ayla")
    expect(page.locator("#game")).not_to_have_class(re.compile(r"\bwaiting\b"))
    expect(page.locator("#last-summary")).to_contain_text("Computer:")
    expect(page.locator("#message")).to_contain_text("your turn")


def test_an_online_player_waits_for_the_other_with_the_same_disabled_controls(
    page: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Nil", "mode": "online",
                                                   "height": 9, "width": 13, "seed": 4,
                                                   "hints": True})
    game_id = created["game_id"]
    code = created["invite"]["code"]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim", {"code": code, "name": "Bora"})
    tokens = {1: created["token"], 2: claimed["token"]}
    names = {1: "Nil", 2: "Bora"}
    first = live_server.get_json(f"/api/games/{game_id}")["state"]["turn"]
    other = 3 - first
    open_game(page, game_id, tokens[other], seat=other)
    reason = f"Waiting for {names[first]} to move."
    expect(page.locator("#prompt")).to_contain_text(f"Waiting for {names[first]}… (stage 1)")
    expect_waiting(page, reason)
    expect(page.locator("#status")).to_have_class(re.compile(rf"\bturn-{first}\b"))
    # The other player's moves arrive by the live feed: still waiting, the stage followed.
    for _ in range(60):
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
        if state["turn"] != first or state["over"]:
            break
        act(live_server, game_id, tokens[first], hinted(live_server, game_id, tokens[first]))
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
        if state["turn"] == first and not state["over"]:
            expect(page.locator(BOARD)).to_have_attribute("data-version", str(state["version"]))
            expect(page.locator("#prompt")).to_contain_text(f"(stage {state['stage']})")
            expect_waiting(page, reason)
    assert state["turn"] == other and not state["over"]
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(state["version"]))
    expect(page.locator("#prompt")).to_contain_text("Your turn")
    expect_free(page)
    expect(page.locator("#status")).to_have_class(re.compile(rf"\bturn-{other}\b"))


def test_a_computer_vs_computer_game_names_the_computer_that_plays(
    page: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Sim", "mode": "computer_vs_computer",
                                                   "height": 11, "width": 17, "seed": 6,
                                                   "difficulty": "easy", "second_level": "easy"})
    game_id, token = created["game_id"], created["token"]
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    seats = {s["seat"]: s["name"] for s in state["seats"]}
    open_game(page, game_id, token)
    turn = state["turn"]
    expect(page.locator("#prompt")).to_contain_text(f"{seats[turn]} is playing its turn")
    expect_waiting(page, f"Wait for {seats[turn]}'s turn to end.")
    live_server.post_json(f"/api/games/{game_id}/computer-turn", {}, token)
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert not state["over"]
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(state["version"]))
    expect(page.locator(f"{BOARD}.animating")).to_have_count(0)
    expect(page.locator("#prompt")).to_contain_text(f"{seats[state['turn']]} is playing its turn")
    expect_waiting(page, f"Wait for {seats[state['turn']]}'s turn to end.")
    expect(page.locator("#status")).to_have_class(re.compile(rf"\bturn-{state['turn']}\b"))
    expect(page.locator("#last-summary")).to_contain_text(f"{seats[turn]}:")


# -- the end of a game on a tiny field ------------------------------------------------------
def probe(server: LiveServer, seed: int) -> tuple[list[tuple[Any, ...]], int]:
    """Play a 7 x 9 practice game with `seed` by the hints: (the human's actions, the
    seat whose move ended the game)."""
    created = server.post_json("/api/games", {"player_name": "Probe", "seed": seed, "height": SMALL[0],
                                               "width": SMALL[1], "difficulty": "easy"})
    game_id, token = created["game_id"], created["token"]
    actions: list[tuple[Any, ...]] = []
    for _ in range(200):
        if server.get_json(f"/api/games/{game_id}")["state"]["over"]:
            break
        action = hinted(server, game_id, token)
        actions.append(action)
        act(server, game_id, token, action)
    events = server.get_json(f"/api/games/{game_id}/events")["events"]
    last = [e for e in events if e["type"] in ("line_placed", "piece_inserted")][-1]
    return actions, last["data"]["seat"]


@pytest.fixture(scope="module")
def endings(live_server: LiveServer) -> dict[str, tuple[int, list[tuple[Any, ...]]]]:
    """A seed whose game ends on the human's line, one whose game ends on the
    computer's turn (tried in order; the games are deterministic from their seeds)."""
    found: dict[str, tuple[int, list[tuple[Any, ...]]]] = {}
    for seed in range(1, 30):
        actions, seat = probe(live_server, seed)
        kind = "human" if seat == 1 and actions[-1][0] == "line" else "computer" if seat == 2 else None
        if kind and kind not in found:
            found[kind] = (seed, actions)
        if len(found) == 2:
            return found
    raise AssertionError(f"no seeds for both endings in 1..29: {sorted(found)}")


def replay_but_last(server: LiveServer, seed: int, actions: list[tuple[Any, ...]],
                    name: str) -> tuple[str, str]:
    created = server.post_json("/api/games", {"player_name": name, "seed": seed, "height": SMALL[0],
                                               "width": SMALL[1], "difficulty": "easy"})
    for action in actions[:-1]:
        act(server, created["game_id"], created["token"], action)
    return created["game_id"], created["token"]


def expect_final_words(page: Any, winner_words: str) -> str:
    expect(page.locator(BOARD)).to_have_attribute("data-over", "true")
    expect(page.locator(f"{BOARD}.animating")).to_have_count(0)
    expect(page.locator("#over")).to_be_visible()
    message = page.locator("#message")
    expect(message).to_contain_text(re.compile(r"game over", re.IGNORECASE))
    expect(message).to_contain_text(winner_words)
    text = message.text_content() or ""
    print(f"final message: {text}")
    print(f"last turn: {page.locator('#last-summary').text_content()}")
    assert not GO_ON.search(text), text
    expect(page.locator("#advance-btn")).to_be_disabled()
    expect(page.locator("#last-title")).to_have_text("Last turn")
    return text


def result_words(state: dict[str, Any], you: str) -> str:
    names = {s["seat"]: s["name"] for s in state["seats"]}
    return "A draw" if state["winner"] == 0 else "You win" if names[state["winner"]] == you \
        else f"{names[state['winner']]} wins"


def test_a_game_ended_by_the_humans_line_says_only_that_it_is_over(
    page: Any, live_server: LiveServer, endings: dict[str, Any]
) -> None:
    seed, actions = endings["human"]
    game_id, token = replay_but_last(live_server, seed, actions, "Deniz")
    open_game(page, game_id, token)
    expect(page.locator("#prompt")).to_contain_text("Stage")
    _, x, y = actions[-1]
    if page.viewport_size["width"] < 600:
        # A phone: the tiny board may zoom in at the first tap, then the line is tapped.
        slot(page, x, y).tap()
        if page.locator(".board-scroll.zoomed").count():
            slot(page, x, y).tap()
    else:
        slot(page, x, y).click()
    expect(page.locator(BOARD)).to_have_attribute("data-over", "true")
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert state["over"]
    text = expect_final_words(page, result_words(state, "Deniz"))
    assert "The last line is drawn" in text
    # "Last turn" is the human's, the one that ended the game.
    summary = page.locator("#last-summary")
    expect(summary).to_contain_text(re.compile(r"^Deniz: "))
    expect(summary).to_contain_text("The game ended on this turn.")


def test_a_game_ended_by_the_computers_turn_says_so_and_shows_that_turn_last(
    page: Any, live_server: LiveServer, endings: dict[str, Any]
) -> None:
    seed, actions = endings["computer"]
    game_id, token = replay_but_last(live_server, seed, actions, "Ece")
    open_game(page, game_id, token)
    assert actions[-1] == ("advance",)
    expect(page.locator("#advance-btn")).to_have_text("End turn ⏎")
    # Stage 3 ends by itself (play/auto.js), as a press of "End turn" would.
    expect(page.locator("#auto-note")).to_have_text("The pieces fell: the computer's turn.")
    # At once: the computer's turn, the controls waiting.
    expect(page.locator("#prompt")).to_contain_text("The computer is playing its turn")
    expect_waiting(page, WAIT_COMPUTER)
    # The page says so before the server has answered: the state is read once the
    # page has the end (on a busy machine the answer can take a while).
    expect(page.locator(BOARD)).to_have_attribute("data-over", "true", timeout=30_000)
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert state["over"]
    text = expect_final_words(page, result_words(state, "Ece"))
    assert "Ece:" not in text
    summary = page.locator("#last-summary")
    expect(summary).to_contain_text(re.compile(r"^Computer: "))
    expect(summary).to_contain_text("The game ended on this turn.")
    expect(page.locator("#ai-box")).to_be_visible()
    # A reload tells the same: the turn that ended the game is the last one.
    page.reload()
    expect(page.locator("#over-table tbody[data-loaded]")).to_have_count(1)
    expect(page.locator("#last-summary")).to_contain_text(re.compile(r"^Computer: "))
    expect(page.locator("#last-summary")).to_contain_text("The game ended on this turn.")
