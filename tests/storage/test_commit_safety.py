"""The snapshot cache holds committed states only, and a game never stays stuck on
the computer's turn; on every backend of the ``database_url`` fixture."""

from __future__ import annotations

import pytest

from service.domain.commands import Advance, PlaceLine
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


def test_a_computer_turn_lost_to_a_crash_is_played_by_the_next_read(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The human's turn-ending write commits, the computer's write fails (as if the
    worker died between the two); verify lists the game, the next read plays it."""
    services = Services(EventStore.from_url(database_url))
    try:
        game = services.play.create_game(player_name="Ada", difficulty="hard", seed=9)
        services.play.advance(game.game_id, game.token)  # stage 2
        state = services.queries.get_state(game.game_id)
        x, y = legal_actions(state).lines[0]
        services.play.place_line(game.game_id, game.token, x, y)
        services.play.advance(game.game_id, game.token)  # stage 3: the random pieces

        real_append = EventStore.append

        def fail_the_computers(self: EventStore, *args: object) -> object:
            if services.queries.get_summary(game.game_id).turn == 2:  # the human's turn is stored
                raise Boom("the worker died here")
            return real_append(self, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(EventStore, "append", fail_the_computers)
        with pytest.raises(Boom):
            services.play.advance(game.game_id, game.token)  # ends the turn; computer's fails
        monkeypatch.setattr(EventStore, "append", real_append)

        stuck = services.queries.get_summary(game.game_id)
        assert stuck.turn == 2 and stuck.stage == 1
        assert [w.game_id for w in services.admin.waiting_on_computer()] == [game.game_id]

        state = services.queries.get_state(game.game_id)  # a read plays the computer's turn
        assert state.turn == 1 and state.round == 2
        assert services.admin.waiting_on_computer() == []
        assert services.queries.get_summary(game.game_id).version == state.version
        assert services.admin.verify(game.game_id) == []
    finally:
        services.store.dispose()
