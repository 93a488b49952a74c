"""``kill -9`` of the analyst (``squares review --follow``) in the middle of its work,
then a restart: every ended game is reviewed exactly once, on both databases."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from service.domain.review import review_game
from service.projections.analyst import ENDINGS, NAME
from service.services import Services
from service.store import EventStore, utcnow
from tests.factories import GameStream, build_stream, store_stream

SQUARES = Path(sys.executable).parent / "squares"
GAMES = 6


@pytest.fixture(scope="module")
def streams() -> list[GameStream]:
    """Whole games on the default field: their reviews take a good part of a second,
    so a kill right after a review lands is a kill in the middle of the next one."""
    return [build_stream(seed=500 + i, player_name="Ada", turns=None) for i in range(GAMES)]


def _follow(url: str, log: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(SQUARES), "--database-url", url, "review", "--follow", "--lease", "1"],
        stdout=subprocess.DEVNULL, stderr=log.open("ab"))


def _reviews(store: EventStore) -> dict[str, int]:
    with store.unit_of_work(write=False) as uow:
        return {g: uow.reviews.get(g).position  # type: ignore[union-attr]
                for g in uow.games.ids() if uow.reviews.get(g) is not None}


def _wait_for(condition: Callable[[], bool], what: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_kill_9_mid_review_then_restart_reviews_each_game_once(
        database_url: str, services: Services, streams: list[GameStream],
        tmp_path: Path) -> None:
    store = services.store
    games = [store_stream(services, s).game_id for s in streams]
    with store.unit_of_work(write=False) as uow:
        endings = uow.log.after(0, 100_000, ENDINGS)
    assert [n.game_id for n in endings] == games  # they ended in this order

    log = tmp_path / "analyst.log"
    first = _follow(database_url, log)
    try:
        _wait_for(lambda: len(_reviews(store)) >= 2, "two reviews")
    finally:
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
    done = _reviews(store)
    assert 2 <= len(done) < GAMES, "killed while games were left"
    # what was recorded is a prefix of the games in order, and the checkpoint is at
    # its last game's ending: nothing skipped, nothing half-written
    assert set(done) == set(games[: len(done)])
    with store.unit_of_work(write=False) as uow:
        assert uow.checkpoints.position(NAME) == endings[len(done) - 1].position

    second = _follow(database_url, log)
    try:
        _wait_for(lambda: len(_reviews(store)) == GAMES, "every review")
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(20) == 0, log.read_text()
    reviews = _reviews(store)
    assert reviews == {n.game_id: n.position for n in endings}
    with store.unit_of_work(write=False) as uow:
        for game_id in games:
            events = [s.event for s in uow.events.load(game_id)]
            assert uow.reviews.get(game_id).body == review_game(events).to_dict()  # type: ignore[union-attr]
        assert uow.checkpoints.position(NAME) == uow.log.last()
        now = utcnow()
        assert uow.checkpoints.take_lease(NAME, "anyone", now, now) is not None, \
            "a stopped analyst gives its lease back"
