"""The daily challenge as a new player meets it in Chromium: the home page leads to
today's challenge; a signed-in player's first game of the day is their ranked
attempt, and its end screen says its place in today's ranking; yesterday's seed is
revealed on the page, and its SHA-256 is the commitment shown beside it."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest

from .conftest import LiveServer, browser_context, checked_page
from .test_passkeys import at_localhost, guest_view, signed_in_view, with_authenticator

NAME = "Daily Deniz"


@pytest.fixture
def base(live_server: LiveServer) -> str:
    return at_localhost(live_server.base_url)  # passkeys need a name, not an address


def test_home_leads_to_the_challenge_and_its_end_says_the_rank(browser: Any, base: str) -> None:
    with browser_context(browser, base, "desktop", bypass_csp=False) as context, \
            checked_page(context, base, csp=True) as page:
        with_authenticator(page)
        page.goto("/account")
        guest_view(page)
        page.fill("#claim-name", NAME)
        page.click("#claim-form button[type=submit]")
        page.wait_for_selector("#codes:not([hidden])")
        page.check("#codes-saved")
        page.click("#codes-done")
        signed_in_view(page)

        page.goto("/")
        page.click("#daily-offer a")
        page.wait_for_url("**/daily")
        assert "ranked attempt" in page.locator("#daily-status").inner_text()
        page.click("#daily-play")
        page.wait_for_url("**/play/*")
        game_id = page.url.rsplit("/", 1)[1]
        tokens = page.evaluate("() => JSON.parse(localStorage.getItem('squares.tokens'))")
        resigned = page.request.post(f"/api/games/{game_id}/resign", headers={
            "Authorization": f"Bearer {tokens[game_id]['token']}", "Origin": base})
        assert resigned.status == 200, resigned.text()
        page.reload()
        rank = page.locator("#over-daily")
        rank.wait_for()
        assert re.fullmatch(r"Today's rank: \d+ of \d+", rank.inner_text()), rank.inner_text()

        page.goto("/daily")
        assert NAME in page.locator("#daily").inner_text()
        seed = page.locator("#daily-seed").inner_text()
        shown = page.locator("#daily-seed + span code").inner_text()
        assert hashlib.sha256(seed.encode()).hexdigest() == shown
