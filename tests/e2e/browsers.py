"""Several people's browsers in one test: each `Browser` is its own context (its own
localStorage and its own client address, as separate people would have) with the
pages' Content-Security-Policy enforced, and keeps what went wrong in it; `synced`
waits until a play page shows a version, drawn whole."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .conftest import LiveServer, new_context, watch_page
from .helpers import BOARD, NEWER_AND_DRAWN
from .test_csp import poll


class Browser:
    """One person's browser: a context of its own, the policy enforced, and what went
    wrong in it (page errors, CSP violations, requests leaving the app, and, unless
    `console_errors` is False, console errors)."""

    def __init__(self, browser: Any, live_server: LiveServer, *, console_errors: bool = True,
                 address: str | None = None):
        # `address`: the client address the server sees (the e2e server trusts one
        # proxy's X-Forwarded-For), so that each person counts as one viewer.
        self.context = new_context(browser, live_server.base_url, bypass_csp=False)
        if address:
            # Added on the way, as the proxy adds it: sent by the page itself, the
            # header would need a CORS preflight to the streams server's origin.
            self.context.route("**/*", lambda route: route.continue_(
                headers={**route.request.headers, "x-forwarded-for": address}))
        self.page = self.context.new_page()
        self.problems: list[str] = []
        self.live_requests: list[str] = []  # every request for a live feed
        self.posts: list[str] = []  # every POST the page sent
        self.page.on("request", self._on_request)
        watch_page(self.page, live_server.base_url, self.problems, csp=True,
                   console=("error", "assert") if console_errors else ())

    def _on_request(self, request: Any) -> None:
        if request.method == "POST":
            self.posts.append(request.url)
        elif "/api/games/" in request.url and "/live?" in request.url:
            self.live_requests.append(request.url)

    def token(self, game_id: str) -> str:
        """The seat token this browser keeps for `game_id` (common/store.js)."""
        return str(self.page.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")
                   [game_id]["token"])

    def seqs(self, root: str) -> list[int]:
        raw = self.page.get_attribute(root, "data-seqs") or ""
        return [int(v) for v in raw.split()]

    def assert_clean(self, who: str) -> None:
        violations = self.page.evaluate("window.__cspViolations || []")
        assert violations == [], f"{who}: {violations}"
        assert self.problems == [], f"{who}: {self.problems}"


def synced(page: Any, version: int) -> None:
    """Wait until the play page shows `version`, drawn whole: a turn still animated is
    skipped (`NEWER_AND_DRAWN`; the animation has tests of its own)."""
    poll(page, NEWER_AND_DRAWN, version - 1)
    expect(page.locator(BOARD)).to_have_attribute("data-version", str(version))
