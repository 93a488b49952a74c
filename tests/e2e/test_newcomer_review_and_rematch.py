"""What still hurt a newcomer on the review and rematch screens, at 1280 x 800 and
390 x 844 with touch (light and dark where it is about looks):

5. each figure of the review has its meaning under it, and the accuracy (stage 1's)
   never reads 100 % beside a stage-1 mistake;
6. the player who asks for a rematch reads that the friend was asked on their page,
   and that the link is a second way.

Screenshots: ``newcomer-<what>-<width>x<height>.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from service.projections import catch_up
from tests.conftest import services_on

from .conftest import SIZES, LiveServer, screenshot
from .helpers import BOARD, finished_online_game, own
from .newcomer_pages import SCHEMES, in_viewport, open_game, opened
from .test_review_page import play_with_mistakes

pytestmark = pytest.mark.e2e


@pytest.fixture(params=sorted(SIZES))
def size(request: Any) -> str:
    return str(request.param)


# -- 5. the review's figures -----------------------------------------------------------------


@pytest.fixture(scope="module")
def reviewed(live_server: LiveServer) -> str:
    """A game whose human lost points in stage 1 and gave points away in stage 2,
    reviewed."""
    with services_on(live_server.database_url) as services:
        game_id = play_with_mistakes(live_server, services)
        _done, waiting = catch_up.review_all(services.store)
        assert not waiting
    return game_id


@pytest.mark.parametrize("scheme", SCHEMES)
def test_each_review_figure_says_what_it_means_and_accuracy_agrees_with_the_mistakes(
    browser: Any, live_server: LiveServer, reviewed: str, size: str, scheme: str
) -> None:
    review = live_server.get_json(f"/api/games/{reviewed}/analysis")
    assert review["status"] == "ready"
    with opened(browser, live_server, size, scheme) as page:
        page.goto(f"/games/{reviewed}")
        page.wait_for_selector('#review[data-state="ready"]')
        helps = {"Accuracy": "Stage 1 only", "Stage 1": "Points taken in stage 1",
                 "Given away": "Stage 2", "Luck": "random lines"}
        for seat in review["seats"]:
            box = page.locator(f"#review-seat-{seat['seat']}")
            for term, words in helps.items():
                fact = box.locator("div.review-fact", has=page.locator("dfn", has_text=term))
                value, help_ = fact.locator("dd.review-value"), fact.locator("dd.review-help")
                expect(help_).to_be_visible()
                expect(help_).to_contain_text(words)
                expect(value).to_have_accessible_description(help_.text_content() or "")
                v, h = value.bounding_box(), help_.bounding_box()
                assert h["y"] >= v["y"] + v["height"] - 0.5, (term, v, h)  # just under its value
                assert h["y"] - (v["y"] + v["height"]) < 24, (term, v, h)
                # read as an explanation: plainer than its value
                assert help_.evaluate("n => getComputedStyle(n).fontWeight") == "400"
                assert value.evaluate("n => getComputedStyle(n).fontWeight") == "700"
            accuracy = box.locator(".review-accuracy dd.review-value")
            expect(accuracy).to_have_text(f"{seat['accuracy']} %")
            stage1_lost = any(m["stage"] == 1 for m in seat["mistakes"])
            if stage1_lost:
                assert seat["accuracy"] < 100, seat
            if seat["mistakes"]:
                expect(box.locator(".review-mistakes-help")).to_contain_text(
                    "one in stage 1 lowers the accuracy, one in stage 2 counts in Given away")
        human = review["seats"][0]
        assert {m["stage"] for m in human["mistakes"]} == {1, 2} and human["accuracy"] < 100
        assert axe_problems(page) == []
        page.locator("#review").scroll_into_view_if_needed()
        screenshot(page, f"newcomer-review-{scheme}")


def axe_problems(page: Any) -> list[str]:
    """axe's serious and critical findings in the review (contrast included)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, context={"include": [["#review"]]})
    return [f"{v['id']} ({v['impact']}): {v['help']}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


# -- 6. the rematch --------------------------------------------------------------------------


def test_the_rematch_asker_reads_that_the_friend_was_asked_on_their_page(
    browser: Any, live_server: LiveServer, size: str
) -> None:
    old, tokens = finished_online_game(live_server)
    with opened(browser, live_server, size) as ann:
        open_game(ann, {"game_id": old, "token": tokens[1]}, seat=1)
        expect(ann.locator(BOARD)).to_have_attribute("data-over", "true")
        ann.locator("#rematch-btn").click()
        expect(ann).not_to_have_url(re.compile(old))
        words = ("Bob has been asked on their page: the end of your last game now offers them "
                 "“Accept the rematch”.")
        for again in (False, True):  # and after a reload
            if again:
                ann.reload()
                ann.wait_for_selector(f"{BOARD}[data-version]")
            expect(ann.locator("#invite-title")).to_have_text("Rematch asked")
            expect(ann.locator("#invite-rematch")).to_have_text(words)
            expect(ann.locator("#invite-label")).to_have_text("You can also send this link:")
            expect(ann.locator("#invite-url")).to_have_value(re.compile(r"/join/.+#code="))
            expect(ann.locator("#prompt")).to_have_text(
                "Bob can accept the rematch on their page, or open the link: the game starts when they join.")
            ann.locator("#invite").scroll_into_view_if_needed()
            in_viewport(ann, "#invite-rematch")
        screenshot(ann, "newcomer-rematch")

    # A new online game (no rematch) keeps the plain invite.
    with opened(browser, live_server, size) as page:
        fresh = live_server.post_json("/api/games", {"player_name": "Cem", "mode": "online",
                                                     "height": 7, "width": 9})
        own(page, {"game_id": fresh["game_id"], "token": fresh["token"]}, seat=1)
        page.evaluate("""([id, url, at]) => {
          const map = JSON.parse(localStorage.getItem('squares.tokens'));
          map[id].invite = {url, expires_at: at};
          localStorage.setItem('squares.tokens', JSON.stringify(map));
        }""", [fresh["game_id"], fresh["invite"]["url"], fresh["invite"]["expires_at"]])
        page.goto(f"/play/{fresh['game_id']}")
        expect(page.locator("#invite-title")).to_have_text("Invite a friend")
        expect(page.locator("#invite-rematch")).to_be_hidden()
        expect(page.locator("#invite-label")).to_have_text("Send your friend this link:")
