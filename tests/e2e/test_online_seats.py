"""The seats of an online game as each page shows them (issue 26, item 5): the friend
is not drawn as the computer. Ann's page says "you" on seat 1 and "Bob" on seat 2,
Bob's says "you" on seat 2, a spectator sees both names, and before Bob joins the
open seat is "Waiting for a friend" (no "(C)", no "Seat 2.Score"). Nothing in the
status panel of an online game says "Computer". At a desktop size and on a phone
with touch; screenshots go to ``$SQUARES_SCREENSHOTS`` (default
``build/screenshots``) as ``online-<who>-<width>x<height>.png``.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SIZES, LiveServer, browser_context, screenshot, watch_page
from .helpers import own

pytestmark = pytest.mark.e2e



class Sized:
    """A browser context of one size (touch on the phone) and its pages' errors."""

    def __init__(self, context: Any, base_url: str):
        self.context, self.base_url = context, base_url
        self.errors: list[str] = []

    def page(self, game: dict[str, Any] | None = None, seat: int = 1) -> Any:
        """A watched page; holding `game`'s token as `seat` when given."""
        pg = watch_page(self.context.new_page(), self.base_url, self.errors)
        if game is not None:
            own(pg, game, seat)
        return pg


def status_clean(page: Any) -> None:
    status = page.locator("#status")
    expect(status).not_to_contain_text("Computer")
    expect(status).not_to_contain_text("(C)")
    expect(status).not_to_contain_text("(P)")
    expect(status).not_to_contain_text("Seat 2")
    expect(status).not_to_contain_text(".Score")


def test_online_seats_are_named_by_who_sees_them(browser: Any, live_server: LiveServer) -> None:
    created = live_server.post_json("/api/games", {"player_name": "Ann", "mode": "online",
                                                   "height": 9, "width": 13, "seed": 5})
    game_id = created["game_id"]
    with contextlib.ExitStack() as stack:
        sized = {size: Sized(stack.enter_context(browser_context(
            browser, live_server.base_url, size)), live_server.base_url) for size in sorted(SIZES)}
        # Before Bob joins: Ann's page and a spectator's.
        for ctx in sized.values():
            ann = ctx.page(created, seat=1)
            ann.goto(f"/play/{game_id}")
            expect(ann.locator("#invite")).to_be_visible()
            expect(ann.locator("#status [data-field=name1]")).to_have_text("Ann")
            expect(ann.locator("#status .who-1")).to_contain_text("(you)")
            expect(ann.locator("#status [data-field=name2]")).to_have_text("Waiting for a friend")
            expect(ann.locator("#st-score-label1")).to_have_text("You")
            status_clean(ann)
            screenshot(ann, "online-ann-waiting")
            ann.close()

            watcher = ctx.page()
            watcher.goto(f"/watch/{game_id}")
            expect(watcher.locator("#watch-root[data-version]")).to_have_count(1)
            expect(watcher.locator("#status [data-field=name2]")).to_have_text("Waiting for a friend")
            expect(watcher.locator("#status")).not_to_contain_text("you")
            status_clean(watcher)
            expect(watcher.locator("#st-score-label1")).to_have_text("Ann")
            screenshot(watcher, "online-watch-waiting")
            watcher.close()

        code = created["invite"]["code"]
        claimed = live_server.post_json(f"/api/games/{game_id}/claim", {"code": code, "name": "Bob"})
        assert claimed["seat"] == 2
        bob_seat = {"game_id": game_id, "token": claimed["token"]}

        for ctx in sized.values():
            ann = ctx.page(created, seat=1)
            ann.goto(f"/play/{game_id}")
            expect(ann.locator("#status [data-field=name2]")).to_have_text("Bob")
            expect(ann.locator("#status .who-1")).to_contain_text("(you)")
            expect(ann.locator("#status .who-2")).to_have_text("Bob")
            expect(ann.locator("#st-score-label1")).to_have_text("You")
            expect(ann.locator("#st-score-label2")).to_have_text("Bob")
            status_clean(ann)
            screenshot(ann, "online-ann")

            bob = ctx.page(bob_seat, seat=2)
            bob.goto(f"/play/{game_id}")
            expect(bob.locator("#status [data-field=name2]")).to_have_text("Bob")
            expect(bob.locator("#status .who-2")).to_contain_text("(you)")
            expect(bob.locator("#status .who-1")).to_have_text("Ann")
            expect(bob.locator("#st-score-label2")).to_have_text("You")
            expect(bob.locator("#st-score-label1")).to_have_text("Ann")
            status_clean(bob)
            screenshot(bob, "online-bob")

            watcher = ctx.page()
            watcher.goto(f"/watch/{game_id}")
            expect(watcher.locator("#status [data-field=name2]")).to_have_text("Bob")
            expect(watcher.locator("#st-score-label2")).to_have_text("Bob")
            expect(watcher.locator("#status")).not_to_contain_text(re.compile(r"\byou\b", re.I))
            status_clean(watcher)
            screenshot(watcher, "online-watch")
            for pg in (ann, bob, watcher):
                pg.close()
            assert ctx.errors == []
