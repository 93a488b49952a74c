"""The site's own error pages in Chromium (issue 26, "error pages"), at a desktop
size and on a phone with touch: an unknown game under ``/play``, ``/games``,
``/watch`` and an unknown path answer 404 with a page of the site (its header and
navigation, the title, the links back), with the page's Content-Security-Policy
enforced and without a single violation, no serious accessibility problem, nothing
wider than the phone's screen, and the same page with JavaScript switched off.

Screenshots of the 404 pages go to ``$SQUARES_SCREENSHOTS`` (default
``build/screenshots``) as ``error-<page>-<width>x<height>.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import (
    SIZES,
    LiveServer,
    axe_violations,
    browser_context,
    checked_page,
    screenshot,
)

pytestmark = pytest.mark.e2e

UNKNOWN = "0123456789abcdef0123456789abcdef"
PAGES = [  # (name, path, title)
    ("play", f"/play/{UNKNOWN}", "No such game"),
    ("replay", f"/games/{UNKNOWN}", "No such game"),
    ("watch", f"/watch/{UNKNOWN}", "No such game"),
    ("path", "/no/such/path", "Page not found"),
]


@pytest.fixture(params=sorted(SIZES), scope="module")
def sized(request: Any, browser: Any, live_server: LiveServer) -> Iterator[tuple[str, Any]]:
    """The conftest's contexts of each size, with the CSP enforced (``bypass_csp=False``)."""
    with browser_context(browser, live_server.base_url, request.param,
                         bypass_csp=False) as context:
        yield request.param, context


@pytest.fixture
def page(sized: tuple[str, Any], live_server: LiveServer) -> Iterator[Any]:
    """A checked page of the sized context that records CSP violations."""
    with checked_page(sized[1], live_server.base_url, csp=True) as pg:
        yield pg


def assert_error_page(page: Any, title: str) -> None:
    expect(page.locator("header.top nav")).to_be_visible()
    expect(page.locator("header.top nav a")).to_have_count(5)
    expect(page.locator("main h1")).to_have_text(title)
    expect(page).to_have_title(f"Squares — {title.lower()}")
    sentence = page.locator("main .error-sentence").inner_text().strip()
    assert sentence[:1].isupper() and sentence.endswith("."), sentence
    back = page.locator("main .error-links a")
    expect(back).to_have_text(["Play", "Replays"])
    assert [back.nth(i).get_attribute("href") for i in range(2)] == ["/", "/games"]


@pytest.mark.parametrize(("name", "path", "title"), PAGES)
def test_a_404_is_the_sites_own_page(page: Any, sized: tuple[str, Any], name: str,
                                     path: str, title: str) -> None:
    response = page.goto(path)
    assert response is not None and response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert_error_page(page, title)
    # the stylesheets are applied (the CSP lets them in): the links are tap targets
    link = page.locator("main .error-links a").first.bounding_box()
    assert link is not None and link["height"] >= 40, link
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("window.__cspViolations") == []
    assert axe_violations(page) == []
    screenshot(page, f"error-{name}")


def test_an_unknown_game_with_a_long_id_fits_the_phone(page: Any,
                                                        sized: tuple[str, Any]) -> None:
    response = page.goto("/play/" + "x" * 64)
    assert response is not None and response.status == 404
    assert_error_page(page, "No such game")
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_page_works_without_javascript(browser: Any, live_server: LiveServer) -> None:
    with browser_context(browser, live_server.base_url, "phone",
                         java_script_enabled=False) as context:
        page = context.new_page()
        response = page.goto(f"/watch/{UNKNOWN}")
        assert response is not None and response.status == 404
        assert_error_page(page, "No such game")
        page.locator("main .error-links a", has_text="Replays").click()
        page.wait_for_url("**/games")
        expect(page.locator("main h1")).to_have_text("Replays")
