"""``/live`` lists the games with a move in the last ten minutes (issue 35, item 6),
at 1280 x 800 and 390 x 844 with touch: a game left alone for longer is not listed
(the page says where older games are: the replays), and comes back, first, with
its next move.

Screenshot: ``live-recent-*``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from service.store import make_engine, utcnow
from service.store.schema import games_table

from .conftest import LiveServer, screenshot
from .test_watch import one_action

pytestmark = pytest.mark.e2e


def row(page: Any, game_id: str) -> Any:
    return page.locator(f'#live-table tbody tr[data-game-id="{game_id}"]')


def test_live_leaves_out_games_without_a_move_for_ten_minutes(
    sized_page: Any, live_server: LiveServer
) -> None:
    page = sized_page
    quiet, busy = (live_server.post_json("/api/games", {
        "player_name": name, "height": 7, "width": 9, "seed": 4, "difficulty": "easy"})
        for name in ("Sessiz", "Hızlı"))
    engine = make_engine(live_server.database_url)
    try:
        with engine.begin() as conn:
            conn.execute(update(games_table).where(games_table.c.game_id == quiet["game_id"])
                         .values(updated_at=utcnow() - timedelta(minutes=20)))
    finally:
        engine.dispose()
    page.goto("/live")
    expect(row(page, busy["game_id"])).to_be_visible()
    expect(row(page, quiet["game_id"])).to_have_count(0)
    expect(page.locator("#live-caption")).to_contain_text("with a move in the last 10 minutes")
    older = page.locator(".live-older")
    expect(older).to_be_visible()
    expect(older.get_by_role("link", name="Replays")).to_have_attribute("href", "/games")
    screenshot(page, "live-recent")
    one_action(live_server, quiet["game_id"], quiet["token"])  # it moves: listed again, first
    expect(row(page, quiet["game_id"])).to_be_visible(timeout=15_000)  # the next 5 s poll
    expect(page.locator("#live-table tbody tr").first).to_have_attribute(
        "data-game-id", quiet["game_id"])
