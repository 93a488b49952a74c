"""``squares daily show`` and ``squares daily verify``: a past date's seed, its
ranking, and the check that each of its games replays from the revealed seed."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path

from service.domain.commands import PlaceLine
from service.domain.seeds import commitment
from service.services import Services
from service.services.daily import DailyStart
from service.store import utcnow
from squares_testing.greedy import Greedy
from tests.cli.conftest import Run


def _play_to_the_end(services: Services, started: DailyStart) -> None:
    game = started.created
    state = game.state
    while not state.over:
        command = Greedy().next_command(state)
        if isinstance(command, PlaceLine):
            state = services.play.place_line(game.game_id, game.token, command.x, command.y).state
        else:
            state = services.play.advance(game.game_id, game.token).state


def _yesterdays_games(services: Services) -> tuple[DailyStart, DailyStart]:
    """Ann's ranked attempt of yesterday, played to its end, and a guest's practice."""
    yesterday = utcnow() - timedelta(days=1)
    services.core.clock = lambda: yesterday
    with services.store.unit_of_work() as uow:
        ann = uow.player_records.claim("Ann", yesterday)
    ranked = services.daily.start(player_id=ann)
    _play_to_the_end(services, ranked)
    return ranked, services.daily.start(player_id=None, player_name="Gus")


def test_daily_show_and_verify_a_past_date(run: Run, services: Services) -> None:
    ranked, _ = _yesterdays_games(services)
    day = ranked.date.isoformat()
    shown = json.loads(run("daily", "show", day, "--json").stdout)
    assert shown["over"] and commitment(shown["seed"]) == shown["commitment"]
    assert shown["commitment"] == ranked.created.state.game.seed_commitment
    assert [(e["place"], e["name"], e["game_id"]) for e in shown["ranking"]] == [
        (1, "Ann", ranked.created.game_id)]
    assert (shown["ranked_players"], shown["practice_games"]) == (1, 1)
    text = run("daily", "show", day).stdout
    assert f"seed: {shown['seed']}\n" in text and "1 ranked, 1 practice" in text
    result = run("daily", "verify", day)
    assert result.exit_code == 0, result.output
    assert result.stdout == (f"seed of {day}: {shown['seed']}\n"
                             f"commitment: {shown['commitment']}\n"
                             "ok: the seed matches its commitment; 2 daily games replayed "
                             "from it\n")


def test_today_keeps_its_seed(run: Run, services: Services) -> None:
    today = run("daily", "show")
    assert today.exit_code == 0 and "seed: secret until the date is over\n" in today.stdout
    refused = run("daily", "verify", utcnow().date().isoformat())
    assert refused.exit_code == 1 and "revealed once the date is over" in refused.stderr
    assert run("daily", "show", "2026-13-01").exit_code == 2


def test_daily_verify_finds_a_game_that_does_not_replay(run: Run, services: Services,
                                                      db_url: str) -> None:
    ranked, _ = _yesterdays_games(services)
    with sqlite3.connect(Path(db_url.removeprefix("sqlite:///"))) as conn:
        conn.execute("UPDATE games SET score1 = score1 + 5 WHERE game_id = ?",
                     (ranked.created.game_id,))
    conn.close()
    result = run("daily", "verify", ranked.date.isoformat())
    assert result.exit_code == 1
    assert f"{ranked.created.game_id}: read_model: games.score1" in result.stdout
    assert "1 problem in the daily games of" in result.stderr
