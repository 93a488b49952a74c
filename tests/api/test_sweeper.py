"""The background retention sweep (`service.ops.sweeper`): one daemon thread per server
process, jittered, surviving a failed sweep; off for TESTING apps and at 0."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from flask import Flask

from service.ops import sweeper
from service.ops.settings import SettingError, Settings
from service.services import Sweep
from service.store import utcnow
from tests.conftest import services_of

from .helpers import create_game


def _wait_for(predicate, timeout: float = 10.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def test_a_failed_sweep_is_logged_and_the_next_one_runs(
        caplog: pytest.LogCaptureFixture) -> None:
    calls: list[int] = []

    def sweep() -> Sweep:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database is away")
        return Sweep((), 0)

    worker = sweeper.Sweeper(sweep, 0.02)
    worker.start()
    try:
        assert _wait_for(lambda: worker.runs >= 3)
    finally:
        worker.stop()
    assert "the retention sweep failed" in caplog.text
    assert not any(t.name == "squares-sweeper" for t in threading.enumerate())


def test_init_app_starts_only_with_an_interval(app: Flask) -> None:
    assert sweeper.init_app(app, 0.0) is None  # SQUARES_SWEEP_INTERVAL_S=0: off
    started = sweeper.init_app(app, 300.0)
    assert started is not None and app.extensions["squares_sweeper"] is started
    started.stop()


@pytest.mark.parametrize(("name", "bad"), [
    *(("SQUARES_SWEEP_INTERVAL_S", bad) for bad in ("often", "-1", "inf", "nan")),
    ("SQUARES_ABANDON_AFTER", "now")])
def test_a_bad_retention_setting_stops_a_start(name: str, bad: str) -> None:
    with pytest.raises(SettingError, match=name):
        Settings.from_env(**{name: bad})


def test_the_server_s_sweeper_abandons_games_past_their_time(app: Flask) -> None:
    services = services_of(app)
    client = app.test_client()
    game_id = create_game(client)["game_id"]
    services.clock = lambda: utcnow() + timedelta(days=8)
    app.testing = False
    worker = sweeper.init_app(app, 0.05)
    assert worker is not None and app.extensions["squares_sweeper"] is worker
    try:
        assert _wait_for(lambda: services.queries.get_summary(game_id).status == "abandoned")
    finally:
        worker.stop()
    assert services.admin.verify() == []
