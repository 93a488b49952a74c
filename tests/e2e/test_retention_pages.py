"""Retention in the browser: a watched game that is abandoned ends its live feed with
"Abandoned" and "No result: the game was abandoned." and leaves `/live`."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from service.services import Services
from service.store import events_table, games_table, utcnow

from .conftest import LiveServer
from .test_watch import new_game

pytestmark = pytest.mark.e2e


def _abandon(live_server: LiveServer, game_id: str) -> None:
    """Age the game past the retention time and run the sweep (as another process)."""
    services = Services.from_url(live_server.database_url)
    try:
        then = utcnow() - timedelta(days=8)
        with services.store.engine.begin() as conn:
            conn.execute(update(events_table).where(events_table.c.game_id == game_id)
                         .values(recorded_at=then))
            conn.execute(update(games_table).where(games_table.c.game_id == game_id)
                         .values(created_at=then, updated_at=then))
        assert (game_id, "idle") in services.retention.abandon_stale().abandoned
    finally:
        services.store.dispose()


def test_a_watched_game_that_is_abandoned_ends_without_a_result(
    watcher: tuple[Any, list[str]], live_server: LiveServer
) -> None:
    page, errors = watcher
    created = new_game(live_server, "Selin", seed=31)
    game_id = created["game_id"]
    page.goto("/live")
    expect(page.locator(f"#live-table tr[data-game-id='{game_id}']")).to_be_visible()
    page.goto(f"/watch/{game_id}")
    board = page.locator("#board")
    expect(page.locator("#live-state")).to_contain_text("Live")

    _abandon(live_server, game_id)
    expect(board).to_have_attribute("data-over", "true")
    expect(board).to_have_attribute("data-version", "2")
    expect(page.locator("#over-title")).to_have_text("Abandoned")
    expect(page.locator("#over-result")).to_contain_text("No result: the game was abandoned.")
    expect(page.locator("#feed li").first).to_contain_text("Abandoned: nobody moved")
    page.goto("/live")
    assert page.locator(f"tr[data-game-id='{game_id}']").count() == 0
    assert page.evaluate("window.__cspViolations") == []
    assert errors == []
