"""A move whose answer is lost (the server restarting behind a proxy: 502, 503, 504,
or no answer at all) is sent again by the play page with the same
``expected_version``: it lands exactly once, and the player sees no error."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import LiveServer
from .helpers import start_game, version, wait_for_new_version

pytestmark = pytest.mark.e2e

UNAVAILABLE = json.dumps({"error": {"code": "unavailable", "message": "restarting",
                                    "details": {}}})


def advances(live_server: LiveServer, game_id: str) -> int:
    events = live_server.get_json(f"/api/games/{game_id}/events?limit=1000")["events"]
    return sum(1 for e in events if e["type"] == "stage_advanced")


def _first_advance(page: Any, answer: Any) -> list[str]:
    """Answer the page's first POST …/advance with `answer(route)`; let later ones
    through. Returns the methods seen, in order."""
    seen: list[str] = []

    def handle(route: Any) -> None:
        seen.append(route.request.method)
        if len(seen) == 1:
            answer(route)
        else:
            route.continue_()

    page.route("**/advance", handle)
    return seen


def _unavailable(status: int) -> Any:
    return lambda route: route.fulfill(status=status, content_type="application/json",
                                       body=UNAVAILABLE)


def _landed_but_lost(route: Any) -> None:
    route.fetch()  # the server commits the move, but its answer never arrives
    route.fulfill(status=502, content_type="application/json", body=UNAVAILABLE)


FIRST_ANSWERS = {
    "502": _unavailable(502),
    "503": _unavailable(503),
    "504": _unavailable(504),
    "no-answer": lambda route: route.abort("connectionreset"),
    # the resend is then a 409 version_conflict: the page catches up instead
    "landed-but-answer-lost": _landed_but_lost,
}


@pytest.mark.parametrize("first", sorted(FIRST_ANSWERS))
def test_a_move_without_its_answer_is_sent_again_and_lands_once(
        page: Any, live_server: LiveServer, first: str) -> None:
    game_id = start_game(page, "Resend", seed=4)
    before, advanced = version(page), advances(live_server, game_id)
    seen = _first_advance(page, FIRST_ANSWERS[first])
    page.click("#advance-btn")
    wait_for_new_version(page, before)
    assert seen == ["POST", "POST"]
    assert advances(live_server, game_id) == advanced + 1
    assert page.get_attribute("#message", "class") != "message error"
