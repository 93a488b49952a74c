"""``high_scores.name_skeleton`` (migration 0007, recomputed by 0014): the key of each
name (its UTS #39 skeleton, `names.name_key` since 0014), filled by the migrations
for the rows before them and by the store for every row it writes; the look-alike
check reads it through its index. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text

from service.domain.commands import RuleViolation
from service.domain.names import name_key, skeleton
from service.services import Services
from service.store import downgrade, high_scores_table, make_engine, migrate
from tests.databases import inspector
from tests.factories import GameFactory

CYRILLIC_EDA = "\u0415da F\u0131rat"  # a Cyrillic Е beside the table's "Eda Fırat"
DEFAULT_NAMES = {"Eda Fırat", "Tarık Yolcu", "Sinem Okur", "Ali Okyanus", "Deniz Vadi"}


def _name_skeletons(url: str) -> list[tuple[str, str | None]]:
    """(name, name_skeleton) of every row, read without the store's code."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql(
                "SELECT name, name_skeleton FROM high_scores ORDER BY id").all()
            return [(name, key) for name, key in rows]
    finally:
        engine.dispose()


def _skeleton_indexes(url: str) -> list[str]:
    with inspector(url) as found:
        return [ix["name"] or "" for ix in found.get_indexes("high_scores")
                if ix["column_names"] == ["name_skeleton"]]


def test_migration_0007_fills_the_skeletons_of_the_default_table(
        empty_database_url: str) -> None:
    url = empty_database_url
    migrate(url, "0006")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:  # a hand-made entry of before: a full-width name
            conn.execute(text("INSERT INTO high_scores (name, score, difficulty, created_at) "
                              "VALUES (:name, 1, 'manual', :now)"),
                         {"name": "\uff21\uff4c\uff49", "now": datetime.now(UTC)})
    finally:
        engine.dispose()

    migrate(url, "0007")
    rows = _name_skeletons(url)
    assert {name for name, _ in rows} == DEFAULT_NAMES | {"\uff21\uff4c\uff49"}
    assert all(key == skeleton(name) for name, key in rows)
    assert dict(rows)["Eda Fırat"] == skeleton(CYRILLIC_EDA) == "Eda Firat"
    assert dict(rows)["\uff21\uff4c\uff49"] == "Ali"
    assert _skeleton_indexes(url) == ["ix_high_scores_name_skeleton"]

    downgrade(url, "0006")
    assert _skeleton_indexes(url) == []
    migrate(url)
    assert all(key == name_key(name) for name, key in _name_skeletons(url))


def test_migration_0014_recomputes_every_key_and_its_downgrade_the_skeletons(
        empty_database_url: str) -> None:
    url = empty_database_url
    migrate(url, "0013")
    engine = make_engine(url)
    try:
        with engine.begin() as conn:  # rows as the store wrote them before (a filler let in)
            for name in ("Eda\u3164F\u0131rat", "EDA FIRAT", "\uff21\uff4c\uff49"):
                conn.execute(text("INSERT INTO high_scores (name, score, difficulty, created_at, "
                                  "height, width, ranking, hints_recorded, name_skeleton) "
                                  "VALUES (:name, 1, 'manual', :now, 7, 9, 'vs_computer', true, "
                                  ":key)"), {"name": name, "now": datetime.now(UTC),
                                             "key": skeleton(name)})
    finally:
        engine.dispose()
    before = _name_skeletons(url)
    assert dict(before)["EDA FIRAT"] == "EDA FlRAT" != dict(before)["Eda Fırat"]

    migrate(url, "0014")
    rows = _name_skeletons(url)
    assert [name for name, _ in rows] == [name for name, _ in before]  # names kept
    assert all(key == name_key(name) for name, key in rows)
    keys = dict(rows)
    assert {keys[n] for n in ("Eda Fırat", "Eda\u3164F\u0131rat", "EDA FIRAT")} == {"eda firat"}
    assert dict(rows)["\uff21\uff4c\uff49"] == name_key("Ali") == "aii"

    downgrade(url, "0013")
    assert _name_skeletons(url) == before


def test_every_row_the_store_writes_carries_its_skeleton(services: Services,
                                                         database_url: str) -> None:
    game = GameFactory.create(services=services, mode="two_players", player_name="Gülşen İnce",
                              second_name="Ayşe Çelik", finished=True, small=True)
    services.admin.add_high_score("Zeynep", 99)
    rows = dict(_name_skeletons(database_url))
    assert rows["Gülşen İnce"] == name_key("Gülşen İnce") == "guisen ince"
    assert rows["Ayşe Çelik"] == name_key("Ayşe Çelik")
    assert rows["Zeynep"] == name_key("Zeynep")
    table = services.queries.high_scores(100, height=7, width=9, mode="two_players")
    assert {h.name for h in table if h.game_id == game.game_id} == {
        "Gülşen İnce", "Ayşe Çelik"}

    services.admin.reset_high_scores()
    reset = _name_skeletons(database_url)
    assert {name for name, _ in reset} == DEFAULT_NAMES
    assert all(key == name_key(name) for name, key in reset)


def test_a_lookalike_of_a_table_name_is_refused_by_the_services(services: Services) -> None:
    with pytest.raises(RuleViolation) as refused:
        services.play.create_game(player_name=CYRILLIC_EDA, height=7, width=9)
    assert refused.value.code == "name_confusable"
    assert refused.value.details == {"field": "player_name", "existing": "Eda Fırat"}
    with pytest.raises(RuleViolation) as by_hand:
        services.admin.add_high_score("Sin\u0435m Okur", 10)  # a Cyrillic е
    assert by_hand.value.details == {"field": "name", "existing": "Sinem Okur"}
    assert services.queries.list_games() == ([], 0)

    assert services.play.create_game(player_name="Eda Fırat", height=7, width=9).game_id
    assert services.admin.add_high_score("Eda Fırat", 10).name_skeleton == name_key("Eda Fırat")


def test_the_lookup_finds_each_lookalike_name_once(services: Services) -> None:
    services.admin.add_high_score("Eda Fırat", 10)  # the same name twice in the table
    with services.store.unit_of_work(write=False) as uow:
        assert uow.high_scores.names_like(name_key(CYRILLIC_EDA)) == ["Eda Fırat"]
        assert uow.high_scores.names_like(name_key("EDA FIRAT")) == ["Eda Fırat"]
        assert uow.high_scores.names_like(name_key("Nobody")) == []
    engine_rows = select(high_scores_table.c.name_skeleton).where(
        high_scores_table.c.name == "Eda Fırat")
    with services.store.engine.connect() as conn:
        assert set(conn.execute(engine_rows).scalars()) == {"eda firat"}
