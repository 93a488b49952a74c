"""The play page of an online game applies each event once across a reconnect and a
gap: its live feed drops, resumes with Last-Event-ID past some events, and the page
reads those from ``GET /api/games/<id>/events`` while the moves are made elsewhere;
at the end it shows what the server holds. Driven in Debian's Chromium with the
pages' Content-Security-Policy enforced, so every wait goes through `expect` or
`poll`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from squares_testing.play import play_hints

from .browsers import Browser, synced
from .conftest import LiveServer, screenshot
from .helpers import BOARD

pytestmark = pytest.mark.e2e

SEED = 4  # a practice game on 7 x 9 (the same game every run): Bob (seat 2) moves first


def test_the_play_page_applies_each_event_once_across_a_reconnect_and_a_gap(
    browser: Any, live_server: LiveServer, tmp_path: Path
) -> None:
    """The live feed of the play page drops, resumes with Last-Event-ID and skips some
    events (a resume point past them); moves made elsewhere (another tab holding the
    same seat, the opponent) still reach the page once each, in order, and the page
    shows the same state as the server. The page holds the seat drawn to move first
    (Bob's, in this practice game)."""
    created = live_server.post_json("/api/games", {"player_name": "Ann", "mode": "online",
                                                   "height": 7, "width": 9, "seed": SEED,
                                                   "hints": True})
    game_id = created["game_id"]
    code = created["invite"]["url"].split("#code=")[1]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim", {"code": code, "name": "Bob"})
    tokens = {1: created["token"], 2: claimed["token"]}
    opened = claimed["state"]["version"]
    first = claimed["state"]["first_seat"]
    assert claimed["state"]["turn"] == first
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    person = Browser(browser, live_server)
    try:
        page = person.page
        page.goto("/how-to-play")
        page.evaluate("e => localStorage.setItem('squares.tokens', JSON.stringify(e))",
                      {game_id: {"token": tokens[first], "at": 1, "seat": first}})
        streams: list[str] = []

        def live(route: Any) -> None:
            streams.append(route.request.url)
            if len(streams) > 1:
                route.continue_()
                return
            # The first stream: the last event again (the page has it), then an id
            # with no event, which moves the browser's Last-Event-ID past the next
            # three events (the server's resumed stream leaves them out), then the
            # end of the stream, so EventSource reconnects. (Playwright does not show
            # the Last-Event-ID header Chromium adds; the gap read below proves it.)
            last = events[-1]
            body = (f"retry: 200\n\nid: {last['seq']}\nevent: {last['type']}\n"
                    f"data: {json.dumps(last)}\n\nid: {opened + 3}\n\n")
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"}, body=body)

        page.route(re.compile(r"/api/games/[0-9a-f]+/live\?"), live)
        page.goto(f"/play/{game_id}")
        synced(page, opened)
        expect(page.locator("#prompt")).to_contain_text("Your turn")
        expect(page.locator("#practice-note")).to_have_text(f"Practice game · seed {SEED}")
        expect(page.locator("#hints-note")).to_have_text("Hints on")

        # Moves made elsewhere to the end: Ann's from another tab, Bob's.
        gap_reads: list[str] = []
        page.on("request", lambda r: gap_reads.append(r.url) if "/events?after=" in r.url else None)
        state = play_hints(live_server.send, game_id, tokens, reread=True, max_steps=60)
        assert state["over"] and state["version"] > opened + 3
        synced(page, state["version"])
        # The made-up stream and the real one, resumed; none after game over.
        page.wait_for_timeout(1200)
        assert len(streams) == 2, streams
        # Events 3..5 never came over the feed: the page read them from /events.
        assert gap_reads and gap_reads[0].endswith(f"/events?after={opened}"), gap_reads
        assert person.seqs("#play-root") == list(range(1, state["version"] + 1))
        labels = ("You", "Bob") if first == 1 else ("Ann", "You")
        expect(page.locator("#over-result")).to_contain_text(
            f"{labels[0]} {state['scores'][0]} · {labels[1]} {state['scores'][1]}")
        expect(page.locator(f"{BOARD} .slot:not(.empty)")).to_have_count(len(state["lines"]))
        expect(page.locator(f"{BOARD} .box.own-P")).to_have_count(state["squares"][0])
        expect(page.locator(f"{BOARD} .box.own-C")).to_have_count(state["squares"][1])
        screenshot(page, tmp_path / "online-resumed.png")
        person.assert_clean("A")
    finally:
        person.context.close()
