"""The review of an ended game on its replay page (issue 24) in Chromium: the seats'
summaries with their mistakes as links, the per-turn chart, the "?" marks in the
move list and "Show best" over the board; "on its way" until the analyst has
reviewed the game (the page asks again by itself); nothing while a game is played.

The session's server runs no analyst (the app is TESTING): a test reviews the games
itself with ``review_all(services.store)`` on the server's database.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import pytest
from playwright.sync_api import expect

from service.domain.ai.budget import Stats
from service.domain.ai.compact import Board
from service.domain.ai.stage1 import best_points
from service.domain.review import review_game
from service.projections import catch_up
from service.projections.analyst import Analyst
from service.services import Services
from squares_testing.play import computer_game
from tests.conftest import services_on

from .conftest import LiveServer, play_by_api, screenshot
from .helpers import BOARD

pytestmark = pytest.mark.e2e

REVIEW_READY = '#review[data-state="ready"]'


@pytest.fixture
def services(live_server: LiveServer) -> Iterator[Services]:
    with services_on(live_server.database_url) as services:
        yield services


def review_all(services: Services) -> None:
    _reviewed, waiting = catch_up.review_all(services.store)
    assert not waiting  # no other analyst holds the lease


def giving_line(services: Services, game_id: str) -> tuple[int, int]:
    """The empty slot that gives the opponent the most in its next stage 1 (more than
    the squares already on offer, which every line leaves to the opponent)."""
    state = services.queries.get_state(game_id)
    board = Board.of(state)
    gives = {}
    for slot in board.empty_slots():
        board.draw(slot)
        gives[slot] = best_points(board, Stats())
        board.undo(slot)
    slot = max(gives, key=gives.__getitem__)
    assert gives[slot] > min(gives.values()), "no line gives more than another"
    return board.xy(slot)


def play_with_mistakes(live_server: LiveServer, services: Services) -> str:
    """A game against the easy computer in which the human's first turn squares
    nothing (stage 1 advanced at once) and gives a square away in stage 2; then the
    hints play it to the end. Its id."""
    created = live_server.post_json("/api/games", {
        "player_name": "Ayşe", "height": 11, "width": 17, "seed": 5, "difficulty": "easy"})
    game_id, token = created["game_id"], created["token"]
    path = f"/api/games/{game_id}"
    state = created["state"]
    live_server.post_json(f"{path}/advance", {"expected_version": state["version"]}, token)
    state = live_server.get_json(path)["state"]
    assert state["stage"] == 2
    x, y = giving_line(services, game_id)
    live_server.post_json(f"{path}/lines", {"x": x, "y": y,
                                            "expected_version": state["version"]}, token)
    play_by_api(live_server, game_id, token, rounds=10_000)
    assert live_server.get_json(path)["state"]["over"]
    return game_id


def review_a11y_problems(page: Any) -> list[str]:
    """axe's serious and critical findings in what the review adds to the page."""
    from axe_playwright_python.sync_playwright import Axe

    context = {"include": [["#review"], ["#best-tools"], ["#moves"]]}
    results = Axe().run(page, context=context)
    return [f"{v['id']} ({v['impact']}): {v['help']}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


def overlay_lines(page: Any, cls: str) -> list[tuple[int, int]]:
    return [(int(x), int(y)) for x, y in page.eval_on_selector_all(
        f"{BOARD} g.review-overlay line.{cls}",
        "ls => ls.map(l => [l.dataset.x, l.dataset.y])")]


def test_review_summary_chart_marks_and_show_best(
    page: Any, live_server: LiveServer, services: Services, tmp_path: Any
) -> None:
    game_id = play_with_mistakes(live_server, services)
    review_all(services)
    review = live_server.get_json(f"/api/games/{game_id}/analysis")
    assert review["status"] == "ready"
    turns, seats = review["turns"], review["seats"]
    by_turn = {t["turn"]: t for t in turns}
    assert seats[0]["mistakes"], seats[0]  # the turn above lost points

    page.goto(f"/games/{game_id}")
    page.wait_for_selector(REVIEW_READY)
    expect(page.locator("#review-status")).to_be_hidden()
    assert review_a11y_problems(page) == []

    # The chart: one group per turn, a "?" over each turn that lost points.
    expect(page.locator("#review-chart")).to_be_visible()
    expect(page.locator("#review-chart g.review-turn")).to_have_count(len(turns))
    expect(page.locator("#review-chart g.review-turn.lost .lost-mark")).to_have_count(
        sum(t["lost"] > 0 for t in turns))

    # Each seat's summary and its largest mistakes, as links to their steps.
    names = {1: "Ayşe", 2: "Computer"}
    for seat in seats:
        box = page.locator(f"#review-seat-{seat['seat']}")
        expect(box).to_contain_text(names[seat["seat"]])
        expect(box.locator(".review-accuracy dd.review-value")).to_have_text(f"{seat['accuracy']} %")
        expect(box).to_contain_text(f"{seat['gained']} of {seat['best']}")
        links = box.locator("a.mistake-link")
        expect(links).to_have_count(len(seat["mistakes"]))
        for i, m in enumerate(seat["mistakes"]):
            t = by_turn[m["turn"]]
            text = (f"Round {m['round']}: stage 1 took {t['stage1']['gained']} of "
                    f"{t['stage1']['best']}" if m["stage"] == 1 else
                    f"Round {m['round']}: the stage-2 line gave {t['stage2']['gives']}, "
                    f"a line giving {t['stage2']['least_gives']} was there")
            expect(links.nth(i)).to_have_text(text)
            expect(links.nth(i)).to_have_attribute("href", f"?step={m['start_seq']}")
    # both of turn 1 (the larger first)
    assert sorted((m["turn"], m["stage"]) for m in seats[0]["mistakes"]) == [(1, 1), (1, 2)]

    # The move list: a "?" at the head of each turn that lost points.
    page.wait_for_selector("#moves li.turn")
    for t in turns:
        mark = page.locator(f'#moves li.turn[data-round="{t["round"]}"][data-seat="{t["seat"]}"]'
                            " a.mistake-mark")
        expect(mark).to_have_count(1 if t["lost"] > 0 else 0)
        if t["lost"] > 0:
            expect(mark).to_have_attribute("href", f"?step={t['start_seq']}")
            assert f"Review: lost {t['lost']} point" in (mark.get_attribute("title") or "")

    # A mistake's link goes to the turn's start with "Show best" on.
    first = seats[0]["mistakes"][0]
    page.locator("#review-seat-1 a.mistake-link").first.click()
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(first["start_seq"]))
    expect(page.locator("#show-best-btn")).to_have_attribute("aria-pressed", "true")
    best = by_turn[first["turn"]]
    assert sorted(overlay_lines(page, "best-line")) == sorted(
        map(tuple, best["stage1"]["best_lines"]))
    screenshot(page, tmp_path / "review-show-best.png")

    # "Show best" at another turn's start step: the turn's best lines, dashed, at the
    # places of their slots, and the better stage-2 line; the board itself unchanged.
    turn = next(t for t in turns if t["turn"] > 1 and t["stage1"]["best_lines"])
    page.locator("#show-best-btn").click()
    expect(page.locator("#show-best-btn")).to_have_attribute("aria-pressed", "false")
    expect(page.locator(f"{BOARD} g.review-overlay")).to_have_count(0)
    page.goto(f"/games/{game_id}?step={turn['start_seq']}")
    page.wait_for_selector(REVIEW_READY)
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(turn["start_seq"]))
    drawn = page.locator(f"{BOARD} .slot:not(.empty)").count()
    page.locator("#show-best-btn").click()
    lines = page.locator(f"{BOARD} g.review-overlay line.best-line")
    expect(lines).to_have_count(len(turn["stage1"]["best_lines"]))
    assert sorted(overlay_lines(page, "best-line")) == sorted(
        map(tuple, turn["stage1"]["best_lines"]))
    for i in range(lines.count()):
        line = lines.nth(i)
        x, y = line.get_attribute("data-x"), line.get_attribute("data-y")
        ink = page.locator(f'{BOARD} .slot[data-x="{x}"][data-y="{y}"] .ink')
        for a in ("x1", "y1", "x2", "y2"):
            assert line.get_attribute(a) == ink.get_attribute(a)
    better = [tuple(turn["stage2"]["better"])] if turn["stage2"] else []
    assert overlay_lines(page, "better-line") == better
    assert page.locator(f"{BOARD} .slot:not(.empty)").count() == drawn
    expect(page.locator("#best-note")).to_contain_text(f"Turn {turn['turn']} ")
    expect(page.locator("#review-chart g.review-turn.current")).to_have_attribute(
        "data-turn", str(turn["turn"]))
    # One step later the step still belongs to that turn.
    page.keyboard.press("ArrowRight")
    expect(page.locator(BOARD)).to_have_attribute("data-step", str(turn["start_seq"] + 1))
    expect(page.locator(f"{BOARD} g.review-overlay")).to_have_attribute(
        "data-turn", str(turn["turn"]))
    screenshot(page, tmp_path / "review.png")
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: nothing sticks out
    page.wait_for_timeout(100)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, tmp_path / "review-phone.png")

    # The lists show the accuracies of the reviewed game.
    page.goto("/games?player=Ayşe")
    expect(page.locator(f'tr[data-game-id="{game_id}"] td.accuracy')).to_have_text(
        f"acc. {seats[0]['accuracy']} % / {seats[1]['accuracy']} %")


def test_review_on_its_way_then_shown_and_none_while_playing(
    page: Any, live_server: LiveServer, services: Services
) -> None:
    created = live_server.post_json("/api/games", {
        "player_name": "Bora", "height": 7, "width": 9, "seed": 8, "difficulty": "easy"})
    game_id = created["game_id"]
    play_by_api(live_server, game_id, created["token"], rounds=10_000)

    page.goto(f"/games/{game_id}")
    expect(page.locator("#review-status")).to_have_text("Review: on its way")
    expect(page.locator("#review-body")).to_be_hidden()
    expect(page.locator("#best-tools")).to_be_hidden()

    review_all(services)  # the page asks again every few seconds
    page.wait_for_selector(REVIEW_READY, timeout=15_000)
    turns = live_server.get_json(f"/api/games/{game_id}/analysis")["turns"]
    expect(page.locator("#review-chart g.review-turn")).to_have_count(len(turns))
    expect(page.locator("#best-tools")).to_be_visible()

    # A game being played has no review on its page (and the page does not ask).
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/analysis" in r.url else None)
    playing = live_server.post_json("/api/games", {
        "player_name": "Bora", "height": 7, "width": 9, "seed": 8, "difficulty": "easy"})
    page.goto(f"/games/{playing['game_id']}")
    page.wait_for_selector("#moves a[aria-current]")
    expect(page.locator("#review")).to_have_count(0)
    expect(page.locator("#best-tools")).to_have_count(0)
    assert asked == []


def test_turns_out_of_the_review_budget_say_approximate(
    page: Any, live_server: LiveServer, services: Services
) -> None:
    game_id = computer_game(services, seed=5)
    assert Analyst(services.store, review=partial(review_game, units=40)).catch_up() == 1
    review = live_server.get_json(f"/api/games/{game_id}/analysis")
    approximate = [t for t in review["turns"] if not t["exact"]]
    assert approximate and not review["exact"]

    page.goto(f"/games/{game_id}")
    page.wait_for_selector(REVIEW_READY)
    count = len(approximate)
    expect(page.locator(".review-approximate")).to_have_text(
        f"{count} turn{' is' if count == 1 else 's are'} approximate: their searches stopped "
        "at the review's work budget, so their best is the best found.")
    chart_turns = page.locator("#review-chart g.review-turn.approximate")
    expect(chart_turns).to_have_count(count)
    expect(chart_turns.first.locator("title")).to_contain_text("(approximate)")
