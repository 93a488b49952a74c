"""The viewer count: the distinct clients of spectator streams (``?viewers=1``),
counted over every server process through the ``viewers`` table, on SQLite and
PostgreSQL. A client is the keyed hash of its address (`security.client_key`)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from service.live.feed import Feed
from service.live.viewers import Viewers
from service.ops.settings import CLIENT_SALT_DEFAULT
from service.services import security
from service.store import EventStore, make_engine, utcnow
from service.store.schema import viewers_table
from service.store.viewers import ViewerRepository
from squares_testing.inprocess import streams_server
from tests.conftest import close_app, services_of

from .conftest import Live, live_app, serve
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


def _spectator(live: Live, game_id: str, address: str | None = None) -> SseClient:
    """A spectator stream; from `address` when the app trusts one proxy (which says
    so in ``X-Forwarded-For``)."""
    headers = {} if address is None else {"X-Forwarded-For": address}
    return SseClient("127.0.0.1", live.port, f"/api/games/{game_id}/live?viewers=1",
                     headers=headers)


@pytest.fixture
def proxied(database_url: str) -> Iterator[Live]:
    """The app behind one trusted proxy: each test stream says its own address."""
    app = live_app(database_url, SQUARES_TRUSTED_PROXIES="1", SQUARES_LIVE_PER_CLIENT=16)
    yield from serve(app)
    close_app(app)


def _key(address: str) -> str:
    return security.client_key(address, CLIENT_SALT_DEFAULT)


def _rows(store: EventStore) -> set[tuple[str, str, str, int]]:
    """The viewers table: (instance, game, client, count) of each row."""
    with store.engine.connect() as conn:
        return {(r.instance, r.game_id, r.client, r.count)
                for r in conn.execute(select(viewers_table))}


def _rows_become(store: EventStore, want: set[tuple[str, int]],
                 within: float = 8.0) -> set[tuple[str, str, str, int]]:
    """The table's rows once their (client, count) are `want` (the process writes
    within a second of a change)."""
    deadline = time.monotonic() + within
    while True:
        rows = _rows(store)
        if {(client, count) for _, _, client, count in rows} == want:
            return rows
        assert time.monotonic() < deadline, f"the rows are {rows}"
        time.sleep(0.1)


def test_spectators_see_how_many_watch(proxied: Live) -> None:
    game = proxied.services.play.create_game(player_name="Ada", height=7, width=9, seed=3)
    first = _spectator(proxied, game.game_id, "203.0.113.1")
    _viewers_message(first, 1)
    second = _spectator(proxied, game.game_id, "203.0.113.2")
    _viewers_message(second, 2)
    _viewers_message(first, 2)
    second.close()
    _viewers_message(first, 1)
    first.close()


def test_one_address_with_16_streams_counts_once(proxied: Live) -> None:
    game = proxied.services.play.create_game(player_name="Ada", height=7, width=9, seed=3)
    same = [_spectator(proxied, game.game_id, "203.0.113.7") for _ in range(16)]
    assert [s.status for s in same] == [200] * 16
    for sse in same:
        _viewers_message(sse, 1)
    other = _spectator(proxied, game.game_id, "2001:db8::1")
    _viewers_message(other, 2)
    _viewers_message(same[0], 2)
    # one row per client, its streams counted in it; the address is never stored
    rows = _rows_become(proxied.services.store,
                        {(_key("203.0.113.7"), 16), (_key("2001:db8::1"), 1)})
    assert {game_id for _, game_id, _, _ in rows} == {game.game_id}
    assert not any("203.0.113" in str(row) or "2001:db8" in str(row) for row in rows)
    for sse in same[1:]:
        sse.close()
    other.close()
    _viewers_message(same[0], 1)  # fifteen of its streams went: the address still watches
    same[0].close()


def test_a_client_on_two_servers_counts_once(database_url: str) -> None:
    """Two apps on one database stand for two server processes behind a balancer."""
    apps = [live_app(database_url, SQUARES_TRUSTED_PROXIES="1") for _ in range(2)]
    try:
        with streams_server(services_of(apps[0])) as streams_a, \
                streams_server(services_of(apps[1])) as streams_b:
            a = Live(apps[0], streams_a.port, streams_a.hub)
            b = Live(apps[1], streams_b.port, streams_b.hub)
            game = a.services.play.create_game(player_name="Ada", height=7, width=9, seed=3)
            on_a = _spectator(a, game.game_id, "203.0.113.1")
            _viewers_message(on_a, 1)
            on_b = _spectator(b, game.game_id, "203.0.113.1")  # the same client
            _viewers_message(on_b, 1)
            other = _spectator(b, game.game_id, "203.0.113.2")
            _viewers_message(other, 2)
            _viewers_message(on_a, 2)  # once b's rows are written and read here
            deadline = time.monotonic() + 2.5  # and it stays 2 over the next looks
            while time.monotonic() < deadline:
                message = on_a.next(timeout=1)
                assert message is not None
                assert message.event != "viewers" or message.data == {"count": 2}
            for sse in (on_a, on_b, other):
                sse.close()
    finally:
        for app in apps:
            close_app(app)


def test_a_player_stream_is_not_counted_and_gets_no_count(live: Live) -> None:
    game = live.services.play.create_game(player_name="Ada", height=7, width=9, seed=3)
    player = SseClient("127.0.0.1", live.port, f"/api/games/{game.game_id}/live")
    spectator = _spectator(live, game.game_id)
    _viewers_message(spectator, 1)
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:
        message = player.next(timeout=2)
        assert message is not None and message.event != "viewers"
    player.close()
    spectator.close()


@contextmanager
def _processes(database_url: str, n: int = 2, **kwargs: Any) -> Iterator[list[Viewers]]:
    """`n` `Viewers` on one database, each on its own engine: `n` server processes
    (their threads never look: the tests sync by hand)."""
    stores = [EventStore(make_engine(database_url)) for _ in range(n)]
    viewers = [Viewers(store, check_s=3600, **kwargs) for store in stores]
    try:
        yield viewers
    finally:
        for v in viewers:
            v.stop()
        for store in stores:
            store.dispose()


def _totals(v: Viewers, *game_ids: str, since_s: float = 7200) -> dict[str, int]:
    with v.store.unit_of_work(write=False) as uow:
        return uow.viewers.totals(game_ids, utcnow() - timedelta(seconds=since_s))


def test_counts_distinct_clients_over_processes_and_forget_the_dead(
        database_url: str) -> None:
    with _processes(database_url) as (a, b), ExitStack() as stack:
        for game_id, client, where in (("g1", "c1", a), ("g1", "c1", a), ("g1", "c2", a),
                                       ("g1", "c1", b), ("g1", "c3", b), ("g2", "c1", b)):
            stack.enter_context(where.viewing(game_id, client))
        assert (a.count("g1"), b.count("g1")) == (2, 2)  # its own at once
        a.sync()
        b.sync()
        a.sync()
        # c1 (on both), c2 (a), c3 (b): three clients, whoever asks
        assert (a.count("g1"), b.count("g1"), b.count("g2"), a.count("g2")) == (3, 3, 1, 0)
        assert _totals(a, "g1", "g2", since_s=a.fresh_s) == {"g1": 3, "g2": 1}
        # a process that stops refreshing its rows stops counting
        stale = utcnow() - timedelta(seconds=a.fresh_s + 1)
        with b.store.unit_of_work() as uow:
            assert uow.viewers.refresh(b.instance, stale) == 3
        a.sync()
        assert a.count("g1") == 2  # c3 went with b; c1 is still a's
        stack.close()  # every stream ends
        assert a.count("g1") == 0  # a's own at once
        a.sync()
        # only b's stale rows are left: c1 and c3 of g1, c1 of g2
        assert _totals(a, "g1", "g2") == {"g1": 2, "g2": 1}
        assert _totals(a, "g1", "g2", since_s=a.fresh_s) == {}


def test_sixteen_streams_of_one_client_count_once_in_one_row(database_url: str) -> None:
    with _processes(database_url, n=1) as (a,), ExitStack() as stack:
        for _ in range(16):
            stack.enter_context(a.viewing("g1", "c1"))
        assert a.count("g1") == 1
        a.sync()
        assert a.count("g1") == 1
        assert _rows(a.store) == {(a.instance, "g1", "c1", 16)}
        stack.enter_context(a.viewing("g1", "c2"))
        assert a.count("g1") == 2


def test_a_client_on_two_processes_counts_once(database_url: str) -> None:
    with _processes(database_url) as (a, b), a.viewing("g1", "c1"), \
            b.viewing("g1", "c2"):
        a.sync()
        b.sync()
        a.sync()
        assert (a.count("g1"), b.count("g1")) == (2, 2)
        with b.viewing("g1", "c1"):  # c1 opens a stream on b too
            # b has not written c1 yet, so it cannot know that a counts it: it
            # counts it at once, as a new client, and so twice until its next look
            assert b.count("g1") == 3
            b.sync()
            a.sync()
            assert (a.count("g1"), b.count("g1")) == (2, 2)
        assert b.count("g1") == 2  # c1 left b, but a still counts it
        b.sync()
        a.sync()
        assert (a.count("g1"), b.count("g1")) == (2, 2)
        assert _totals(a, "g1", since_s=a.fresh_s) == {"g1": 2}


def test_a_change_of_count_nudges_and_only_then(database_url: str) -> None:
    nudged: list[str] = []
    with _processes(database_url, n=1, on_change=nudged.append) as (a,):
        with a.viewing("g1", "c1"):
            assert nudged == ["g1"]
            with a.viewing("g1", "c1"):
                assert nudged == ["g1"]  # the same client: the count stays 1
            assert nudged == ["g1"]
            with a.viewing("g1", "c2"):
                assert nudged == ["g1", "g1"]
            assert nudged == ["g1"] * 3
        assert nudged == ["g1"] * 4


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the `ViewerRepository` writes, in order."""
    done: list[str] = []
    for name in ("replace", "update", "refresh", "forget"):
        original = getattr(ViewerRepository, name)

        def spy(self: ViewerRepository, *args: Any, _name: str = name,
                _original: Any = original) -> Any:
            done.append(_name)
            return _original(self, *args)

        monkeypatch.setattr(ViewerRepository, name, spy)
    return done


def test_rows_are_written_only_when_counts_change_or_on_refresh(
        database_url: str, writes: list[str]) -> None:
    with _processes(database_url, n=1) as (a,):
        with a.viewing("g1", "c1"):
            a.sync()  # the first look refreshes (nothing yet) and writes c1
            assert writes == ["forget", "refresh", "update"]
            a.sync()
            a.sync()
            assert writes == ["forget", "refresh", "update"]  # nothing changed
            with a.viewing("g1", "c1"):
                a.sync()  # c1's stream count changed: its row only
                assert writes[3:] == ["update"]
                a.refresh_s = 0  # due at every look from now on
                a.sync()
                assert writes[4:] == ["forget", "refresh"]
            a.sync()
            assert writes[6:] == ["forget", "refresh", "update"]
        a.sync()
        assert writes[9:] == ["forget", "refresh", "update"]
        assert _totals(a, "g1") == {}


def test_rows_deleted_under_a_live_process_come_back_at_its_refresh(
        database_url: str) -> None:
    with _processes(database_url, n=1, refresh_s=3600) as (a,), \
            a.viewing("g1", "c1"), a.viewing("g2", "c2"):
        a.sync()
        with a.store.unit_of_work() as uow:  # forgotten (a process away for an hour)
            uow.viewers.forget(utcnow() + timedelta(seconds=1))
        assert _totals(a, "g1", "g2") == {}
        a.sync()
        assert _totals(a, "g1", "g2") == {}  # not due: nothing written
        a.refresh_s = 0
        a.sync()
        assert _totals(a, "g1", "g2", since_s=a.fresh_s) == {"g1": 1, "g2": 1}


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
