"""GET /api/games/{id}/live: Server-Sent Events of a game's stream, on SQLite (the
feed polls) and PostgreSQL (LISTEN/NOTIFY)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from service.domain.rules import legal_actions
from service.protocol.event_json import event_data
from tests.conftest import close_app
from tests.factories import GameFactory

from .conftest import Live, live_app, serve
from .sse import SseClient


def _client(live: Live, game_id: str, **headers: str) -> SseClient:
    return SseClient("127.0.0.1", live.port, f"/api/games/{game_id}/live", headers)


def test_a_finished_game_streams_every_event_once_in_order_and_ends(live: Live) -> None:
    game = GameFactory.create(services=live.services, finished=True, small=True)
    sse = _client(live, game.game_id)
    assert sse.status == 200
    assert sse.response.getheader("Content-Type").startswith("text/event-stream")
    assert sse.response.getheader("Cache-Control") == "no-cache"
    messages = sse.events()
    stored = live.services.queries.events_of(game.game_id)
    assert [m.id for m in messages] == [s.seq for s in stored]
    assert [m.event for m in messages] == [s.event.TYPE for s in stored]
    assert [m.data["data"] for m in messages] == [event_data(s.event) for s in stored]


def test_last_event_id_and_after_resume_after_that_event(live: Live) -> None:
    game = GameFactory.create(services=live.services, finished=True, small=True)
    total = live.services.queries.get_summary(game.game_id).version
    resumed = _client(live, game.game_id, **{"Last-Event-ID": "5"}).events()
    assert [m.id for m in resumed] == list(range(6, total + 1))
    after = SseClient("127.0.0.1", live.port, f"/api/games/{game.game_id}/live?after={total}")
    assert after.events() == []


@pytest.mark.parametrize("bad", ["abc", "-1", "1.5", "99999999999", ""])
def test_a_bad_last_event_id_is_a_400_before_any_stream(live: Live, bad: str) -> None:
    game = GameFactory.create(services=live.services, turns=2, small=True)
    sse = _client(live, game.game_id, **{"Last-Event-ID": bad})
    assert sse.status == 400
    assert sse.body_json()["error"]["code"] == "invalid_request"


def test_an_unknown_game_is_a_404_before_any_stream(live: Live) -> None:
    sse = _client(live, "no-such-game")
    assert sse.status == 404 and sse.body_json()["error"]["code"] == "game_not_found"


def _move(live: Live, game_id: str, token: str) -> list[int]:
    """A human move (advance, or a line); the seqs it appended."""
    state = live.services.queries.get_state(game_id)
    lines = legal_actions(state).lines
    if state.stage == 2 and not state.stage2_line_placed and lines:
        result = live.services.play.place_line(game_id, token, *lines[0])
    else:
        result = live.services.play.advance(game_id, token)
    return [s.seq for s in result.events]


@pytest.mark.serial  # the delivery is timed: run alone
def test_moves_reach_a_watcher_as_they_are_committed(live: Live) -> None:
    game = live.services.play.create_game(player_name="Ada", height=19, width=33, seed=3)
    sse = _client(live, game.game_id)
    first = sse.next(timeout=5)  # the retry hint
    assert first is not None and first.id is None
    created = sse.next(timeout=5)
    assert created is not None and created.id == 1 and created.event == "game_created"
    for _ in range(4):
        started = time.monotonic()
        seqs = _move(live, game.game_id, game.token)
        got = []
        while len(got) < len(seqs):
            message = sse.next(timeout=5)
            assert message is not None
            if message.id is not None:
                got.append(message.id)
        assert got == seqs  # in order, none missed, none twice
        assert time.monotonic() - started < 3
    sse.close()


def test_a_quiet_stream_sends_heartbeats(live: Live) -> None:
    game = live.services.play.create_game(player_name="Ada", height=7, width=7, seed=3)
    sse = _client(live, game.game_id)
    comments = []
    for _ in range(4):
        message = sse.next(timeout=5)
        assert message is not None
        if message.comment:
            comments.append(message.comment)
    assert "ping" in comments
    sse.close()


@pytest.fixture
def capped(sqlite_database_url: str) -> Iterator[Live]:
    app = live_app(sqlite_database_url, SQUARES_LIVE_PER_CLIENT=2, SQUARES_LIVE_TOTAL=3)
    yield from serve(app)


def test_streams_are_capped_per_client_and_per_server(capped: Live) -> None:
    game = capped.services.play.create_game(player_name="Ada", height=7, width=7, seed=3)
    open_ = [_client(capped, game.game_id) for _ in range(2)]
    assert [s.status for s in open_] == [200, 200]
    third = _client(capped, game.game_id)
    assert third.status == 429 and third.body_json()["error"]["code"] == "too_many_streams"
    capped.hub.slots.per_client = 10
    open_.append(_client(capped, game.game_id))
    full = _client(capped, game.game_id)
    assert full.status == 503 and full.response.getheader("Retry-After") == "5"
    for s in open_:
        s.close()
    deadline = time.monotonic() + 5  # the server notices the closed streams at a write
    while time.monotonic() < deadline:
        again = _client(capped, game.game_id)
        if again.status == 200:
            again.close()
            break
        time.sleep(0.2)
    else:
        pytest.fail("closed streams were never released")


def test_many_watchers_of_one_game_all_see_every_event(live: Live) -> None:
    game = live.services.play.create_game(player_name="Ada", height=19, width=33, seed=5)
    watchers = [_client(live, game.game_id) for _ in range(6)]
    seen: list[list[int]] = [[] for _ in watchers]
    expected: list[int] = []

    def follow(i: int) -> None:
        while len(seen[i]) < expected[0]:
            message = watchers[i].next(timeout=5)
            if message is None:
                return
            if message.id is not None:
                seen[i].append(message.id)

    appended = [1]
    for _ in range(6):
        appended += _move(live, game.game_id, game.token)
    expected.append(len(appended))
    threads = [threading.Thread(target=follow, args=(i,)) for i in range(len(watchers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    for w in watchers:
        w.close()
    assert all(s == appended for s in seen), (appended, seen)


@pytest.fixture
def proxied(sqlite_database_url: str) -> Iterator[Live]:
    app = live_app(sqlite_database_url, SQUARES_TRUSTED_PROXIES="1",
                   SQUARES_LIVE_PER_CLIENT=1)
    yield from serve(app)
    close_app(app)


def test_behind_a_trusted_proxy_the_stream_cap_counts_forwarded_clients(
        proxied: Live) -> None:
    game = proxied.services.play.create_game(player_name="Ada", height=7, width=7, seed=3)

    def stream_for(client: str) -> SseClient:
        return _client(proxied, game.game_id, **{"X-Forwarded-For": client})

    first, second = stream_for("203.0.113.1"), stream_for("203.0.113.2")
    assert (first.status, second.status) == (200, 200)
    again = stream_for("203.0.113.1")
    assert again.status == 429 and again.body_json()["error"]["code"] == "too_many_streams"
    for sse in (first, second):
        sse.close()
