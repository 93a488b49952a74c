"""The store's speed-ups against the plain behaviour they replace."""

from __future__ import annotations

import fcntl
import os
import random
import threading
import time
from types import SimpleNamespace

import pytest

from service.store import SnapshotCache
from service.store.writer_queue import WriteLockTimeout, WriterQueue


def test_snapshot_cache_index_answers_like_a_scan_of_the_lru():
    rng = random.Random(3)
    cache = SnapshotCache(capacity=40)
    kept: dict[tuple[str, int], object] = {}  # the reference: an LRU scanned in full
    order: list[tuple[str, int]] = []
    games = [f"g{i}" for i in range(6)]
    for _ in range(5000):
        game = rng.choice(games)
        version = rng.randint(1, 60)
        action = rng.random()
        if action < 0.5:
            state = SimpleNamespace(version=version)
            cache.put(game, state)  # type: ignore[arg-type]
            kept[(game, version)] = state
            if (game, version) in order:
                order.remove((game, version))
            order.append((game, version))
            while len(order) > 40:
                del kept[order.pop(0)]
        elif action < 0.97:
            got = cache.latest(game, version)
            if (game, version) in kept:
                order.remove((game, version))
                order.append((game, version))
            candidates = [v for g, v in kept if g == game and v <= version]
            want = kept[(game, max(candidates))] if candidates else None
            assert got is want
        else:
            cache.forget(game)
            for key in [k for k in kept if k[0] == game]:
                del kept[key]
                order.remove(key)
        assert len(cache) == len(kept)


def test_writer_queue_lets_one_writer_in_at_a_time(tmp_path):
    queue = WriterQueue(str(tmp_path / "db.sqlite-writers"), wait_s=5.0)
    inside = 0
    most = 0
    lock = threading.Lock()

    def writer() -> None:
        nonlocal inside, most
        for _ in range(20):
            with queue.held(), queue.held():  # re-entrant in one thread
                with lock:
                    inside += 1
                    most = max(most, inside)
                time.sleep(0.0005)
                with lock:
                    inside -= 1

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == 1


@pytest.mark.serial  # the wait is timed: run alone
@pytest.mark.parametrize("holder", ["thread", "process"])
def test_a_writer_waits_for_the_queue_at_most_its_patience(tmp_path, holder: str):
    """Another thread of this process, or another process, holds the queue: the writer
    gives up after `wait_s` (WriteLockTimeout), and gets in once it is free."""
    path = str(tmp_path / "db.sqlite-writers")
    queue = WriterQueue(path, wait_s=0.3)
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with queue.held():
            taken.set()
            release.wait(10)

    if holder == "thread":
        other = threading.Thread(target=hold)
        other.start()
        assert taken.wait(5)
    else:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        fcntl.flock(fd, fcntl.LOCK_EX)
    started = time.monotonic()
    with pytest.raises(WriteLockTimeout), queue.held():
        pass
    assert 0.3 <= time.monotonic() - started < 1.5
    if holder == "thread":
        release.set()
        other.join(5)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
    with queue.held():  # free again
        pass
