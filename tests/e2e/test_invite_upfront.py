"""The join page says up front what an invite link meets (issue 35, item 5), at
1280 x 800 and 390 x 844 with touch: a used, expired or wrong invite is said as the
page opens, without the join form (no name asked first), with a link to watch the
game; an open invite with its code shows the form; a link without a code says so.

Screenshots: ``invite-open-*``, ``invite-wrong-*``, ``invite-used-*``,
``invite-expired-*``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from service.store import make_engine
from service.store.schema import invitations_table

from .conftest import LiveServer, screenshot

pytestmark = pytest.mark.e2e


def online_game(live_server: LiveServer, name: str = "Ann") -> dict[str, Any]:
    return live_server.post_json("/api/games", {"player_name": name, "mode": "online",
                                                "height": 7, "width": 9, "seed": 3})


def join_path(game: dict[str, Any], code: str | None = None) -> str:
    code = game["invite"]["code"] if code is None else code
    return f"/join/{game['game_id']}" + (f"#code={code}" if code else "")


def refused(page: Any, game_id: str, code: str, words: str) -> None:
    error = page.locator("#join-error")
    expect(error).to_have_attribute("data-code", code)
    expect(error).to_contain_text(words)
    expect(page.locator("#join-form")).to_be_hidden()
    expect(page.locator("#join-checking")).to_be_hidden()
    expect(error.get_by_role("link", name="Watch this game")).to_have_attribute(
        "href", f"/watch/{game_id}")


def test_an_open_invite_shows_the_form_and_a_wrong_code_is_said_at_once(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    game = online_game(live_server)
    page.goto(join_path(game))
    expect(page.locator("#join-form")).to_be_visible()
    expect(page.locator("#join-name")).to_be_focused()
    expect(page.locator("#join-error")).to_be_hidden()
    expect(page.locator("#join-checking")).to_be_hidden()
    screenshot(page, "invite-open")

    page.goto("/how-to-play")
    page.goto(join_path(game, "not-the-code"))
    refused(page, game["game_id"], "invite_invalid", "Wrong code")
    screenshot(page, "invite-wrong")
    page.goto("/how-to-play")
    page.goto(join_path(game, ""))
    expect(page.locator("#join-nocode")).to_be_visible()
    expect(page.locator("#join-form")).to_be_hidden()
    # Nothing was claimed by looking.
    assert live_server.get_json(f"/api/games/{game['game_id']}")["state"]["open_seat"] == 2


def test_a_used_or_expired_invite_is_said_before_any_name_is_asked(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    used = online_game(live_server)
    live_server.post_json(f"/api/games/{used['game_id']}/claim",
                          {"code": used["invite"]["code"], "name": "Bob"})
    page.goto(join_path(used))
    refused(page, used["game_id"], "invite_claimed", "already been used")
    screenshot(page, "invite-used")

    late = online_game(live_server, "Cem")
    engine = make_engine(live_server.database_url)
    try:
        with engine.begin() as conn:
            conn.execute(update(invitations_table)
                         .where(invitations_table.c.game_id == late["game_id"])
                         .values(expires_at=datetime(2020, 1, 1, tzinfo=UTC)))
    finally:
        engine.dispose()
    page.goto("/how-to-play")
    page.goto(join_path(late))
    refused(page, late["game_id"], "invite_expired", "expired")
    screenshot(page, "invite-expired")
