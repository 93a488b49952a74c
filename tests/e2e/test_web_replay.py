"""The replay page in Chromium: keys on focused controls, the chart, the AI's plan
(in plain words, the assignment's BestPoint ... under "Computer's reasoning") and
every step in words."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, play_by_api, screenshot
from .helpers import BOARD

pytestmark = pytest.mark.e2e


@pytest.fixture
def played(live_server: LiveServer) -> dict[str, Any]:
    created = live_server.post_json("/api/games", {"player_name": "İlknur", "height": 9,
                                                   "width": 13, "seed": 31,
                                                   "difficulty": "moderate"})
    play_by_api(live_server, created["game_id"], created["token"], rounds=2)
    events = live_server.get_json(f"/api/games/{created['game_id']}/events")["events"]
    return {"game_id": created["game_id"], "events": events}


def step_of(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-step"))


def test_replay_keys_on_focused_controls_act_once(page: Any, played: dict[str, Any]) -> None:
    game_id, total = played["game_id"], len(played["events"])
    page.goto(f"/games/{game_id}?step=3")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "3")
    expect(page.locator("#step-total")).to_have_text(str(total))
    expect(page.locator("#slider")).to_have_value("3")

    # The slider's own arrow keys: one step each, not two.
    page.focus("#slider")
    page.keyboard.press("ArrowRight")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "4")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "2")
    page.keyboard.press("End")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total))

    # Space on the focused Play button starts autoplay once (from the start again,
    # since it stood at the end); Space again pauses it.
    page.keyboard.press("Home")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "1")
    page.focus("#play-btn")
    page.keyboard.press("Space")
    expect(page.locator("#play-btn")).to_have_text("Pause")
    page.wait_for_function("Number(document.querySelector('#board').dataset.step) > 1")
    page.keyboard.press("Space")
    expect(page.locator("#play-btn")).to_have_text("▶ Play")
    paused = step_of(page)
    page.wait_for_timeout(1200)
    assert step_of(page) == paused

    # A click on the chart jumps there; the marker and the URL follow.
    box = page.locator("#chart").bounding_box()
    # the last step's x: the plot ends 8 of the chart's 300 units before its right edge
    page.mouse.click(box["x"] + box["width"] * 292 / 300, box["y"] + box["height"] / 2)
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total))
    expect(page.locator("#chart-marker")).to_have_attribute("data-step", str(total))
    assert page.url.endswith(f"step={total}")
    # ... and a reload opens at the same step.
    page.reload()
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total))


def test_replay_shows_the_computers_plan_and_each_step_in_words(
    page: Any, live_server: LiveServer, played: dict[str, Any], tmp_path: Any
) -> None:
    game_id, events = played["game_id"], played["events"]
    plan = next(e for e in events if e["type"] == "move_explained" and e["data"]["stage"] == 1)
    k = plan["seq"]
    page.goto(f"/games/{game_id}?step={k - 1}")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(k - 1))
    expect(page.locator("#ai-box")).to_be_hidden()
    page.keyboard.press("ArrowRight")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(k))
    d = plan["data"]
    expect(page.locator("#step-desc")).to_contain_text(f"Step {k}: Computer's plan: ")
    expect(page.locator("#ai-sentence")).to_contain_text("The computer's plan: ")
    expect(page.locator("#ai-box")).to_be_visible()
    expect(page.locator("#ai-best-point")).to_have_text(str(d["best_point"]))
    expect(page.locator("#ai-best-direction")).to_have_text(
        ", ".join(map(str, d["best_direction"])) or "—")

    # Every step is described in words that match its event.
    words = {
        "game_created": "game on a ",
        "line_placed": "placed a line at",
        "stage_advanced": "",
        "piece_inserted": "Random piece:",
        "move_explained": "'s plan: ",
    }
    for event in events[k:k + 12]:
        page.keyboard.press("ArrowRight")
        expect(page.locator(BOARD)).to_have_attribute("data-step", str(event["seq"]))
        desc = page.locator("#step-desc")
        expect(desc).to_contain_text(f"Step {event['seq']}: ")
        expect(desc).to_contain_text(words.get(event["type"], ""))
        state = live_server.get_json(f"/api/games/{game_id}/replay/{event['seq']}")["state"]
        assert page.locator(f"{BOARD} .slot:not(.empty)").count() == len(state["lines"])
    screenshot(page, tmp_path / "replay-computer-turn.png")

    # The list row tells the game's status and length.
    summary = live_server.get_json(f"/api/games/{game_id}")["summary"]
    page.goto("/games?player=" + "İlknur")
    row = page.locator(f'tr[data-game-id="{game_id}"]')
    expect(row).to_contain_text(summary["status"])
    expect(row).to_contain_text(f"{summary['version']} steps")


def test_replay_steps_past_an_answer_lost_on_the_way(page: Any, played: dict[str, Any]) -> None:
    """A step whose answer is cut short (the connection drops, or a 200 arrives with
    an unreadable body) is asked for once more: autoplay does not stop there."""
    game_id, total = played["game_id"], len(played["events"])
    spoiled: list[str] = []

    def first_answer_cut_short(route: Any) -> None:
        if route.request.url.endswith("/replay/3") and not spoiled:
            spoiled.append(route.request.url)
            route.fulfill(status=200, content_type="application/json", body='{"sta')
        elif route.request.url.endswith("/replay/5") and len(spoiled) == 1:
            spoiled.append(route.request.url)
            route.abort("connectionreset")
        else:
            route.continue_()

    page.route("**/replay/*", first_answer_cut_short)
    page.goto(f"/games/{game_id}?step=1")
    expect(page.locator(BOARD)).to_have_attribute("data-step", "1")
    page.select_option("#speed", "50")
    page.click("#play-btn")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(total), timeout=30_000)
    assert len(spoiled) == 2  # both answers were spoiled, and both steps shown after all
    expect(page.locator("#message")).to_have_text("")
