"""A stage that offers no choice moves on by itself (play/auto.js), in Chromium.

Stage 1 with no square to close and stage 3 (the random pieces fell) each cost a press
that decided nothing. The page now sends that advance itself, says so in one polite
line (#auto-note), and never does when there is a choice: a stage 1 with a square to
close waits for the player, stage 2 for its line. The events stay the rules': the game
played on the page is, event for event, the one the domain plays from the same seed
and commands, every advance the player's (reason "player").

The page decides at once, when it is free (the same task that draws the state), and a
decision to move on says its note first: so a note still empty when the page shows a
state is proof that the page will not move on from it, with no wait.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from service.domain import ai
from service.domain.commands import Advance, Command, NewGame, PlaceLine
from service.domain.events import Event, LinePlaced
from service.domain.fold import apply_all
from service.domain.players import play_turn
from service.domain.rules import decide, legal_actions
from service.domain.state import GameState
from squares_testing.play import new_game

from .browsers import synced
from .conftest import LiveServer
from .helpers import BOARD, slot, stage, version
from .helpers import start_game as start_on_page
from .test_computer_turn_panel import open_game

pytestmark = pytest.mark.e2e

NO_SQUARE = "No square to close: on to stage 2."
NO_MORE = "No more squares to close: on to stage 2."
FELL = "The pieces fell: the computer's turn."

# Every text #auto-note takes, kept on the window (the note stays only until the next one).
WATCH_NOTES = """() => {
  window.__notes = [];
  const note = document.querySelector('#auto-note');
  new MutationObserver(() => note.textContent && window.__notes.push(note.textContent))
    .observe(note, { childList: true, characterData: true, subtree: true });
}"""


def _no_three_sides(state: GameState) -> bool:
    return all(state.sides[b] != 3 for b in state.geometry.boxes)


def _opening(seed: int) -> tuple[tuple[int, int], tuple[int, int], list[Event]] | None:
    """Against the easy computer on 7 x 9: the first stage 1 has one square to close and
    none after it; a stage-2 line leaves no square to close; after the pieces and the
    computer's turn the player's stage 1 has nothing to close. (The square's line, the
    stage-2 line, and every event up to the player's stage 2 of round 2.)"""
    events, state = new_game(NewGame(seed=seed, player_name="Ada", difficulty="easy",
                                     height=7, width=9))

    def do(command: Command) -> GameState:
        decided = decide(state, command)
        events.extend(decided)
        return apply_all(state, decided)

    lines = legal_actions(state).lines
    if not lines:
        return None
    state = do(PlaceLine(1, *lines[0]))
    placed = next(e for e in events if isinstance(e, LinePlaced))
    if placed.penalty or state.stage != 1 or legal_actions(state).lines:
        return None
    state = do(Advance(1))  # by itself
    safe = next((p for p in state.empty_slot_points()
                 if _no_three_sides(apply_all(state, decide(state, PlaceLine(1, *p))))), None)
    if safe is None:
        return None
    state = do(PlaceLine(1, *safe))
    state = do(Advance(1))  # pressed: the pieces
    if state.over:
        return None
    state = do(Advance(1))  # by itself: the computer's turn
    turn = play_turn(state, ai.strategy_for("easy"))
    events.extend(turn)
    state = apply_all(state, turn)
    if state.over or state.turn != 1 or legal_actions(state).lines:
        return None
    do(Advance(1))  # by itself
    return lines[0], safe, events


def opening() -> tuple[int, tuple[int, int], tuple[int, int], list[Event]]:
    for seed in range(1, 300):
        found = _opening(seed)
        if found:
            return (seed, *found)
    raise AssertionError("no seed for the opening")


def watch_notes(page: Any) -> None:
    page.evaluate(WATCH_NOTES)


def notes(page: Any) -> list[str]:
    return list(page.evaluate("window.__notes"))


def drawn(page: Any, at: int) -> None:
    """The page shows version `at`, drawn whole (no animation running)."""
    expect(page.locator(f"{BOARD}[data-version='{at}']:not(.animating)")).to_have_count(1)


def test_a_stage_without_a_choice_moves_on_by_itself_and_one_with_a_choice_waits(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    seed, square, extra, expected = opening()
    game_id = start_on_page(page, "Ada", size="7x9", seed=seed, difficulty="easy")
    note = page.locator("#auto-note")
    expect(note).to_have_attribute("role", "status")
    expect(note).to_have_attribute("aria-live", "polite")
    watch_notes(page)

    # Stage 1 with a square to close (rules edition 3: a small field's first turn has
    # one): the page waits for the player.
    assert stage(page) == 1 and note.text_content() == ""
    expect(page.locator("#advance-btn")).to_be_enabled()
    expect(page.locator("#prompt")).to_contain_text("Nothing to close? The game moves on")
    slot(page, *square).click()

    # No square left: stage 2 by itself, said in one line; stage 2 waits for its line.
    expect(note).to_have_text(NO_MORE)
    expect(note).to_be_in_viewport()
    drawn(page, 3)  # game_created, the square's line, the advance
    assert stage(page) == 2
    slot(page, *extra).click()
    drawn(page, 4)
    assert stage(page) == 2 and notes(page) == [NO_MORE]  # no advance without a press

    # Next stage: the pieces land; the turn ends by itself; the computer plays; the
    # player's stage 1 of round 2 has nothing to close and moves on to stage 2.
    page.click("#advance-btn")
    drawn(page, len(expected))
    expect(note).to_have_text(NO_SQUARE)
    expect(note).to_be_in_viewport()
    assert stage(page) == 2
    assert notes(page) == [NO_MORE, FELL, NO_SQUARE]
    expect(page.locator("#st-round")).to_have_text("2")

    # The events are the rules': the domain's game from the same seed and commands.
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    assert [(e["type"], e["data"]) for e in events[1:]] == \
        [(e.TYPE, e.to_dict()["data"]) for e in expected[1:]]
    advances = [e["data"] for e in events if e["type"] == "stage_advanced"]
    assert [a["stage"] for a in advances if a["seat"] == 1] == [2, 3, 1, 2]
    assert {a["reason"] for a in advances} == {"player"}


def test_the_setting_keeps_the_presses(page: Any, live_server: LiveServer) -> None:
    seed, square, _extra, _expected = opening()
    game_id = start_on_page(page, "Ada", size="7x9", seed=seed, difficulty="easy")
    box = page.locator("#auto-advance")
    expect(box).to_be_checked()
    box.uncheck()
    slot(page, *square).click()
    drawn(page, 2)
    assert stage(page) == 1 and page.locator("#auto-note").text_content() == ""
    expect(page.locator("#prompt")).to_contain_text("Nothing to close? Press Next stage.")

    page.reload()  # the choice is kept (localStorage)
    drawn(page, 2)
    expect(box).not_to_be_checked()
    assert stage(page) == 1 and page.locator("#auto-note").text_content() == ""
    box.check()  # on again: the stage moves on at once
    expect(page.locator("#auto-note")).to_have_text(NO_MORE)
    drawn(page, 3)
    assert stage(page) == 2
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    assert [(e["type"], e["data"].get("reason")) for e in events[1:]] == [
        ("line_placed", None), ("stage_advanced", "player")]


def test_online_only_the_seat_to_move_moves_on_and_only_on_its_own_page(
    page: Any, live_server: LiveServer
) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Nil", "mode": "online",
                                                   "height": 7, "width": 9, "seed": 4})
    game_id = created["game_id"]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim",
                                    {"code": created["invite"]["code"], "name": "Bora"})
    tokens = {1: created["token"], 2: claimed["token"]}
    names = {1: "Nil", 2: "Bora"}
    path = f"/api/games/{game_id}"
    first = live_server.get_json(path)["state"]["turn"]
    mine = 3 - first
    open_game(page, game_id, tokens[mine], seat=mine)
    note = page.locator("#auto-note")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)

    def move(what: str, body: dict[str, Any]) -> dict[str, Any]:
        state = live_server.get_json(path)["state"]
        answer = live_server.post_json(f"{path}/{what}",
                                       {**body, "expected_version": state["version"]},
                                       tokens[first])
        return dict(answer["state"])

    # The friend plays on their own (here through the API): each of their stages,
    # stage 3 too, waits for them; this page moves on for nobody but its own seat.
    state = move("advance", {})
    state = move("lines", dict(zip("xy", state["legal"]["lines"][0], strict=True)))
    state = move("advance", {})
    assert state["stage"] == 3 and state["turn"] == first
    synced(page, state["version"])
    assert stage(page) == 3 and note.text_content() == "" and posts == []
    state = move("advance", {})  # a conflict if this page had ended their turn
    assert state["turn"] == mine and state["stage"] == 1

    # This page's turn: its stage 1 has a square to close (seed 4), so it waits for a
    # press; stage 2 for its line; stage 3 ends by itself.
    synced(page, state["version"])
    assert state["legal"]["lines"] and note.text_content() == ""
    page.click("#advance-btn")
    drawn(page, state["version"] + 1)
    line = page.locator(f"{BOARD} .slot.empty").first
    line.click()
    drawn(page, state["version"] + 2)
    page.click("#advance-btn")
    expect(note).to_have_text(f"The pieces fell: {names[first]}'s turn.")
    expect(page.locator(f"{BOARD}[data-stage='1']:not(.animating)")).to_have_count(1)
    after = live_server.get_json(path)["state"]
    assert after["turn"] == first and after["stage"] == 1
    assert version(page) == after["version"]
    events = live_server.get_json(f"{path}/events")["events"]
    assert {e["data"]["reason"] for e in events if e["type"] == "stage_advanced"} == {"player"}
