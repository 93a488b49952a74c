"""Alembic is the only way the schema changes: the migrations build exactly the
tables the store declares, and downgrade base / upgrade head work with data present."""

from __future__ import annotations

import multiprocessing

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from service.domain.names import name_key
from service.errors import GameExists
from service.ops import settings
from service.ops.database_urls import sqlalchemy_url
from service.ops.settings import Settings
from service.services import CreatedGame, Services
from service.store import ADMIN, REQUEST, EventStore, downgrade, make_engine, metadata, migrate
from squares_testing.play import play_unassisted
from tests.databases import inspector
from tests.factories import GameFactory

E2 = {"Eda Fırat": 200, "Tarık Yolcu": 325, "Sinem Okur": 153, "Ali Okyanus": 26,
      "Deniz Vadi": 85}


def _tables(url: str) -> set[str]:
    with inspector(url) as found:
        return set(found.get_table_names())


def test_rule_E2_default_high_scores_come_from_the_first_migration(
    empty_database_url: str,
) -> None:
    migrate(empty_database_url)
    services = Services.from_url(empty_database_url)
    try:
        assert {h.name: h.score for h in services.queries.high_scores(100)} == E2
        assert [h.score for h in services.queries.high_scores()] == sorted(E2.values(), reverse=True)
    finally:
        services.store.dispose()
    migrate(empty_database_url)  # idempotent: never duplicated (RULES E3)
    services = Services.from_url(empty_database_url)
    try:
        assert len(services.queries.high_scores(100)) == 5
    finally:
        services.store.dispose()


def test_the_migrations_build_exactly_the_declared_schema(empty_database_url: str) -> None:
    migrate(empty_database_url)
    engine = make_engine(empty_database_url)
    try:
        with engine.connect() as conn:
            assert compare_metadata(MigrationContext.configure(conn), metadata) == []
    finally:
        engine.dispose()


def _finished_game_at_head(url: str) -> tuple[CreatedGame, str]:
    """Migrate `url` to head and store a finished game, played move by move (one
    stored whole would look imported to migration 0011); the game and its export."""
    migrate(url)
    services = Services.from_url(url)
    try:
        game = services.play.create_game(player_name="Ayşe", height=7, width=9,
                                    difficulty="easy")
        play_unassisted(services, game.game_id, game.token, game.state)
        return game, services.admin.export_game(game.game_id)
    finally:
        services.store.dispose()


def test_migration_round_trip_with_data_present(empty_database_url: str) -> None:
    url = empty_database_url
    game, exported = _finished_game_at_head(url)

    downgrade(url, "0001")
    assert {"events", "games", "high_scores"} <= _tables(url)
    migrate(url)
    services = Services.from_url(url)
    assert services.admin.export_game(game.game_id) == exported
    assert services.admin.verify() == []
    services.store.dispose()

    downgrade(url)
    assert _tables(url) <= {"alembic_version"}
    migrate(url)
    services = Services.from_url(url)
    try:
        assert services.queries.list_games() == ([], 0)
        assert {h.name: h.score for h in services.queries.high_scores(100)} == E2
        new_id = services.admin.import_game(exported)  # the schema takes the data again
        assert services.admin.export_game(new_id) == exported
    finally:
        services.store.dispose()


def test_database_url_defaults_to_the_instance_sqlite_file(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert Settings.from_env().database_url == \
        f"sqlite:///{settings.REPO_ROOT / 'instance' / 'squares.db'}"
    monkeypatch.setenv("DATABASE_URL", "postgresql://u@127.0.0.1:5/db")
    url = Settings.from_env().database_url
    assert url == "postgresql://u@127.0.0.1:5/db"
    assert sqlalchemy_url(url) == "postgresql+psycopg://u@127.0.0.1:5/db"
    assert sqlalchemy_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_sqlite_connections_use_the_documented_pragmas(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'sub' / 'dir' / 'squares.db'}"  # the directory is created
    migrate(url)
    for patience, busy_ms in ((REQUEST, 5000), (ADMIN, 30000)):  # a request's, the CLI's
        store = EventStore.from_url(url, patience)
        try:
            with store.engine.connect() as conn:
                pragma = {name: conn.exec_driver_sql(f"PRAGMA {name}").scalar()
                          for name in ("journal_mode", "foreign_keys", "busy_timeout",
                                       "synchronous")}
            assert pragma == {"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": busy_ms,
                              "synchronous": 2}  # 2 = FULL
        finally:
            store.dispose()


def _migrate_in_child(url: str) -> None:
    migrate(url)


def test_two_processes_migrating_a_new_database_together(empty_database_url: str) -> None:
    """Two server workers starting at once: both succeed, defaults not duplicated (E3)."""
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_migrate_in_child, args=(empty_database_url,)) for _ in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0]
    services = Services.from_url(empty_database_url)
    try:
        assert {h.name: h.score for h in services.queries.high_scores(100)} == E2
    finally:
        services.store.dispose()


def _columns(url: str) -> dict[str, set[str]]:
    with inspector(url) as found:
        return {t: {c["name"] for c in found.get_columns(t)}
                for t in found.get_table_names() if t != "alembic_version"}


def test_0003_renames_the_schema_version_column_and_keeps_every_row(
        empty_database_url: str) -> None:
    url = empty_database_url
    game, exported = _finished_game_at_head(url)

    downgrade(url, "0002")
    assert {"version", "seq"} <= _columns(url)["events"]
    assert "schema_version" not in _columns(url)["events"]
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            versions = conn.exec_driver_sql("SELECT DISTINCT version FROM events").scalars()
            # stage_advanced v1, line_placed v2, high_scores_entered v2, game_created v4, ...
            assert set(versions) == {1, 2, 4}
            count = conn.exec_driver_sql("SELECT count(*) FROM events").scalar()
            assert count == exported.count("\n") - 1  # the events, not the signature
    finally:
        engine.dispose()

    migrate(url)
    assert "schema_version" in _columns(url)["events"]
    services = Services.from_url(url)
    try:
        assert services.admin.export_game(game.game_id) == exported
        assert services.admin.verify() == []
    finally:
        services.store.dispose()


def test_every_migration_declares_what_its_downgrade_drops(empty_database_url: str) -> None:
    """`DOWNGRADE_DROPS` (which `squares db downgrade` counts rows of) is what each
    downgrade really removes; a rename (a column lost and one gained) drops nothing."""
    from service.store.migrations import script_directory

    url = empty_database_url
    migrate(url)
    for script in script_directory().walk_revisions():  # newest first
        before = _columns(url)
        downgrade(url, script.down_revision or "base")
        after = _columns(url)
        declared: dict[str, tuple[str, ...]] = script.module.DOWNGRADE_DROPS
        assert {t for t in before if t not in after} == {t for t, c in declared.items() if not c}
        for table in set(before) & set(after):
            lost, gained = before[table] - after[table], after[table] - before[table]
            dropped = lost if not gained else set()
            assert len(lost) >= len(gained)
            assert dropped == set(declared.get(table, ())), (script.revision, table)


def test_0004_fills_the_field_size_of_existing_games_and_their_high_scores(
        empty_database_url: str) -> None:
    url = empty_database_url
    migrate(url)
    services = Services.from_url(url)
    game = GameFactory.create(services=services, finished=True, small=True)  # 7 x 9
    services.store.dispose()
    downgrade(url, "0003")
    migrate(url)
    services = Services.from_url(url)
    try:
        summary = services.queries.get_summary(game.game_id)
        assert (summary.height, summary.width) == (7, 9)
        with services.store.unit_of_work(write=False) as uow:
            rows = uow.high_scores.of_game(game.game_id)
        assert [(h.height, h.width) for h in rows] == [(7, 9)]
        # rows without a game: the default field's (migration 0011)
        assert {(h.game_id, h.height, h.width) for h in services.queries.high_scores(100)} == {
            (None, 19, 33)}
        assert services.admin.verify() == []
    finally:
        services.store.dispose()


def test_RULES_E1_M2_0011_sorts_existing_entries_into_their_tables(
        empty_database_url: str) -> None:
    """RULES E1, M2 for the rows of before: two-player and online entries move to their
    mode's table, an imported game (its events stamped with one time, no signature then)
    becomes an archive game whose entries are ranked nowhere, entries of games keep
    their table marked "hints not recorded", rows without a field join the default
    field."""
    url = empty_database_url
    migrate(url)
    services = Services.from_url(url)
    try:
        solo, pair = (services.play.create_game(player_name=name, height=7, width=9,
                                           difficulty="easy", mode=mode,
                                           second_name=second)
                      for name, mode, second in (("Ayşe", "vs_computer", None),
                                                 ("Ali", "two_players", "Veli")))
        for game in (solo, pair):  # played move by move, as a server plays them
            play_unassisted(services, game.game_id, game.token, game.state)
        exported = services.admin.export_game(solo.game_id)
        services.admin.delete_game(solo.game_id)  # its entry stays, without its game
        imported = services.admin.import_game(exported)
    finally:
        services.store.dispose()
    downgrade(url, "0010")
    migrate(url)
    services = Services.from_url(url)
    try:
        assert services.queries.get_summary(imported).origin == "archive"  # one time stamp
        assert services.queries.get_summary(pair.game_id).origin == "here"
        main = services.queries.high_scores(100, height=7, width=9)
        assert [(h.game_id, h.seat, h.hints_recorded) for h in main] == [(None, 1, False)]
        pairs = services.queries.high_scores(100, height=7, width=9, mode="two_players")
        assert sorted((h.game_id, h.seat, h.ranking) for h in pairs) == [
            (pair.game_id, 1, "two_players"), (pair.game_id, 2, "two_players")]
        with services.store.unit_of_work(write=False) as uow:
            archived = uow.high_scores.of_game(imported)
        assert [(h.ranking, h.hints_recorded) for h in archived] == [("archive", False)]
        defaults = services.queries.high_scores(100)
        assert len(defaults) == 5 and {h.source for h in defaults} == {"original"}
        assert all(h.hints_recorded for h in defaults)
        assert services.admin.verify() == []
    finally:
        services.store.dispose()


def test_0013_fills_the_seed_commitment_that_finds_a_stored_game(
        empty_database_url: str) -> None:
    """A game stored before 0013 is found by its first event's seed commitment: its
    export imported again is refused as stored already, and writes nothing."""
    url = empty_database_url
    game, exported = _finished_game_at_head(url)
    downgrade(url, "0012")
    migrate(url)
    services = Services.from_url(url)
    try:
        with pytest.raises(GameExists) as caught:
            services.admin.import_game(exported)
        assert caught.value.details["game_id"] == game.game_id
        assert services.queries.list_games()[1] == 1
    finally:
        services.store.dispose()


def test_0015_fills_the_name_keys_of_the_games_stored_before_it(
        empty_database_url: str) -> None:
    """The games stored before 0015 are found on their players' pages: each human
    seat's name key is filled (seat 2 of an online game from its claim), none for a
    computer seat or a seat nobody claimed."""
    url = empty_database_url
    migrate(url)
    services = Services.from_url(url)
    try:
        solo = services.play.create_game(player_name="Selin", height=7, width=9, seed=1)
        pair = services.play.create_game(player_name="Ali", second_name="selin",
                                         mode="two_players", height=7, width=9, seed=2)
        online = services.play.create_game(player_name="Bora", mode="online", height=7,
                                           width=9, seed=3)
        assert online.invite is not None
        services.play.claim_seat(online.game_id, online.invite.code, "Ece")
        waiting = services.play.create_game(player_name="Nil", mode="online", height=7,
                                            width=9, seed=4)
        machines = services.play.create_game(player_name="x", mode="computer_vs_computer",
                                             height=7, width=9, seed=5)
    finally:
        services.store.dispose()
    downgrade(url, "0014")
    assert "first_key" not in _columns(url)["games"]
    migrate(url)
    services = Services.from_url(url)
    try:
        selin = services.players.page("SELİN")
        assert [g.summary.game_id for g in selin.games] == [pair.game_id, solo.game_id]
        assert [g.seat for g in selin.games] == [2, 1]
        assert [g.summary.game_id for g in services.players.page("ece").games] == [
            online.game_id]
        with services.store.unit_of_work(write=False) as uow:
            keys = {game.game_id: {k: v for k, v in (uow.games.seating(game.game_id) or {}).items()
                                   if k.endswith("_key")}
                    for game in (online, waiting, machines)}
        assert keys == {
            online.game_id: {"first_key": name_key("Bora"), "second_key": name_key("Ece")},
            waiting.game_id: {"first_key": name_key("Nil"), "second_key": None},
            machines.game_id: {"first_key": None, "second_key": None}}
        assert services.admin.verify() == []  # the keys are those the events give
    finally:
        services.store.dispose()
