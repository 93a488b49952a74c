"""``squares games abandon-stale`` and ``squares games prune --abandoned-older-than``."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from sqlalchemy import update

from service.services import Services
from service.store import events_table, games_table, utcnow
from tests.cli.conftest import Run


def _aged_game(services: Services, days: float) -> str:
    """A 7 x 9 game whose every time is `days` in the past; its id."""
    game_id = services.play.create_game(player_name="Ada", height=7, width=9, seed=5).game_id
    by = timedelta(days=days)
    then = utcnow() - by
    with services.store.engine.begin() as conn:
        conn.execute(update(events_table).where(events_table.c.game_id == game_id)
                     .values(recorded_at=then))
        conn.execute(update(games_table).where(games_table.c.game_id == game_id)
                     .values(created_at=then, updated_at=then))
    services.store.snapshots.clear()
    return game_id


def test_abandon_stale_abandons_the_games_past_their_time(run: Run, services: Services) -> None:
    idle = _aged_game(services, 8)
    fresh = _aged_game(services, 1)
    result = run("games", "abandon-stale")
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{idle}  idle\nabandoned 1 game\n"
    assert services.queries.get_summary(fresh).status == "active"
    listed = run("games", "list", "--status", "abandoned", "--json")
    assert [g["game_id"] for g in json.loads(listed.stdout)["games"]] == [idle]
    shown = run("games", "show", idle)
    assert "abandoned (round 1, no result)" in shown.stdout
    assert json.loads(run("games", "abandon-stale", "--json").stdout) == {
        "abandoned": [], "skipped": 0}
    assert run("verify", "--all").exit_code == 0


def test_abandon_stale_follows_the_setting(run: Run, services: Services,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    game = _aged_game(services, 1.5)
    monkeypatch.setenv("SQUARES_ABANDON_AFTER", "1d")
    assert run("games", "abandon-stale").stdout.endswith("abandoned 1 game\n")
    assert services.queries.get_summary(game).status == "abandoned"
    monkeypatch.setenv("SQUARES_ABANDON_AFTER", "soon")
    result = run("games", "abandon-stale")
    assert result.exit_code == 2 and "SQUARES_ABANDON_AFTER='soon'" in result.stderr


def test_prune_deletes_only_abandoned_games_older_than_the_duration(
        run: Run, services: Services) -> None:
    old, recent = _aged_game(services, 40), _aged_game(services, 40)
    run("games", "abandon-stale")  # both abandoned now
    with services.store.engine.begin() as conn:  # ... and `old` 31 days ago
        conn.execute(update(games_table).where(games_table.c.game_id == old)
                     .values(updated_at=utcnow() - timedelta(days=31)))
    idle = _aged_game(services, 40)  # due, not abandoned yet: kept

    refused = run("games", "prune", "--abandoned-older-than", "30d")
    assert refused.exit_code == 2 and "without --yes" in refused.stderr
    result = run("games", "prune", "--abandoned-older-than", "30d", "--yes")
    assert result.exit_code == 0 and result.stdout == "pruned 1 abandoned game\n"
    remaining = {g.game_id for g in services.queries.list_games()[0]}
    assert remaining == {recent, idle}
    both = run("games", "prune", "--abandoned-older-than", "30d",
               "--unfinished-older-than", "35d", "--yes")
    assert both.stdout == "pruned 0 abandoned games\npruned 1 unfinished game\n"
    assert {g.game_id for g in services.queries.list_games()[0]} == {recent}
    usage = run("games", "prune", "--yes")
    assert usage.exit_code == 2 and "--abandoned-older-than" in usage.stderr
