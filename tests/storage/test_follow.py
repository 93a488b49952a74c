"""Following a game (`Services.queries.follow`, what ``squares watch`` and an online game's
waiting seat poll) and a replay's score series (`Services.queries.score_series`), on every
backend; and on PostgreSQL, the statement timeout of the reads others wait for, and
which reads run without a transaction."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from service.domain.fold import fold
from service.domain.rules import legal_actions
from service.errors import DatabaseUnavailable, GameNotFound
from service.services import Services
from service.store import EventStore


def _new_game(services: Services) -> tuple[str, str]:
    created = services.play.create_game(player_name="Ada", height=7, width=9, seed=11)
    return created.game_id, created.token


def _move(services: Services, game_id: str, token: str) -> None:
    """The human's first legal move (the computer answers when the turn ends); none
    once the game is over."""
    state = services.queries.get_state(game_id)
    if state.over:
        return
    legal = legal_actions(state)
    if legal.lines:
        services.play.place_line(game_id, token, *legal.lines[0])
    else:
        services.play.advance(game_id, token)


def test_follow_hands_over_the_new_events_and_the_state_after_them(
        services: Services) -> None:
    game_id, token = _new_game(services)
    seen = services.queries.follow(game_id, after=0).state.version
    for _ in range(6):
        _move(services, game_id, token)
        followed = services.queries.follow(game_id, after=seen)
        assert [s.seq for s in followed.events] == list(range(seen + 1,
                                                              followed.state.version + 1))
        assert followed.events or followed.state.over, "a move is new events"
        assert followed.state == services.queries.get_state(game_id)
        seen = followed.state.version


def test_follow_with_nothing_new_has_no_events_and_the_state_now(services: Services) -> None:
    game_id, token = _new_game(services)
    _move(services, game_id, token)
    now = services.queries.get_state(game_id)
    followed = services.queries.follow(game_id, after=now.version)
    assert followed.events == [] and followed.state == now
    assert services.queries.follow(game_id, after=now.version + 5).events == []  # ahead: nothing


def test_follow_from_the_start_is_the_whole_stream_and_its_fold(services: Services) -> None:
    game_id, token = _new_game(services)
    for _ in range(4):
        _move(services, game_id, token)
    followed = services.queries.follow(game_id, after=0)
    assert [s.seq for s in followed.events] == list(range(1, followed.state.version + 1))
    folded = fold(s.event for s in followed.events)
    assert (folded.version, folded.scores, folded.lines) == (
        followed.state.version, followed.state.scores, followed.state.lines)


def test_follow_and_score_series_of_an_unknown_game(services: Services) -> None:
    with pytest.raises(GameNotFound):
        services.queries.follow("no-such-game", after=0)
    with pytest.raises(GameNotFound):
        services.queries.score_series("no-such-game")


def test_score_series_is_both_scores_after_each_step(services: Services) -> None:
    game_id, token = _new_game(services)
    for _ in range(12):
        _move(services, game_id, token)
    series = services.queries.score_series(game_id)
    state = services.queries.get_state(game_id)
    assert len(series) == state.version
    assert series[-1] == tuple(state.scores)
    for step in (1, 2, len(series) // 2, len(series)):
        assert series[step - 1] == tuple(services.queries.get_state(game_id, at_step=step).scores)
    assert any(score != (0, 0) for score in series) or state.scores == [0, 0]


# PostgreSQL only: SQLite has no statement timeout (its reads never wait for a writer).
@pytest.mark.parametrize("backend", ["postgres"])
def test_a_read_with_a_timeout_is_cancelled_past_it_and_only_that_one(
        store: EventStore) -> None:
    assert store.dialect == "postgresql"
    with pytest.raises(DatabaseUnavailable) as caught, \
            store.unit_of_work(write=False, timeout_s=0.05) as uow:
        uow.events._conn.exec_driver_sql("SELECT pg_sleep(2)")
    cause = caught.value.__cause__
    assert isinstance(cause, OperationalError)
    assert getattr(cause.orig, "sqlstate", None) == "57014"  # query_canceled
    with store.unit_of_work(write=False) as uow:  # SET LOCAL: the next one has the default
        assert uow.events._conn.exec_driver_sql("SHOW statement_timeout").scalar() == "3s"


@pytest.mark.parametrize("backend", ["postgres"])
def test_a_bare_read_runs_each_statement_on_its_own(store: EventStore) -> None:
    """A read without a timeout saves the BEGIN and COMMIT round trips (at READ
    COMMITTED a transaction gives a read nothing); a read with a timeout (SET LOCAL)
    and every write run in a transaction, also on a pooled connection a bare read
    had before."""
    def in_a_transaction(conn: Connection) -> bool:
        conn.exec_driver_sql("SELECT pg_sleep(0.01)")
        # now() is when the transaction began, statement_timestamp() this statement
        return bool(conn.exec_driver_sql("SELECT now() < statement_timestamp()").scalar())

    assert store.dialect == "postgresql"
    for _ in range(2):
        with store.unit_of_work(write=False) as uow:
            assert not in_a_transaction(uow.events._conn)
        with store.unit_of_work(write=False, timeout_s=1.0) as uow:
            assert in_a_transaction(uow.events._conn)
        with store.unit_of_work() as uow:
            assert in_a_transaction(uow.events._conn)
