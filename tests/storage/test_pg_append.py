"""PostgreSQL's append in one statement (`store.pg_append`): one round trip, on its
own outside a transaction, unless the append enters high scores; a refused one
writes nothing, the positions counter included. (What every append must do, on
both databases, is `test_event_store.py`'s.)"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, select

from service.domain.events import Event, HighScoresEntered
from service.domain.fold import apply_all, fold
from service.domain.rules import decide
from service.errors import VersionConflict
from service.services import Services
from service.store import EventStore, events_table
from service.store.schema import event_positions_table
from squares_testing.greedy import Greedy
from tests.factories import EventStreamFactory, GameFactory, build_stream

pytestmark = pytest.mark.parametrize("backend", ["postgres"])


@contextmanager
def statements(store: EventStore) -> Iterator[list[tuple[str, bool]]]:
    """Each statement the store sends meanwhile: (its first word, whether its
    connection was in autocommit)."""
    sent: list[tuple[str, bool]] = []

    def note(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append((statement.split()[0].upper(),
                     conn.connection.dbapi_connection.autocommit))

    event.listen(store.engine, "before_cursor_execute", note)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", note)


def _positions(store: EventStore) -> tuple[int, list[int]]:
    with store.engine.connect() as conn:
        last = conn.execute(select(event_positions_table.c.last)).scalar_one()
        taken = conn.execute(select(events_table.c.position)).scalars().all()
    return last, sorted(taken)


def test_an_append_is_one_statement_outside_a_transaction(services: Services) -> None:
    store = services.store
    assert store.dialect == "postgresql"
    game = GameFactory.create(services=services, turns=1)
    state = store.load_state(game.game_id)
    events = decide(state, Greedy().next_command(state))
    with statements(store) as sent:
        stored = store.append(game.game_id, state.version, events, apply_all(state, events))
    assert sent == [("WITH", True)]
    assert [s.event for s in store.load(game.game_id)[state.version:]] == events
    last, taken = _positions(store)
    assert taken[-len(stored):] == list(range(last - len(stored) + 1, last + 1))


def test_an_append_that_enters_high_scores_keeps_its_transaction(
        services: Services) -> None:
    store = services.store
    stream = build_stream(seed=5, player_name="Ada", turns=None, height=7, width=9)
    ends = next(i for i, e in enumerate(stream.events) if isinstance(e, HighScoresEntered))
    before: list[Event] = stream.events[:ends]
    game_id = "ends-here"
    store.add_game(game_id, before, fold(before), token_hash="h", token_salt="00",
                   seed_secret=stream.state.secret_seed)
    with statements(store) as sent:
        store.append(game_id, len(before), stream.events[ends:], stream.state)
    # the events; the entry's name as shown (a forgotten name's placeholder); the entries
    assert [word for word, _ in sent] == ["WITH", "SELECT", "INSERT"]
    assert not any(autocommit for _, autocommit in sent)
    with store.unit_of_work(write=False) as uow:
        assert [e.game_id for e in uow.high_scores.of_game(game_id)] == [game_id]


def test_a_refused_append_takes_no_positions(services: Services) -> None:
    store = services.store
    stream = EventStreamFactory.build(turns=1)
    state = fold(stream.events)
    store.add_game("refused", stream.events, state, token_hash="h", token_salt="00")
    events = decide(state, Greedy().next_command(state))
    store.append("refused", state.version, events, apply_all(state, events))
    before = _positions(store)
    with pytest.raises(VersionConflict) as caught:
        store.append("refused", state.version, events, apply_all(state, events))
    assert caught.value.details == {"current_version": state.version + len(events)}
    assert _positions(store) == before


def test_an_append_is_announced_once_on_commit_and_a_refused_one_never(
        services: Services) -> None:
    """The live feed's ``NOTIFY`` (`notifications`) rides in the statement: one per
    append, with the game and its last seq; a refused append sends none."""
    store = services.store
    game = GameFactory.create(services=services, turns=1)
    state = store.load_state(game.game_id)
    events = decide(state, Greedy().next_command(state))
    with store.listen() as listener:
        stored = store.append(game.game_id, state.version, events, apply_all(state, events))
        with pytest.raises(VersionConflict):
            store.append(game.game_id, state.version, events, apply_all(state, events))
        heard = list(listener.changes(timeout=0.5))
    assert heard == [(game.game_id, stored[-1].seq)]
