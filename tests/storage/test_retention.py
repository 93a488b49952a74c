"""Retention on a real database (SQLite and PostgreSQL): games past their time are
abandoned by the next read or command and by the sweep (one event, whoever comes
first), leave the active lists at once, are refused every move, and are pruned
later; each client address holds a limited number of active games; migration 0006."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select, update

from service.domain.commands import RuleViolation
from service.domain.events import GameAbandoned
from service.errors import GameNotFound, InviteExpired, TooManyGames
from service.ops.settings import CLIENT_SALT_DEFAULT, SettingError, Settings
from service.services import CreatedGame, Services, security
from service.store import (
    EventStore,
    downgrade,
    events_table,
    games_table,
    make_engine,
    migrate,
    utcnow,
)
from tests.databases import inspector
from tests.factories import GameFactory

DAY = timedelta(days=1)
WEEK = timedelta(days=7)


def _game(services: Services, **kwargs: object) -> CreatedGame:
    return services.play.create_game(player_name="Ada", height=7, width=9, seed=11,
                                **kwargs)  # type: ignore[arg-type]


def _online(services: Services) -> CreatedGame:
    return services.play.create_game(player_name="Ann", mode="online", height=7, width=9, seed=12)


def _age(services: Services, game_id: str, by: timedelta) -> None:
    """Move a whole game `by` into the past: its events' times and its row's, so that
    the read model still says what the events say."""
    with services.store.engine.begin() as conn:
        for row in conn.execute(select(events_table.c.seq, events_table.c.recorded_at)
                                .where(events_table.c.game_id == game_id)).all():
            conn.execute(update(events_table)
                         .where(events_table.c.game_id == game_id,
                                events_table.c.seq == row.seq)
                         .values(recorded_at=row.recorded_at - by))
        game = conn.execute(select(games_table).where(games_table.c.game_id == game_id)).one()
        conn.execute(update(games_table).where(games_table.c.game_id == game_id).values(
            created_at=game.created_at - by, updated_at=game.updated_at - by,
            finished_at=None if game.finished_at is None else game.finished_at - by))
    services.store.snapshots.clear()


def _types(services: Services, game_id: str) -> list[str]:
    return [s.event.TYPE for s in services.queries.events_of(game_id)]


def _creator(services: Services, game_id: str) -> str | None:
    with services.store.engine.connect() as conn:
        return conn.execute(select(games_table.c.creator)
                            .where(games_table.c.game_id == game_id)).scalar()


def _at(services: Services, moment: datetime) -> None:
    services.clock = lambda: moment


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


# -- prune ----------------------------------------------------------------------------


def test_prune_deletes_only_abandoned_games_abandoned_long_enough_ago(
        services: Services) -> None:
    old = _game(services)
    recent = _game(services)
    _at(services, utcnow() + WEEK + DAY)
    assert len(services.retention.abandon_stale().abandoned) == 2
    services.clock = utcnow
    _age(services, old.game_id, 31 * DAY)  # abandoned 31 days ago
    _age(services, recent.game_id, 29 * DAY)
    done = GameFactory.create(services=services, finished=True, small=True)
    _age(services, done.game_id, 60 * DAY)
    idle = _game(services)
    _age(services, idle.game_id, 40 * DAY)  # due, but not abandoned yet: not pruned

    assert services.retention.prune_abandoned(30 * DAY) == 1
    with pytest.raises(GameNotFound):
        services.queries.get_summary(old.game_id)
    assert services.queries.get_summary(recent.game_id).status == "abandoned"
    assert services.queries.get_summary(done.game_id).status == "finished"
    assert services.queries.get_summary(idle.game_id).status == "active"
    assert services.retention.prune_abandoned(30 * DAY) == 0
    assert services.retention.prune_abandoned(30 * DAY, now=utcnow() + 2 * DAY) == 1  # recent's turn
    assert services.admin.prune_unfinished(30 * DAY) == 1  # any unfinished game: the idle one
    assert services.queries.list_games()[1] == 1  # the finished game stays
    assert services.admin.verify() == []


# -- the cap per client address -------------------------------------------------------


def test_each_address_holds_at_most_its_cap_of_active_games(services: Services) -> None:
    services.active_games_per_client = 3
    mine = [_game(services, client_address="203.0.113.7") for _ in range(3)]
    with pytest.raises(TooManyGames) as refused:
        _game(services, client_address="203.0.113.7")
    assert refused.value.details == {"limit": 3}
    assert services.queries.list_games()[1] == 3  # nothing written
    _game(services, client_address="198.51.100.1")  # another address
    _game(services)  # no address (the CLI): no cap
    # an address's games stop counting once they end: here, past their time
    _age(services, mine[0].game_id, WEEK + DAY)
    _game(services, client_address="203.0.113.7")
    services.retention.abandon_stale()
    assert _creator(services, mine[0].game_id) is None  # kept only while active
    with pytest.raises(TooManyGames):
        _game(services, client_address="203.0.113.7")
    services.active_games_per_client = 0  # no cap
    _game(services, client_address="203.0.113.7")


def test_the_creator_is_stored_as_a_keyed_hash_never_the_address(
        services: Services) -> None:
    game = _game(services, client_address="2001:db8::7")
    stored = _creator(services, game.game_id)
    assert stored == security.client_key("2001:db8::7", CLIENT_SALT_DEFAULT)
    assert stored is not None and "2001" not in stored and len(stored) == 64
    assert security.client_key("2001:db8::7", "another key") != stored
    # one IPv6 client holds a whole /64: it counts as one address
    assert security.client_key("2001:db8::ffff:1", CLIENT_SALT_DEFAULT) == stored
    assert _creator(services, _game(services).game_id) is None


# -- the record stays consistent -----------------------------------------------------------


def test_verify_export_import_and_rebuild_take_abandoned_games(services: Services) -> None:
    played = GameFactory.create(services=services, turns=1, small=True, seed=3)
    assert not played.state.over
    waiting = _online(services)
    _at(services, utcnow() + WEEK + DAY)
    assert len(services.retention.abandon_stale().abandoned) == 2
    assert services.admin.verify() == []
    exported = services.admin.export_game(played.game_id)
    events = exported.rsplit("\n", 2)[0] + "\n"  # without the signature line
    assert events.endswith('{"data":{"reason":"idle"},"type":"game_abandoned","v":1}\n'
                           '{"data":{"seed":"3"},"type":"seed_revealed","v":1}\n')
    services.admin.delete_game(played.game_id)
    again = services.admin.import_game(exported)
    assert services.queries.get_summary(again).status == "abandoned"
    assert services.queries.get_state(again).abandoned == "idle"
    with services.store.engine.begin() as conn:  # a stale read model ...
        conn.execute(update(games_table).where(games_table.c.game_id == waiting.game_id)
                     .values(status="active"))
    assert [p.kind for p in services.admin.verify(waiting.game_id)] == ["read_model"]
    assert services.admin.rebuild_read_model(waiting.game_id) == 1  # ... rebuilt from the events
    assert services.queries.get_summary(waiting.game_id).status == "abandoned"
    assert services.admin.verify() == []


def test_live_page_ends_the_feed_of_an_abandoned_game(services: Services) -> None:
    game = _game(services)
    assert services.queries.live_page(game.game_id, 0)[2] is False
    _at(services, utcnow() + WEEK + DAY)
    services.retention.abandon_stale()
    events, version, over = services.queries.live_page(game.game_id, 0)
    assert over and version == 2 and isinstance(events[-1].event, GameAbandoned)


# -- migration 0006 -----------------------------------------------------------------------


def _games_schema(url: str) -> tuple[set[str], set[str]]:
    with inspector(url) as found:
        return ({c["name"] for c in found.get_columns("games")},
                {i["name"] for i in found.get_indexes("games")})


def test_migration_0006_adds_the_creator_and_the_indexes_and_takes_them_back(
        empty_database_url: str) -> None:
    url = empty_database_url
    migrate(url, "0005")
    assert "creator" not in _games_schema(url)[0]
    migrate(url)
    columns, indexes = _games_schema(url)
    assert "creator" in columns
    assert {"ix_games_status_updated_at", "ix_games_creator_status"} <= indexes
    services = Services.from_url(url)
    try:
        kept = _game(services, client_address="192.0.2.1")
        assert _creator(services, kept.game_id) is not None
        abandoned = _game(services)
        _age(services, abandoned.game_id, WEEK + DAY)
        assert services.retention.abandon_stale().abandoned == ((abandoned.game_id, "idle"),)
    finally:
        services.store.dispose()

    downgrade(url, "0005")
    columns, indexes = _games_schema(url)
    assert "creator" not in columns
    assert not {"ix_games_status_updated_at", "ix_games_creator_status"} & indexes
    engine = make_engine(url)
    try:  # every row stays, the abandoned game's event too
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(games_table)).scalar() == 2
            assert conn.execute(select(func.count()).select_from(events_table).where(
                events_table.c.type == "game_abandoned")).scalar() == 1
    finally:
        engine.dispose()
    migrate(url)
    services = Services.from_url(url)
    try:
        assert _creator(services, kept.game_id) is None  # old rows: NULL
        assert services.queries.get_summary(abandoned.game_id).status == "abandoned"
        assert services.admin.verify() == []
    finally:
        services.store.dispose()
