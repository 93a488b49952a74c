"""The event store: append/load, optimistic concurrency (RULES V3), atomic use
cases and snapshots, on every backend of the ``database_url`` fixture."""

from __future__ import annotations

import json
import multiprocessing
import re
import threading
import uuid
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, insert, select
from sqlalchemy.exc import IntegrityError

from service.domain.fold import apply_all, fold
from service.domain.rules import decide
from service.domain.state import GameState
from service.errors import GameNotFound, VersionConflict
from service.services import Services
from service.store import EventStore, events_table, games_table, high_scores_table
from squares_testing.greedy import Greedy
from tests.factories import EventStreamFactory, GameFactory, store_stream


def _next_events(state: GameState, strategy: Greedy | None = None) -> list:
    return decide(state, (strategy or Greedy()).next_command(state))


def _event_count(store: EventStore, game_id: str) -> int:
    with store.engine.begin() as conn:
        return conn.execute(
            select(func.count()).where(events_table.c.game_id == game_id)
        ).scalar_one()


def test_append_then_load_all_and_the_first_k(store: EventStore) -> None:
    stream = EventStreamFactory.build(turns=3)
    game_id = uuid.uuid4().hex
    store.add_game(game_id, stream.events[:1], fold(stream.events[:1]),
                   token_hash="h", token_salt="00")
    state = fold(stream.events[:1])
    for event in stream.events[1:]:
        after = apply_all(state, [event])
        stored = store.append(game_id, state.version, [event], after)
        assert [s.seq for s in stored] == [after.version]
        state = after

    loaded = store.load(game_id)
    assert [s.seq for s in loaded] == list(range(1, len(stream.events) + 1))
    assert [s.event for s in loaded] == stream.events
    assert all(s.game_id == game_id and s.recorded_at.tzinfo for s in loaded)
    k = len(stream.events) // 2
    assert [s.event for s in store.load(game_id, upto=k)] == stream.events[:k]
    assert store.load_state(game_id, at=k) == fold(stream.events[:k])
    assert store.load_state(game_id) == fold(stream.events)


def test_append_at_a_stale_version_is_a_conflict_and_writes_nothing(
    services: Services,
) -> None:
    game = GameFactory.create(services=services, turns=1)
    store = services.store
    state = store.load_state(game.game_id)
    first = _next_events(state)
    store.append(game.game_id, state.version, first, apply_all(state, first))
    before = _event_count(store, game.game_id)

    with pytest.raises(VersionConflict) as caught:
        store.append(game.game_id, state.version, first, apply_all(state, first))
    assert caught.value.code == "version_conflict"
    assert caught.value.details == {"current_version": state.version + len(first)}
    assert _event_count(store, game.game_id) == before


def test_a_taken_sequence_number_is_a_conflict_even_behind_the_read_model(
    services: Services,
) -> None:
    """The primary key (game_id, seq) is the last word: a row written by another
    writer that did not touch the games row still wins."""
    game = GameFactory.create(services=services, turns=1)
    store = services.store
    state = store.load_state(game.game_id)
    events = _next_events(state)
    raw = events[0].to_dict()
    with store.engine.begin() as conn:
        conn.execute(insert(events_table).values(
            game_id=game.game_id, seq=state.version + 1, type=raw["type"], schema_version=raw["v"],
            payload=raw["data"], recorded_at=game.events[0].recorded_at,
        ))
    with pytest.raises(VersionConflict) as caught:
        store.append(game.game_id, state.version, events, apply_all(state, events))
    assert caught.value.details["current_version"] == state.version + 1
    assert store.load_state(game.game_id, at=state.version) == state


def test_appending_to_an_unknown_game_is_game_not_found(store: EventStore) -> None:
    stream = EventStreamFactory.build(turns=0)
    state = fold(stream.events)
    events = _next_events(state)
    with pytest.raises(GameNotFound):
        store.append("nope", state.version, events, apply_all(state, events))
    with pytest.raises(GameNotFound):
        store.load("nope")


def _assert_gap_free_single_winner(store: EventStore, game_id: str, version: int,
                                   outcomes: list[str]) -> None:
    assert sorted(outcomes) == ["conflict", "ok"]
    seqs = [s.seq for s in store.load(game_id)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert len(seqs) > version
    with store.unit_of_work(write=False) as uow:
        assert uow.games.get(game_id).summary.version == seqs[-1]


def _two_different_moves(state: GameState) -> tuple[list, list]:
    """Two different decisions from the same state (two writers disagree)."""
    from service.domain.rules import Advance, PlaceLine, legal_actions

    seat = state.turn
    lines = legal_actions(state).lines
    a = decide(state, PlaceLine(seat, *lines[0])) if lines else decide(state, Advance(seat))
    b = decide(state, Advance(seat))
    return a, b


def test_two_threads_racing_at_the_same_version_one_wins(services: Services) -> None:
    store = services.store
    for _round in range(3):
        game = GameFactory.create(services=services, turns=1)
        state = store.load_state(game.game_id)
        choices = _two_different_moves(state)
        barrier = threading.Barrier(2)
        outcomes: list[str] = []
        lock = threading.Lock()

        def writer(events: list, game_id: str = game.game_id, state: GameState = state,
                   barrier: threading.Barrier = barrier, lock: threading.Lock = lock,
                   outcomes: list[str] = outcomes) -> None:
            barrier.wait()
            try:
                store.append(game_id, state.version, events, apply_all(state, events))
                result = "ok"
            except VersionConflict:
                result = "conflict"
            with lock:
                outcomes.append(result)

        threads = [threading.Thread(target=writer, args=(c,)) for c in choices]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        _assert_gap_free_single_winner(store, game.game_id, state.version, outcomes)
        winner = store.load(game.game_id, after=state.version)
        assert [s.event for s in winner] in [list(c) for c in choices]


def _process_writer(url: str, game_id: str, choice: int, ready: object, start: object,
                    results: object) -> None:
    store = EventStore.from_url(url)
    try:
        state = store.load_state(game_id)
        events = _two_different_moves(state)[choice]
        ready.put(choice)  # type: ignore[attr-defined]
        start.wait()  # type: ignore[attr-defined]
        try:
            store.append(game_id, state.version, events, apply_all(state, events))
            results.put("ok")  # type: ignore[attr-defined]
        except VersionConflict:
            results.put("conflict")  # type: ignore[attr-defined]
    except BaseException as exc:  # report, never hang the parent
        results.put(f"error: {exc!r}")  # type: ignore[attr-defined]
        raise
    finally:
        store.dispose()


def test_two_processes_racing_at_the_same_version_one_wins(
    services: Services, database_url: str
) -> None:
    store = services.store
    game = GameFactory.create(services=services, turns=1)
    version = store.load_state(game.game_id).version
    ctx = multiprocessing.get_context("spawn")
    ready = ctx.Queue()
    start = ctx.Event()
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_process_writer,
                    args=(database_url, game.game_id, i, ready, start, results))
        for i in (0, 1)
    ]
    for p in procs:
        p.start()
    outcomes: list[str] = []
    try:
        # both processes have loaded the game and decided before they are released
        # together; the timeouts are no timing assertion, only a cap against a hung child.
        for _ in procs:
            ready.get(timeout=120)
        start.set()
        outcomes = [results.get(timeout=120) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=120)
    assert all(p.exitcode == 0 for p in procs), outcomes
    _assert_gap_free_single_winner(store, game.game_id, version, outcomes)


def test_a_failure_inside_a_use_case_leaves_no_partial_write(services: Services) -> None:
    """The high score insert fails (the unique (game_id, seat) key is already taken)
    inside the transaction that also appends game_over: nothing of it is stored."""
    stream = EventStreamFactory.build(mode="two_players", before_end=True, small=True)
    game = store_stream(services, stream)
    store = services.store
    with store.engine.begin() as conn:
        planted_id = conn.execute(
            insert(high_scores_table).values(
                name="Planted", score=1, difficulty="manual", game_id=game.game_id, seat=1,
                created_at=datetime.now(UTC), height=7, width=9, ranking="two_players",
                hints_recorded=True)
            .returning(high_scores_table.c.id)
        ).scalar_one()
    with store.unit_of_work(write=False) as uow:
        row_before = uow.games.get(game.game_id)
    events_before = [s.event for s in store.load(game.game_id)]

    command = stream.pending
    assert command is not None
    with pytest.raises(IntegrityError):
        if hasattr(command, "x"):
            services.play.place_line(game.game_id, game.token, command.x, command.y)
        else:
            services.play.advance(game.game_id, game.token)

    assert [s.event for s in store.load(game.game_id)] == events_before
    with store.unit_of_work(write=False) as uow:
        assert uow.games.get(game.game_id) == row_before
        assert [h.id for h in uow.high_scores.of_game(game.game_id)] == [planted_id]
    assert services.admin.verify(game.game_id) != []  # the planted row is not from the events


def test_snapshots_are_only_a_cache(services: Services) -> None:
    store = services.store
    game = GameFactory.create(services=services, turns=0)
    for _ in range(12):
        state = services.queries.get_state(game.game_id)
        command = Greedy().next_command(state)
        if hasattr(command, "x"):
            services.play.place_line(game.game_id, game.token, command.x, command.y)
        else:
            services.play.advance(game.game_id, game.token)
    version = services.queries.get_summary(game.game_id).version
    assert len(store.snapshots) > 0

    warm = [services.queries.get_state(game.game_id, at_step=k) for k in range(1, version + 1)]
    current = services.queries.get_state(game.game_id)
    # a caller mutating what it got does not reach the cache
    current.scores[0] += 100
    current.lines[1] = 0

    store.snapshots.clear()
    cold = [services.queries.get_state(game.game_id, at_step=k) for k in range(1, version + 1)]
    assert cold == warm
    assert services.queries.get_state(game.game_id) == warm[-1]
    assert warm[-1] == fold(s.event for s in services.queries.events_of(game.game_id))

    uncached = Services(EventStore(store.engine, snapshot_capacity=0))
    assert uncached.queries.get_state(game.game_id) == warm[-1]
    assert len(uncached.store.snapshots) == 0


def test_the_read_model_row_is_written_with_the_events(services: Services) -> None:
    game = GameFactory.create(services=services, turns=3)
    state = services.queries.get_state(game.game_id)
    with services.store.engine.begin() as conn:
        row = conn.execute(
            select(games_table).where(games_table.c.game_id == game.game_id)
        ).one()
        assert row.version == state.version
        assert (row.score1, row.score2) == tuple(state.scores)
        assert row.status == "active"
        assert conn.execute(select(func.count()).select_from(high_scores_table)
                                .where(high_scores_table.c.game_id == game.game_id)
                                ).scalar_one() == 0


def test_appends_store_the_same_column_formats_as_the_rest_of_the_store(
    services: Services, backend: str
) -> None:
    """On SQLite appends bypass SQLAlchemy's execution bookkeeping (not its SQL or
    its type processing); the rows look exactly like those written through Core."""
    game = GameFactory.create(services=services, turns=0)  # event 1 through Core
    services.play.advance(game.game_id, game.token)  # event 2 through the append path
    with services.store.engine.begin() as conn:
        raw = conn.exec_driver_sql(
            "SELECT seq, recorded_at, payload FROM events ORDER BY seq"
        ).all()
    if backend == "sqlite":
        pattern = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}"
        assert all(re.fullmatch(pattern, recorded_at) for _, recorded_at, _ in raw)
        assert all(json.loads(payload) for _, _, payload in raw)
    stored = services.queries.events_of(game.game_id)
    assert [s.event.to_dict()["data"] for s in stored] == [
        json.loads(p) if isinstance(p, str) else p for _, _, p in raw
    ]
    assert stored[1].recorded_at >= stored[0].recorded_at
