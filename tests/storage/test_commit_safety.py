"""The snapshot cache holds committed states only, and a game never stays stuck on
the computer's turn; on every backend of the ``database_url`` fixture."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service.domain.commands import Advance, PlaceLine
from service.domain.events import Event, LinePlaced, StageAdvanced
from service.domain.fold import apply_all
from service.domain.rules import decide, legal_actions
from service.services import Services
from service.store import EventStore


class Boom(Exception):
    pass


def _two_workers(database_url: str) -> tuple[Services, Services]:
    """Two service layers on one database, as two app workers are."""
    return Services(EventStore.from_url(database_url)), Services(EventStore.from_url(database_url))


def test_a_rolled_back_append_never_reaches_the_cache(database_url: str) -> None:
    a, b = _two_workers(database_url)
    try:
        game = a.play.create_game(player_name="Ada", difficulty="easy", seed=8, height=9, width=11)
        state = a.queries.get_state(game.game_id)
        assert legal_actions(state).lines, "the position needs a stage-1 line"
        advance = decide(state, Advance(1))
        with pytest.raises(Boom), a.store.unit_of_work() as uow:
            uow.append(game.game_id, state.version, advance, apply_all(state, advance))
            raise Boom  # e.g. the response code fails before the commit
        x, y = legal_actions(state).lines[0]
        b.play.place_line(game.game_id, game.token, x, y, expected_version=state.version)

        seen_by_a = a.queries.get_state(game.game_id)
        assert seen_by_a == b.queries.get_state(game.game_id)
        assert seen_by_a.stage == 1 and seen_by_a.lines == b.store.load_state(
            game.game_id).lines
        assert a.admin.verify(game.game_id) == []
    finally:
        a.store.dispose()
        b.store.dispose()


def test_an_exception_after_append_publishes_nothing(database_url: str) -> None:
    store = EventStore.from_url(database_url)
    services = Services(store)
    try:
        game = services.play.create_game(player_name="Ada", seed=8, height=9, width=11)
        state = services.queries.get_state(game.game_id)
        store.snapshots.clear()
        x, y = legal_actions(state).lines[0]
        events = decide(state, PlaceLine(1, x, y))
        with pytest.raises(Boom), store.unit_of_work() as uow:
            uow.append(game.game_id, state.version, events, apply_all(state, events))
            assert uow.state(game.game_id)[1].version == state.version + len(events)
            raise Boom
        assert store.snapshots.latest(game.game_id, 10**6) is None
        assert services.queries.get_state(game.game_id) == state
    finally:
        store.dispose()


def _at_the_end_of_a_turn(services: Services) -> tuple[str, str]:
    """(game id, token) of a hard game whose human has only to advance from stage 3
    to end the turn."""
    game = services.play.create_game(player_name="Ada", difficulty="hard", seed=9)
    services.play.advance(game.game_id, game.token)  # stage 2
    state = services.queries.get_state(game.game_id)
    x, y = legal_actions(state).lines[0]
    services.play.place_line(game.game_id, game.token, x, y)
    services.play.advance(game.game_id, game.token)  # stage 3: the random pieces
    return game.game_id, game.token


def test_the_turn_ending_move_and_the_computers_turn_are_one_append(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The append that ends the human's turn fails (as if the worker died in it): it
    held the computer's whole turn too, so nothing is stored and nothing is owed."""
    services = Services(EventStore.from_url(database_url))
    try:
        game_id, token = _at_the_end_of_a_turn(services)
        before = services.queries.get_summary(game_id)
        appended: list[Sequence[Event]] = []

        def fail(self: EventStore, game: str, version: int, events: Sequence[Event],
                 after: object) -> object:
            appended.append(events)
            raise Boom("the worker died here")

        monkeypatch.setattr(EventStore, "append", fail)
        with pytest.raises(Boom):
            services.play.advance(game_id, token)
        monkeypatch.undo()
        [events] = appended
        assert [e.seat for e in events if isinstance(e, StageAdvanced)][:2] == [1, 2]
        assert any(isinstance(e, LinePlaced) and e.seat == 2 for e in events)
        assert services.queries.get_summary(game_id) == before
        assert services.admin.waiting_on_computer() == []
    finally:
        services.store.dispose()


def test_a_computer_turn_owed_is_played_by_the_next_read(database_url: str) -> None:
    """A game stored with the human's turn ended and no computer's turn after it (the
    service wrote the two in separate transactions until 2026-11-28, and a worker
    could die between them): verify lists it, the next read plays the turn."""
    services = Services(EventStore.from_url(database_url))
    try:
        game_id, _token = _at_the_end_of_a_turn(services)
        state = services.queries.get_state(game_id)
        ended = decide(state, Advance(1))
        services.store.append(game_id, state.version, ended, apply_all(state, ended))

        stuck = services.queries.get_summary(game_id)
        assert stuck.turn == 2 and stuck.stage == 1
        assert [w.game_id for w in services.admin.waiting_on_computer()] == [game_id]

        state = services.queries.get_state(game_id)  # a read plays the computer's turn
        assert state.turn == 1 and state.round == 2
        assert services.admin.waiting_on_computer() == []
        assert services.queries.get_summary(game_id).version == state.version
        assert services.admin.verify(game_id) == []
    finally:
        services.store.dispose()
