"""Two cosmetic fixes (issue 35, item 9), at 1280 x 800 and 390 x 844 with touch:

- ``/api/docs`` shows the docstrings' code spans (``double`` or `single` backticks)
  as code, never the backticks;
- on the replay page's review, "13 of 13" never covers its "Stage 1" label: every
  fact's label is whole and apart from its value.

Screenshots: ``cosmetic-docs-*`` and ``cosmetic-review-*`` under
``$SQUARES_SCREENSHOTS``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from service.projections.catch_up import review_all
from tests.conftest import services_on

from .conftest import LiveServer, play_by_api, screenshot

pytestmark = pytest.mark.e2e

# Each fact of the review: the label's box, whether its text is cut, and the value's box.
FACTS = """() => [...document.querySelectorAll('#review-seats dl.grid > div')].map((div) => {
  const dt = div.querySelector('dt'), dd = div.querySelector('dd');
  return {label: dt.textContent, value: dd.textContent, cut: dt.scrollWidth > dt.clientWidth + 0.5,
          dt: dt.getBoundingClientRect().toJSON(), dd: dd.getBoundingClientRect().toJSON()};
})"""


@pytest.fixture(scope="module")
def reviewed(live_server: LiveServer) -> Iterator[str]:
    """A finished game on 9 x 13 with its review (the session's server runs no analyst)."""
    game = live_server.post_json("/api/games", {"player_name": "Deniz Kılıç", "height": 9,
                                                "width": 13, "seed": 31, "difficulty": "easy"})
    play_by_api(live_server, game["game_id"], game["token"], rounds=10_000)
    with services_on(live_server.database_url) as services:
        review_all(services.store)
    yield game["game_id"]


def test_api_docs_shows_code_not_backticks(sized_page: Any) -> None:
    page = sized_page
    page.goto("/api/docs")
    body = page.inner_text("body")
    assert "`" not in body
    expect(page.locator("code", has_text="too_many_games").first).to_be_visible()
    screenshot(page, "cosmetic-docs")


def test_review_facts_are_never_covered_by_their_values(sized_page: Any, reviewed: str) -> None:
    page = sized_page
    page.goto(f"/games/{reviewed}")
    page.wait_for_selector('#review[data-state="ready"]')
    facts = page.evaluate(FACTS)
    assert {f["label"].rstrip(" :") for f in facts} >= {"Accuracy", "Stage 1", "Given away", "Luck"}
    for f in facts:
        assert not f["cut"], f
        assert f["dt"]["x"] + f["dt"]["width"] <= f["dd"]["x"] + 0.5 or \
            f["dt"]["y"] + f["dt"]["height"] <= f["dd"]["y"] + 0.5, f
    stage1 = next(f for f in facts if f["label"].startswith("Stage 1"))
    assert " of " in stage1["value"]
    page.locator("#review").scroll_into_view_if_needed()
    screenshot(page, "cosmetic-review")
