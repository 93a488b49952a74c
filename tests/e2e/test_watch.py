"""Spectating (issue 15, item 5): `/watch/<id>` follows a game live over Server-Sent
Events, `/live` lists the games being played. Driven in Debian's Chromium with the
pages' Content-Security-Policy enforced (so no `wait_for_function`: it needs eval)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import LiveServer, finish_unassisted, play_by_api

pytestmark = pytest.mark.e2e



def new_game(live_server: LiveServer, name: str, seed: int | None) -> dict[str, Any]:
    """A 7 x 9 game against the easy computer: a practice game with `seed`, a ranked
    one (its seed secret until the end) with None."""
    body: dict[str, Any] = {"player_name": name, "height": 7, "width": 9, "difficulty": "easy"}
    if seed is not None:
        body["seed"] = seed
    created: dict[str, Any] = live_server.post_json("/api/games", body)
    return created


def one_action(live_server: LiveServer, game_id: str, token: str) -> dict[str, Any]:
    """One legal human action through the API (a line if there is one, else advance);
    the state afterwards."""
    state = live_server.get_json(f"/api/games/{game_id}")["state"]
    body: dict[str, Any] = {"expected_version": state["version"]}
    lines = state["legal"]["lines"]
    if lines:
        body.update(x=lines[0][0], y=lines[0][1])
        live_server.post_json(f"/api/games/{game_id}/lines", body, token)
    else:
        live_server.post_json(f"/api/games/{game_id}/advance", body, token)
    after: dict[str, Any] = live_server.get_json(f"/api/games/{game_id}")["state"]
    return after


def test_watch_follows_a_game_played_through_the_api(
    watcher: tuple[Any, list[str]], live_server: LiveServer
) -> None:
    page, errors = watcher
    created = new_game(live_server, "Gözde", seed=None)  # ranked: in the high scores
    game_id, token = created["game_id"], created["token"]
    start = created["state"]
    page.goto(f"/watch/{game_id}")
    board = page.locator("#board")
    expect(board).to_have_attribute("data-version", str(start["version"]))
    expect(page.locator("#live-state")).to_contain_text("Live")
    assert page.locator("#board .dots circle").count() == 4 * 5
    expect(page.locator("#status [data-field=name1]")).to_have_text("Gözde")
    # The page holds no token: it never offers to play.
    assert page.locator("#advance-btn, #hint-btn").count() == 0

    state = start
    for _ in range(2):
        state = one_action(live_server, game_id, token)
        expect(board).to_have_attribute("data-version", str(state["version"]))
    expect(board).to_have_attribute("data-stage", str(state["stage"]))
    expect(page.locator("#st-stage")).to_have_text(str(state["stage"]))
    expect(page.locator("#st-score1")).to_have_text(str(state["scores"][0]))
    lines = page.locator("#board .slot:not(.empty)")
    expect(lines).to_have_count(len(state["lines"]))
    # One caption per event after the version the page opened at, the newest first.
    captions = page.locator("#feed li")
    expect(captions).to_have_count(state["version"] - start["version"])
    assert captions.first.get_attribute("data-seq") == str(state["version"])
    assert page.locator("#over").is_hidden()

    finish_unassisted(live_server, game_id, token)  # no hint: it enters the table
    final = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert final["over"]
    expect(board).to_have_attribute("data-over", "true")
    expect(board).to_have_attribute("data-version", str(final["version"]))
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-result")).to_contain_text(
        f"Gözde {final['scores'][0]} · Computer {final['scores'][1]}")
    expect(page.locator("#live-state")).to_have_text("Game over.")
    expect(page.locator("#feed li").first).to_contain_text("High score table")
    # Before it, the secret seed revealed after game over, as the events say.
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    assert [e["type"] for e in events[-3:]] == ["game_over", "seed_revealed",
                                                "high_scores_entered"]
    expect(page.locator("#feed li").nth(1)).to_have_text(
        f"The seed is revealed: {events[-2]['data']['seed']}, the one sealed at the start.")
    expect(page.locator(".replay-title")).not_to_contain_text("practice")
    time.sleep(1.5)  # the finished stream is closed, not reopened every second
    assert page.evaluate("window.__cspViolations") == []
    assert errors == []


def test_watch_opens_a_finished_game_and_refuses_an_unknown_one(
    watcher: tuple[Any, list[str]], live_server: LiveServer
) -> None:
    page, errors = watcher
    created = new_game(live_server, "Okan", seed=5)
    play_by_api(live_server, created["game_id"], created["token"], rounds=10_000)
    page.goto(f"/watch/{created['game_id']}")
    expect(page.locator("#board")).to_have_attribute("data-over", "true")
    expect(page.locator("#over")).to_be_visible()
    assert errors == []
    response = page.goto("/watch/no-such-game")
    assert response is not None and response.status == 404


def test_live_lists_the_active_games_latest_move_first(
    watcher: tuple[Any, list[str]], live_server: LiveServer
) -> None:
    page, errors = watcher
    older = new_game(live_server, "Leyla", seed=21)
    newer = new_game(live_server, "Murat", seed=22)
    time.sleep(0.05)
    one_action(live_server, older["game_id"], older["token"])  # Leyla moved last
    done = new_game(live_server, "Bitti", seed=5)
    play_by_api(live_server, done["game_id"], done["token"], rounds=10_000)

    page.goto("/live")
    expect(page.locator("nav a[aria-current=page]")).to_have_text("Live")
    rows = page.locator("#live-table tbody tr")
    ids = [rows.nth(i).get_attribute("data-game-id") for i in range(rows.count())]
    assert older["game_id"] in ids and newer["game_id"] in ids
    assert ids.index(older["game_id"]) < ids.index(newer["game_id"])
    assert done["game_id"] not in ids  # finished: not live
    row = page.locator(f"#live-table tr[data-game-id=\"{older['game_id']}\"]")
    expect(row).to_contain_text("Leyla")
    link = row.get_by_role("link", name="Watch")
    assert link.get_attribute("href") == f"/watch/{older['game_id']}"
    link.click()
    expect(page).to_have_url(f"{live_server.base_url}/watch/{older['game_id']}")
    expect(page.locator("#board")).to_have_attribute("data-over", "false")
    assert page.evaluate("window.__cspViolations") == []
    assert errors == []
