"""Retention on a real database (SQLite and PostgreSQL): games past their time are
abandoned by the next read or command and by the sweep (one event, whoever comes
first), leave the active lists at once and are refused every move; the setting comes
from the environment, and two sweeps or two abandonments at once write one event."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from service.domain.commands import RuleViolation
from service.errors import InviteExpired
from service.ops.settings import SettingError, Settings
from service.services import Services
from service.store import EventStore, utcnow
from tests.factories import GameFactory

from .retention_helpers import DAY, WEEK, _age, _at, _game, _online, _types

# -- abandoned by the next read or command --------------------------------------------


def test_an_idle_game_is_abandoned_by_its_next_read_after_the_setting(
        services: Services) -> None:
    game = _game(services)
    created = game.events[-1].recorded_at
    _at(services, created + WEEK - timedelta(seconds=1))
    assert services.queries.get_state(game.game_id).abandoned is None
    assert services.queries.get_summary(game.game_id).status == "active"

    _at(services, created + WEEK)
    state = services.queries.get_state(game.game_id)
    assert state.over and state.abandoned == "idle" and state.winner is None
    summary = services.queries.get_summary(game.game_id)
    assert (summary.status, summary.winner, summary.finished_at) == ("abandoned", None, None)
    assert summary.version == game.state.version + 1
    assert _types(services, game.game_id)[-1] == "game_abandoned"
    assert services.queries.get_state(game.game_id).version == summary.version  # once
    assert services.admin.verify() == []


def test_the_setting_comes_from_the_environment(services: Services,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    assert services.abandon_after == WEEK  # the default
    for raw, expected in (("12h", timedelta(hours=12)), ("90", timedelta(seconds=90)),
                          ("2w", 2 * WEEK)):
        monkeypatch.setenv("SQUARES_ABANDON_AFTER", raw)
        assert Settings.from_env().abandon_after == expected
    for bad in ("soon", "30", "-5m"):
        monkeypatch.setenv("SQUARES_ABANDON_AFTER", bad)
        with pytest.raises(SettingError, match="SQUARES_ABANDON_AFTER="):
            Settings.from_env()
    monkeypatch.setenv("SQUARES_ABANDON_AFTER", "1h")
    services.abandon_after = Settings.from_env().abandon_after  # as a new process reads it
    game = _game(services)
    _at(services, utcnow() + timedelta(hours=1, seconds=1))
    assert services.queries.get_state(game.game_id).abandoned == "idle"


def test_a_move_on_an_abandoned_game_is_refused_and_writes_nothing(
        services: Services) -> None:
    game = _game(services)
    _at(services, utcnow() + WEEK + DAY)
    with pytest.raises(RuleViolation) as refused:  # due: the move abandons it first
        services.play.advance(game.game_id, game.token)
    assert refused.value.code == "game_abandoned"
    version = services.queries.get_summary(game.game_id).version
    assert version == game.state.version + 1
    for move in (lambda: services.play.advance(game.game_id, game.token),
                 lambda: services.play.place_line(game.game_id, game.token, 1, 0),
                 lambda: services.play.hint(game.game_id)):
        with pytest.raises(RuleViolation) as again:
            move()
        assert again.value.code == "game_abandoned"
    assert services.queries.get_summary(game.game_id).version == version
    assert services.admin.verify() == []


def test_an_abandoned_game_is_never_a_computer_turn(services: Services) -> None:
    game = services.play.create_game(player_name="sim", mode="computer_vs_computer",
                                difficulty="easy", second_level="easy", height=7, width=9,
                                seed=3)
    _at(services, utcnow() + WEEK + DAY)
    with pytest.raises(RuleViolation) as refused:
        services.play.play_computer_turn(game.game_id)
    assert refused.value.code == "game_abandoned"
    assert services.queries.get_summary(game.game_id).status == "abandoned"


# -- the sweep ----------------------------------------------------------------------


def test_the_sweep_abandons_idle_games_and_expired_invitations_only(
        services: Services) -> None:
    now = utcnow()
    idle = _game(services)
    _age(services, idle.game_id, WEEK + DAY)
    fresh = _game(services)
    done = GameFactory.create(services=services, finished=True, small=True)
    _age(services, done.game_id, 4 * WEEK)
    expired = _online(services)
    claimed = _online(services)
    assert claimed.invite is not None
    services.play.claim_seat(claimed.game_id, claimed.invite.code, "Bob")

    later = now + DAY + timedelta(seconds=1)  # past the invitations' day
    sweep = services.retention.abandon_stale(later)
    assert sorted(sweep.abandoned) == sorted([(idle.game_id, "idle"),
                                              (expired.game_id, "invite_expired")])
    assert services.retention.abandon_stale(later).abandoned == ()  # nothing twice
    statuses = {g: services.queries.get_summary(g).status
                for g in (idle.game_id, fresh.game_id, done.game_id, expired.game_id,
                          claimed.game_id)}
    assert statuses == {idle.game_id: "abandoned", fresh.game_id: "active",
                        done.game_id: "finished", expired.game_id: "abandoned",
                        claimed.game_id: "active"}
    assert not any(h.game_id in (idle.game_id, expired.game_id)
                   for h in services.queries.high_scores(100))
    assert services.admin.verify() == []


def test_an_expired_invitation_leaves_the_live_list_before_the_sweep(
        services: Services) -> None:
    waiting = _online(services)
    other = _game(services)
    _at(services, utcnow() + DAY + timedelta(seconds=1))

    def live_ids() -> list[str]:
        games, total = services.queries.list_games(status="active", by_last_move=True)
        assert total == len(games)
        return [g.game_id for g in games]

    assert services.queries.get_summary(waiting.game_id).status == "active"  # nothing written yet
    assert live_ids() == [other.game_id]
    with pytest.raises(InviteExpired):  # the claim is refused and writes nothing
        assert waiting.invite is not None
        services.play.claim_seat(waiting.game_id, waiting.invite.code, "Bob")
    assert _types(services, waiting.game_id) == ["game_created"]
    assert services.queries.get_state(waiting.game_id).abandoned == "invite_expired"  # a read
    assert live_ids() == [other.game_id]
    assert [g.game_id for g in services.queries.list_games(status="abandoned")[0]] == [
        waiting.game_id]


def test_an_idle_game_leaves_the_active_list_before_the_sweep(services: Services) -> None:
    idle = _game(services)
    _age(services, idle.game_id, WEEK)
    fresh = _game(services)
    assert [g.game_id for g in services.queries.list_games(status="active")[0]] == [fresh.game_id]
    assert services.queries.list_games()[1] == 2  # still listed among all games


def test_two_sweeps_at_once_write_one_abandonment_each(database_url: str) -> None:
    """Four processes' worth of services (each its own engine) sweep together."""
    setup = Services.from_url(database_url)
    try:
        games = [_game(setup) for _ in range(3)]
        for game in games:
            _age(setup, game.game_id, WEEK + DAY)
    finally:
        setup.store.dispose()
    sweepers = [Services(EventStore.from_url(database_url)) for _ in range(4)]
    barrier = threading.Barrier(len(sweepers))
    results: list[int] = []

    def sweep(services: Services) -> None:
        barrier.wait()
        results.append(len(services.retention.abandon_stale().abandoned))

    threads = [threading.Thread(target=sweep, args=(s,)) for s in sweepers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    try:
        assert sum(results) == len(games)
        check = sweepers[0]
        for game in games:
            assert _types(check, game.game_id).count("game_abandoned") == 1
        assert check.admin.verify() == []
    finally:
        for s in sweepers:
            s.store.dispose()


def test_the_version_check_lets_one_of_two_abandonments_write(
        database_url: str) -> None:
    first, second = (Services(EventStore.from_url(database_url)) for _ in range(2))
    try:
        game = _game(first)
        stale = [s.retention._load(game.game_id) for s in (first, second)]  # both read version 1
        assert first.retention._abandon(game.game_id, stale[0][1], "idle") is not None
        assert second.retention._abandon(game.game_id, stale[1][1], "idle") is None
        assert _types(first, game.game_id) == ["game_created", "game_abandoned"]
    finally:
        first.store.dispose()
        second.store.dispose()
