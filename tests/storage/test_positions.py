"""The global order of events (`store.positions`): every append takes the next
positions, and a follower reading "after p" up to the last position given never
misses an event that commits later (on both databases, under concurrent appends)."""

from __future__ import annotations

import threading

import pytest

from service.domain.fold import apply, fold
from service.services import Services
from service.store import EventStore
from tests.factories import build_stream, store_stream


def _positions(store: EventStore) -> list[tuple[int, str, int]]:
    with store.unit_of_work(write=False) as uow:
        return [(n.position, n.game_id, n.seq) for n in uow.log.after(0, 100_000)]


def test_appends_take_the_next_positions_in_order(services: Services) -> None:
    first = store_stream(services, build_stream(seed=1, player_name="Ada", turns=1))
    second = store_stream(services, build_stream(seed=2, player_name="Bo", turns=1))
    rows = _positions(services.store)
    assert [p for p, _, _ in rows] == list(range(1, len(rows) + 1))
    ids = [g for _, g, _ in rows]
    assert ids == sorted(ids, key=[first.game_id, second.game_id].index)  # game by game
    for game_id in (first.game_id, second.game_id):
        assert [s for _, g, s in rows if g == game_id] == sorted(
            s for _, g, s in rows if g == game_id)
    with services.store.unit_of_work(write=False) as uow:
        assert uow.log.last() == len(rows)


def test_a_rolled_back_append_gives_its_positions_back(services: Services) -> None:
    stream = build_stream(seed=3, player_name="Cem", turns=1)
    store_stream(services, stream)
    before = _positions(services.store)
    more = build_stream(seed=4, player_name="Dua", turns=1)
    try:
        with services.store.unit_of_work() as uow:
            uow.add_game("rolled-back", more.events, more.state, token_hash="h", token_salt="s")
            raise RuntimeError("the use case fails after its append")
    except RuntimeError:
        pass
    assert _positions(services.store) == before
    created = store_stream(services, more)
    after = _positions(services.store)
    assert after[len(before)][0] == before[-1][0] + 1  # no gap where the rollback was
    assert {g for _, g, _ in after[len(before):]} == {created.game_id}


def test_a_follower_misses_nothing_under_concurrent_appends(store: EventStore) -> None:
    """Writers append event by event to their own games while a follower reads after
    its position up to the last position given, again and again: it sees every
    event once, in position order."""
    writers = 4
    done = threading.Event()
    errors: list[BaseException] = []
    seen: list[int] = []

    def write(seed: int) -> None:
        try:
            events = build_stream(seed=seed, player_name="W", turns=8, ranked=False).events
            game_id = f"writer-{seed}"
            state = fold(events[:1])
            store.add_game(game_id, events[:1], state, token_hash="h", token_salt="s")
            for event in events[1:]:
                after = apply(state, event)
                store.append(game_id, state.version, [event], after)
                state = after
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    def follow() -> None:
        position = 0
        while True:
            finished = done.is_set()
            with store.unit_of_work(write=False) as uow:
                last = uow.log.last()  # first: all up to it is committed
                page = uow.log.after(position, 500, upto=last)
            seen.extend(n.position for n in page)
            position = page[-1].position if len(page) == 500 else last
            if finished and len(page) < 500:
                return

    threads = [threading.Thread(target=write, args=(20 + i,)) for i in range(writers)]
    follower = threading.Thread(target=follow)
    follower.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done.set()
    follower.join()
    assert not errors
    stored = [p for p, _, _ in _positions(store)]
    assert len(stored) > 200
    assert seen == stored  # each once, in order, none missed
    assert stored == list(range(1, len(stored) + 1))


@pytest.mark.parametrize("backend", ["postgres"])
def test_each_committed_append_notifies_its_game_and_last_seq(store: EventStore) -> None:
    """PostgreSQL's ``NOTIFY`` (sent with the positions' update, `positions`): one per
    committed append, naming the game and its last seq; none for a rolled-back one."""
    events = build_stream(seed=5, player_name="Ece", turns=2, ranked=False).events
    with store.listen() as listener:
        state = fold(events[:1])
        store.add_game("told", events[:1], state, token_hash="h", token_salt="s")
        after = fold(events[:4])
        store.append("told", state.version, events[1:4], after)
        with pytest.raises(RuntimeError), store.unit_of_work() as uow:
            uow.append("told", after.version, events[4:5], apply(after, events[4]))
            raise RuntimeError("the use case fails after its append")
        heard = list(listener.changes(timeout=0.5))
    assert heard == [("told", 1), ("told", 4)]
