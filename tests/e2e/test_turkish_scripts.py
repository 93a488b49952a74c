"""The words the pages' scripts make, in Turkish: a browser whose ``lang`` cookie says
``tr`` gets the ``js`` catalog in the page (common/i18n.js reads it) and sees the turn
prompt, the stage button, the score bar and the replay's captions in Turkish; without
the cookie, the same page stays English. A finished game's end screen and its review
on the replay page are Turkish too. `t` / `nt` themselves (placeholders, the
plural rule, the English fallback) are checked in the page, on the module it loaded.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from service.projections import catch_up
from service.projections.analyst import LEASE_S
from tests.conftest import services_on

from .conftest import LiveServer, browser_context, checked_page, play_by_api
from .helpers import own

pytestmark = pytest.mark.e2e

# The page's own i18n module (the same instance its scripts use: one URL, one module).
I18N = """async () => {
  const { t, nt } = await import("/assets/common/i18n.js");
  return [t("Seat {seat}", { seat: 2 }), nt("{n} line", "{n} lines", 1), nt("{n} line", "{n} lines", 3),
          t("Not in any catalog: {x}", { x: 7 }), t("Seat {seat}"), nt("{n} point", "{n} points", 0)];
}"""


# Every form of the computer's reasons (service/domain/ai: player.py, stage2.py).
REASONS = [
    "no box can be formed with one line",
    "exhaustive search of 120 paths from 4 starts; of the best, the one leaving the least "
    "to give away (search budget reached; hard's random walks added)",
    "50 random walks from each of 3 starts",
    "safe line: no box is left with three sides (7 safe lines)",
    "no safe line: gives away the least, 2 square(s) (search budget reached: some lines "
    "judged roughly); opponent expects 1.5 after 20 samples of the stage-3 pieces",
]
REASONS_SAID = ("async () => (await import('/assets/common/words.js')).reasonWords && "
                + json.dumps(REASONS)
                + ".map((await import('/assets/common/words.js')).reasonWords)")


@pytest.fixture
def turkish(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    """A checked page of a browser whose switcher chose Turkish (the ``lang`` cookie)."""
    with browser_context(browser, live_server.base_url) as context:
        context.add_cookies([{"name": "lang", "value": "tr", "url": live_server.base_url}])
        with checked_page(context, live_server.base_url) as page:
            yield page


@pytest.fixture(scope="module")
def game(live_server: LiveServer) -> dict[str, Any]:
    """Against the computer on 7 x 9 (a practice game: seed 14), a round played: the
    player's turn again."""
    made = live_server.post_json("/api/games", {"player_name": "Ayla", "seed": 14,
                                                "height": 7, "width": 9})
    play_by_api(live_server, made["game_id"], made["token"], rounds=1)
    return dict(made)


def test_the_play_pages_script_words_are_turkish(turkish: Any, game: dict[str, Any]) -> None:
    page = turkish
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    expect(page.locator("#board[data-version]")).to_have_count(1)
    expect(page.locator("html")).to_have_attribute("lang", "tr")
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^[123]\. aşama — "))
    expect(page.locator("#advance-btn")).to_have_text(re.compile(r"^(Sonraki aşama|Sırayı bitir) ⏎$"))
    expect(page.locator('#scorebar [data-bar="turn"]')).to_have_text(re.compile(r"^Sıra sende — [123]\. aşama: "))
    expect(page.locator('#scorebar [data-bar="stage"]')).to_have_text(re.compile(r"^\d+\. tur$"))
    expect(page.locator("#status .tally-score dd")).to_contain_text("Sen ")
    expect(page.locator("#last-title")).to_have_text("Son sıra")
    expect(page).to_have_title(re.compile(r"^Squares — \d+\. tur, [^,]*, [123]\. aşama$"))
    # t / nt: placeholders filled, Turkish's plural rule, the English msgid as the fallback
    assert page.evaluate(I18N) == ["Oyuncu 2", "1 çizgi", "3 çizgi", "Not in any catalog: 7",
                                   "Oyuncu {seat}", "0 puan"]


def test_the_replay_captions_are_turkish(turkish: Any, game: dict[str, Any]) -> None:
    page = turkish
    page.goto(f"/games/{game['game_id']}?step=1")
    # a chosen seed: a practice game; the seed's sentence after the field's
    expect(page.locator("#step-desc")).to_have_text(
        re.compile(r"^1\. adım: 7 × 9 oyun alanında yeni bir alıştırma oyunu; \d+ rastgele çizgi önceden "
                   r"çizili\. Tohumu 14: aynı tohum aynı oyunu yeniden oynatır\.$"))
    expect(page.locator("#moves h3").first).to_have_text("1. tur")
    expect(page.locator("#moves .stage-name").first).to_have_text("1. aşama")


def test_without_a_choice_the_same_page_stays_english(page: Any, game: dict[str, Any]) -> None:
    own(page, game)
    page.goto(f"/play/{game['game_id']}")
    expect(page.locator("#board[data-version]")).to_have_count(1)
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^Stage [123] — "))
    expect(page.locator('#scorebar [data-bar="turn"]')).to_have_text(re.compile(r"^Your turn — stage [123]: "))
    assert page.evaluate(I18N) == ["Seat 2", "1 line", "3 lines", "Not in any catalog: 7",
                                   "Seat {seat}", "0 points"]
    assert page.evaluate(REASONS_SAID) == REASONS  # English: the computer's own words


@pytest.fixture(scope="module")
def finished(live_server: LiveServer) -> dict[str, Any]:
    """Against the easy computer on 7 x 9, played to its end and reviewed (the
    session's server runs no analyst: the test reviews it on the server's database)."""
    made = live_server.post_json("/api/games", {"player_name": "Ayla", "height": 7, "width": 9,
                                                "difficulty": "easy"})
    play_by_api(live_server, made["game_id"], made["token"], rounds=10_000)
    with services_on(live_server.database_url) as services:
        # a review of another test may still hold the analyst's lease (it lapses by
        # itself when a release met a busy database): wait it out, no longer
        deadline = time.monotonic() + 2 * LEASE_S
        while catch_up.review_all(services.store)[1] and time.monotonic() < deadline:
            time.sleep(1)
        assert not catch_up.review_all(services.store)[1]
    return dict(made)


def test_the_end_screen_and_the_review_are_turkish(turkish: Any, finished: dict[str, Any]) -> None:
    page = turkish
    own(page, finished)
    page.goto(f"/play/{finished['game_id']}")
    expect(page.locator("#over")).to_be_visible()
    expect(page.locator("#over-title")).to_have_text(re.compile(r"^(Kazandın!|Bilgisayar kazandı|Berabere)$"))
    expect(page.locator("#over-result")).to_have_text(re.compile(r"^Sen \d+ · Bilgisayar \d+$"))
    expect(page.locator("#over-caption")).to_have_text("En yüksek puanlar — 7 × 9, seviye: kolay")
    expect(page.locator("#prompt")).to_have_text("Oyun bitti. Oyun kaydını izle ya da yeni bir oyun başlat.")
    # the computer's reasoning, which its events keep in English, said in Turkish
    said = page.evaluate(REASONS_SAID)
    assert len(said) == len(REASONS) and all(re.search(r"başlangı|kare|çizgi", s) for s in said)
    assert not any(re.search(r"random walks|safe line|no box|exhaustive|budget", s) for s in said)

    page.goto(f"/games/{finished['game_id']}")
    expect(page.locator('#review[data-state="ready"]')).to_have_count(1)
    expect(page.locator("#review-seat-1 dfn")).to_have_text(["İsabet", "1. aşama", "Rakibe verilen", "Şans"])
    expect(page.locator("#review-seat-1 .review-help").first).to_have_text(
        "Yalnızca 1. aşama: ulaşılabilen puanlardan alınanların oranı.")
