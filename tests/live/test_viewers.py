"""The viewer count: spectator streams (``?viewers=1``) counted over every server
process through the ``viewers`` table, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from service.live import Feed, Viewers
from service.store import EventStore, make_engine, utcnow

from .conftest import Live
from .sse import Message, SseClient
from .test_hub import run


def _viewers_message(sse: SseClient, want: int, within: float = 8.0) -> Message:
    """The first ``viewers`` message saying `want` (others are skipped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        message = sse.next(timeout=max(0.1, deadline - time.monotonic()))
        assert message is not None, "the stream ended"
        if message.event == "viewers":
            assert message.id is None  # Last-Event-ID stays the last event's seq
            assert message.data is not None
            if message.data["count"] == want:
                return message
    raise AssertionError(f"no viewers message with count {want}")


def _spectator(live: Live, game_id: str) -> SseClient:
    return SseClient("127.0.0.1", live.port, f"/api/games/{game_id}/live?viewers=1")


def test_spectators_see_how_many_watch(live: Live) -> None:
    game = live.services.create_game(player_name="Ada", height=7, width=9, seed=3)
    first = _spectator(live, game.game_id)
    _viewers_message(first, 1)
    second = _spectator(live, game.game_id)
    _viewers_message(second, 2)
    _viewers_message(first, 2)
    second.close()
    _viewers_message(first, 1)
    first.close()


def test_a_player_stream_is_not_counted_and_gets_no_count(live: Live) -> None:
    game = live.services.create_game(player_name="Ada", height=7, width=9, seed=3)
    player = SseClient("127.0.0.1", live.port, f"/api/games/{game.game_id}/live")
    spectator = _spectator(live, game.game_id)
    _viewers_message(spectator, 1)
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        message = player.next(timeout=2)
        assert message is not None and message.event != "viewers"
    player.close()
    spectator.close()


def test_counts_add_up_over_processes_and_forget_the_dead(database_url: str) -> None:
    """Two `Viewers` on one database stand for two server processes."""
    stores = [EventStore(make_engine(database_url)) for _ in range(2)]
    a, b = (Viewers(store, check_s=3600) for store in stores)  # synced by hand below
    try:
        with a.viewing("g1"), a.viewing("g1"), b.viewing("g1"), b.viewing("g2"):
            assert a.count("g1") == 2  # its own at once, the other's after a sync
            a.sync()
            b.sync()
            a.sync()
            assert (a.count("g1"), b.count("g1"), b.count("g2"), a.count("g2")) == (3, 3, 1, 0)
            # a process that stops refreshing its rows stops counting
            stale = utcnow() - timedelta(seconds=a.fresh_s + 1)
            with stores[1].unit_of_work() as uow:
                uow.viewers.report(b.instance, {"g1": 1, "g2": 1}, stale, stale)
            a.sync()
            assert a.count("g1") == 2
        a.sync()
        with stores[0].unit_of_work(write=False) as uow:
            assert uow.viewers.totals(["g1", "g2"], utcnow() - timedelta(hours=2)) == {
                "g1": 1, "g2": 1}  # only b's stale rows are left
    finally:
        a.stop()
        b.stop()
        for store in stores:
            store.dispose()


def test_a_nudge_wakes_only_the_streams_that_wait_for_one(database_url: str) -> None:
    """The viewer count wakes spectator streams through `Feed.nudge`; event streams
    keep waiting for a new version."""
    store = EventStore(make_engine(database_url))
    feed = Feed(store, poll_s=3600, safety_poll_s=3600)

    async def scenario() -> tuple[bool, bool, int]:
        with feed.watch("g1"):
            seen = feed.nudges("g1")
            spectator = asyncio.ensure_future(feed.wait("g1", 0, 2.0, nudged_after=seen))
            events_only = asyncio.ensure_future(feed.wait("g1", 0, 2.0))
            await asyncio.sleep(0.2)
            # from another thread, as the viewer-count thread nudges
            await asyncio.to_thread(feed.nudge, "g1")
            return await spectator, await events_only, feed.nudges("g1") - seen

    try:
        assert run(scenario()) == (True, False, 1)
    finally:
        feed.stop()
        store.dispose()
