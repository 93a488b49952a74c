"""The metrics an operator reads (`service.ops.metrics`), counted by the app in-process:
each test reads a metric before and after what it does, in prometheus_client's
default registry (the one each server process records into)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from prometheus_client import REGISTRY
from sqlalchemy import exc as sa_exc

from service.live.slots import StreamSlots
from service.services import Services
from service.store.queries import Queries
from tests.apps import app_for_tests
from tests.conftest import close_app

from .helpers import assert_error, bearer, create_game, play_to_end


def value(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def delta(name: str, **labels: str) -> Callable[[], float]:
    """How much metric `name` grew since this call."""
    before = value(name, **labels)
    return lambda: value(name, **labels) - before


def test_every_request_is_timed_by_method_route_and_status(client: Any) -> None:
    ok = delta("squares_http_request_duration_seconds_count",
               method="GET", route="/healthz", status="200")
    missing = delta("squares_http_request_duration_seconds_count", method="GET",
                    route="/api/games/<game_id>", status="404")
    unmatched = delta("squares_http_request_duration_seconds_count", method="GET",
                      route="<unmatched>", status="404")
    for _ in range(3):
        client.get("/healthz")
    client.get("/api/games/nope")
    client.get("/no/such/path", headers={"Accept": "application/json"})
    assert (ok(), missing(), unmatched()) == (3, 1, 1)


def test_a_played_game_counts_its_events_its_start_its_end_and_the_ai(client: Any) -> None:
    started = delta("squares_games_started_total", mode="vs_computer")
    finished = delta("squares_games_finished_total", mode="vs_computer")
    created = delta("squares_events_appended_total", type="game_created")
    lines = delta("squares_events_appended_total", type="line_placed")
    over = delta("squares_events_appended_total", type="game_over")
    hints = delta("squares_ai_decision_seconds_count", level="expert", purpose="hint")
    turns = delta("squares_ai_decision_seconds_count", level="easy", purpose="turn")
    game = create_game(client, difficulty="easy")
    state, moves = play_to_end(client, game["game_id"], game["token"])
    events = client.get(f"/api/games/{game['game_id']}/events").get_json()["events"]
    computer_advances = [e for e in events if e["type"] == "stage_advanced"
                         and e["data"]["seat"] == 1]
    assert state["over"] and (started(), finished(), created(), over()) == (1, 1, 1, 1)
    assert lines() == sum(e["type"] == "line_placed" for e in events)
    assert hints() == moves  # one hint a move, each at a new version
    assert turns() >= len(computer_advances) > 0  # a command each: its advances, lines


def test_refused_moves_count_as_version_conflicts(client: Any) -> None:
    stale = delta("squares_version_conflicts_total", source="expected_version")
    game = create_game(client)
    body = {"x": 1, "y": 0, "expected_version": game["state"]["version"] + 5}
    answer = client.post(f"/api/games/{game['game_id']}/lines", json=body,
                         headers=bearer(game["token"]))
    assert_error(answer, 409, "version_conflict")
    assert stale() == 1


def test_an_append_another_writer_beat_counts_as_a_conflict(services: Services) -> None:
    from service.domain.commands import Advance
    from service.domain.fold import apply_all
    from service.domain.rules import decide

    lost = delta("squares_version_conflicts_total", source="append")
    created = services.play.create_game(player_name="Ada", height=7, width=9, seed=3)
    state = services.store.load_state(created.game_id)
    events = decide(state, Advance(state.turn))
    services.store.append(created.game_id, state.version, events, apply_all(state, events))
    with pytest.raises(Exception, match="version"):
        services.store.append(created.game_id, state.version, events,
                              apply_all(state, events))
    assert lost() == 1


def test_rate_limited_requests_are_counted_by_route_and_code(
        sqlite_database_url: str) -> None:
    app: Flask = app_for_tests({"DATABASE_URL": sqlite_database_url,
                      "SQUARES_LIMIT_CREATE": "1 per minute"})
    try:
        limited = delta("squares_rate_limited_total", route="/api/games",
                        code="rate_limited")
        client = app.test_client()
        body = {"player_name": "Ada", "height": 7, "width": 9}
        assert [client.post("/api/games", json=body).status_code for _ in range(3)] == [
            201, 429, 429]
        assert limited() == 2
    finally:
        close_app(app)


def test_database_outages_and_errors_are_counted(
        client: Any, services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    outages = delta("squares_database_errors_total", kind="outage")
    errors = delta("squares_database_errors_total", kind="error")
    failure: list[Exception] = []

    def failing(*_: Any, **__: Any) -> Any:
        raise failure[0]

    monkeypatch.setattr(Queries, "high_scores", failing)
    locked = sqlite3.OperationalError("database is locked")
    failure[:] = [sa_exc.OperationalError("SELECT 1", {}, locked)]
    assert_error(client.get("/api/highscores"), 503, "unavailable")
    failure[:] = [sa_exc.InvalidRequestError("a bug")]
    assert_error(client.get("/api/highscores"), 500, "internal_error")
    assert (outages(), errors()) == (1, 1)


def test_the_open_streams_gauge_follows_the_slots() -> None:
    seen: list[int] = []
    slots = StreamSlots(per_client=2, total=10, on_change=seen.append)
    assert slots.take("a") is None and slots.take("a") is None
    assert slots.take("a") == "client"  # refused: no change
    slots.release("a")
    slots.release("a")
    slots.release("a")  # nothing held: no change
    assert seen == [1, 2, 1, 0]
