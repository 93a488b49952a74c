"""The heartbeat the analyst keeps its lease with (`projections.heartbeat`)."""

from __future__ import annotations

import threading
import time

import pytest

from service.projections.heartbeat import Heartbeat


def test_it_beats_while_the_block_runs_and_stops_with_it() -> None:
    beats: list[float] = []
    with Heartbeat(lambda: beats.append(time.monotonic()) is None, 0.05):
        time.sleep(0.5)
    done = len(beats)
    time.sleep(0.2)
    assert 4 <= done == len(beats)


def test_it_stops_when_nothing_is_left_to_keep() -> None:
    calls = 0

    def beat() -> bool:
        nonlocal calls
        calls += 1
        return False

    with Heartbeat(beat, 0.02) as heart:
        time.sleep(0.3)
    assert calls == 1 == heart.beats


def test_a_failing_beat_is_logged_and_tried_again(caplog: pytest.LogCaptureFixture) -> None:
    calls = 0
    again = threading.Event()

    def beat() -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("database away")
        again.set()
        return True

    with Heartbeat(beat, 0.02):
        assert again.wait(5)
    assert "heartbeat failed" in caplog.text and "database away" in caplog.text
