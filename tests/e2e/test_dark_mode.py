"""Dark mode (issue 35, item 7), at 1280 x 800 and 390 x 844 with touch: the pages
follow the system's ``prefers-color-scheme`` until the header's toggle makes a choice,
which is remembered; in both schemes axe-core finds no colour-contrast violation (of
any impact) and nothing serious or critical, on every page and in the states that
bring colours of their own (messages, the end of a game, the invite, the join page's
refusal, the review with "Show best", the high score row of one's own game, an error
page, /api/docs, the zoomed board with its score bar).

Screenshots: ``theme-<light|dark>-<page>-<width>x<height>.png``.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from service.projections.catch_up import review_all
from tests.conftest import services_on

from .conftest import (
    BAD_IMPACTS,
    LiveServer,
    axe_run,
    finish_unassisted,
    play_by_api,
    screenshot,
)
from .helpers import BOARD, slot
from .test_phone_zoom import zoom_in

pytestmark = pytest.mark.e2e

TOGGLE = "[data-pref=theme]:visible"


@pytest.fixture(scope="module")
def games(live_server: LiveServer) -> dict[str, Any]:
    send = live_server.post_json
    mid = send("/api/games", {"player_name": "Selin", "seed": 14, "difficulty": "moderate"})
    play_by_api(live_server, mid["game_id"], mid["token"], rounds=1)  # assisted: its tag
    done = send("/api/games", {"player_name": "Bora", "height": 7, "width": 9,
                               "difficulty": "easy"})  # ranked, no hint: in the high scores
    finish_unassisted(live_server, done["game_id"], done["token"])
    online = send("/api/games", {"player_name": "Nil", "mode": "online", "height": 7,
                                 "width": 9, "seed": 3})
    invited = send("/api/games", {"player_name": "Oya", "mode": "online", "height": 7,
                                  "width": 9, "seed": 3})
    used = send("/api/games", {"player_name": "Ece", "mode": "online", "height": 7,
                               "width": 9, "seed": 3})
    send(f"/api/games/{used['game_id']}/claim", {"code": used["invite"]["code"], "name": "Can"})
    with services_on(live_server.database_url) as services:
        review_all(services.store)
    return {"mid": mid, "done": done, "online": online, "invited": invited, "used": used}


def contrast_problems(page: Any, name: str) -> list[str]:
    """axe's colour-contrast findings of any impact, and every serious or critical one."""
    found = axe_run(page)
    return [f"{name}: {v['id']} ({v['impact']}): "
            + "; ".join(f"{', '.join(n['target'])} {n.get('failureSummary', '')[:160]}"
                        for n in v["nodes"][:4])
            for v in found if v["id"] == "color-contrast" or v["impact"] in BAD_IMPACTS]


def hold(page: Any, games: dict[str, Any]) -> None:
    page.goto("/how-to-play")
    held = {games[k]["game_id"]: {"token": games[k]["token"], "at": n, "seat": 1}
            for n, k in enumerate(("mid", "done", "online"))}
    online = games["online"]
    held[online["game_id"]]["invite"] = {"url": online["invite"]["url"],
                                         "expires_at": online["invite"]["expires_at"]}
    page.evaluate("t => localStorage.setItem('squares.tokens', JSON.stringify(t))", held)


def test_every_page_has_enough_contrast_in_both_schemes(
    sized: tuple[str, Any], sized_page: Any, live_server: LiveServer, games: dict[str, Any],
) -> None:
    """Each state is checked in both schemes, the system's switched in between (the
    page follows it at once: no colour transitions); a page loads in the scheme the
    system has then, light and dark in turn."""
    size, page = sized[0], sized_page
    schemes = ["light", "dark"]  # the system's scheme now first
    # Reduced motion: the page's every animation (scores, list rows, hints) is off,
    # so axe reads each colour as it stays, with no wait for an animation to end.
    page.emulate_media(color_scheme=schemes[0], reduced_motion="reduce")
    hold(page, games)
    g = {k: v["game_id"] for k, v in games.items()}
    problems: list[str] = []

    def check(name: str, path: str | None, ready: str) -> None:
        if path is not None:
            page.goto(path)
        page.wait_for_selector(ready, state="attached")
        for scheme in schemes:
            page.emulate_media(color_scheme=scheme)  # the first: as it is already
            expect(page.locator("html")).to_have_attribute("data-theme", scheme)
            problems.extend(contrast_problems(page, f"{name} ({scheme})"))
            screenshot(page, f"theme-{scheme}-{name}")
        schemes.reverse()

    check("start", "/", "#resume:not([hidden])")
    check("how-to-play", "/how-to-play", "svg.example")
    # The game in play, with an error message (a line that closes no square in stage
    # 1), then a hint's message.
    page.goto(f"/play/{g['mid']}")
    page.wait_for_selector(f"{BOARD}[data-version]")
    state = live_server.get_json(f"/api/games/{g['mid']}")["state"]
    legal = {tuple(p) for p in state["legal"]["lines"]}
    drawn = {(line["x"], line["y"]) for line in state["lines"]}
    x, y = next((x, y) for y in range(state["height"]) for x in range((y + 1) % 2, state["width"], 2)
                if (x, y) not in drawn and (x, y) not in legal)
    slot(page, x, y).dispatch_event("click")
    expect(page.locator("#message.error")).to_have_count(1)
    check("play-error", None, "#message.error")
    page.click("#hint-btn")
    check("play-hint", None, "#message[data-hint]")
    page.locator("#ai-reasoning summary").click()
    check("play-reasoning", None, "#ai-reasoning[open]")
    if size == "phone":
        zoom_in(page)
        check("play-zoomed", None, "#scorebar:not([hidden])")
    check("play-over", f"/play/{g['done']}", "#over-table tbody[data-loaded]")
    check("play-invite", f"/play/{g['online']}", "#invite:not([hidden])")
    check("join", f"/join/{g['invited']}#code={games['invited']['invite']['code']}",
          "#join-form:not([hidden])")
    page.goto("/how-to-play")
    check("join-used", f"/join/{g['used']}#code={games['used']['invite']['code']}",
          "#join-error:not([hidden])")
    check("games", "/games", "#games-table")
    page.goto(f"/games/{g['done']}")
    page.wait_for_selector('#review[data-state="ready"]')
    page.click("#show-best-btn")
    check("replay", None, '#show-best-btn[aria-pressed="true"]')
    check("live", "/live", "#live-root")
    check("watch", f"/watch/{g['mid']}", "#watch-root[data-version]")
    check("highscores", f"/highscores?game={g['done']}", "#highscores-table tr.mine")
    check("not-found", "/play/" + "0" * 32, ".error-page")
    check("api-docs", "/api/docs", ".op")
    assert problems == [], "\n".join(problems)


def test_the_toggle_overrides_the_system_and_is_remembered(sized_page: Any) -> None:
    page = sized_page
    page.emulate_media(color_scheme="light")
    page.goto("/how-to-play")
    page.evaluate("localStorage.removeItem('squares.theme')")
    page.reload()
    html, toggle = page.locator("html"), page.locator(TOGGLE)
    # In the header at a desktop size, in the footer on a phone (one shown).
    where = "footer" if page.viewport_size["width"] < 600 else "header"
    expect(page.locator(f"{where} [data-pref=theme]")).to_be_visible()
    expect(toggle).to_have_count(1)
    expect(html).to_have_attribute("data-theme", "light")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    # No choice yet: the page follows the system as it changes.
    page.emulate_media(color_scheme="dark")
    expect(html).to_have_attribute("data-theme", "dark")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.emulate_media(color_scheme="light")
    expect(html).to_have_attribute("data-theme", "light")
    # The toggle: dark on a light system, remembered on the next page and visit.
    toggle.click()
    expect(html).to_have_attribute("data-theme", "dark")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("localStorage.getItem('squares.theme')") == "dark"
    page.goto("/live")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.emulate_media(color_scheme="dark")
    page.locator(TOGGLE).click()  # light on a dark system
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.locator(TOGGLE)).to_have_attribute("aria-pressed", "false")
    page.goto("/api/docs")  # the API page follows the choice too
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.evaluate("localStorage.removeItem('squares.theme')")
