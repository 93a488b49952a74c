"""An upgrade past player records keeps every old game whole and every old name a guest's.

`release_ab04625/` holds what release ab04625 (migrations 0001-0012, before player
records, daily games and ratings) stored for a game of every mode, played through its
own service layer (`release_ab04625/make.py` says how it was made): every row of
every table, its export of every game, and the tokens of its unfinished games. Among
them a game of "Eda Fırat" and one where "eda firat" claimed the online seat: two
names to that release, one player by today's name key. Here the old schema is built
(``upgrade 0012``), the rows go in as they were, and the database is upgraded to the
newest migration, on SQLite and on PostgreSQL.

Then every check passes; every name shows as the old release showed it (rows, game
answers, event pages, exports); every game is a guest's, so the name is free to
claim, and once claimed a guest can no longer play under it while the old games
still verify; and forgetting the name takes it out of the old games' rows, pages and
exports, whose events still hold it in text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, select

from service.domain.commands import RuleViolation
from service.domain.event_codec import event_from_dict, event_to_json
from service.domain.events import Event
from service.domain.names import name_key
from service.errors import NameClaimed, PlayerNotFound, ServiceError
from service.services import Services
from service.store import ADMIN, make_engine, migrate
from squares_testing.play import play_unassisted
from tests.conftest import SquaresRunner, services_on
from tests.storage.old_releases import fill_as_released

FIXTURE = Path(__file__).parent / "release_ab04625"
ROWS: dict[str, list[dict[str, Any]]] = json.loads((FIXTURE / "rows.json").read_text())
EXPORTS: dict[str, str] = json.loads((FIXTURE / "exports.json").read_text())
TOKENS: dict[str, dict[str, str]] = json.loads((FIXTURE / "tokens.json").read_text())
OLD_HEAD = "0012"  # release ab04625's newest migration
NAME = "Eda Fırat"
EDA_GAMES = {g["game_id"] for g in ROWS["games"]
             if name_key(NAME) in {name_key(g["player_name"]), name_key(g["second_name"])}}


@pytest.fixture
def upgraded(empty_database_url: str) -> str:
    fill_as_released(empty_database_url, OLD_HEAD, ROWS, every_table=True)
    migrate(empty_database_url)
    return empty_database_url


@pytest.fixture
def services(upgraded: str) -> Iterator[Services]:
    with services_on(upgraded) as services:
        yield services


def names_in(value: Any) -> list[str]:
    """Every name an event (as JSON) holds: its seats' and a claimed seat's."""
    if isinstance(value, dict):
        return [n for k, v in value.items()
                for n in ([v] if k == "name" and isinstance(v, str) and v else names_in(v))]
    if isinstance(value, list):
        return [n for v in value for n in names_in(v)]
    return []


def export_names(exported: str) -> list[str]:
    return names_in([json.loads(line) for line in exported.splitlines()])


def events_of(exported: str) -> list[Event]:
    """An export's events (an old one's read as today's versions of them), without
    its signature line."""
    lines = [json.loads(line) for line in exported.splitlines()]
    return [event_from_dict(line) for line in lines if line["type"] != "signature"]


def page_names(services: Services, game_id: str) -> list[str]:
    events, _ = services.queries.event_page(game_id)
    return names_in([json.loads(event_to_json(e.event)) for e in events])


def rows_of(url: str, table_name: str) -> list[dict[str, Any]]:
    engine = make_engine(url, ADMIN)
    try:
        meta = MetaData()
        meta.reflect(engine, only=[table_name])
        with engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(select(meta.tables[table_name]))]
    finally:
        engine.dispose()


def verify_cli(url: str) -> None:
    result = SquaresRunner(url)("verify", "--all")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_the_fixture_holds_a_game_of_every_mode_and_both_spellings_of_a_name() -> None:
    games = ROWS["games"]
    assert {(g["mode"], g["status"]) for g in games} == {
        ("vs_computer", "finished"), ("vs_computer", "active"),
        ("two_players", "finished"), ("two_players", "active"), ("two_players", "abandoned"),
        ("online", "finished"), ("online", "active"), ("computer_vs_computer", "finished")}
    assert {g["game_id"] for g in games} == set(EXPORTS)
    assert set(TOKENS) == {g["game_id"] for g in games if g["status"] == "active"}
    assert all(i["claimed_at"] for i in ROWS["invitations"])
    assert sorted(n for g in games for n in (g["player_name"], g["second_name"])
                  if name_key(n) == name_key(NAME)) == ["Eda Fırat", "eda firat"]
    assert any(h["game_id"] for h in ROWS["high_scores"])  # a ranked game's entry
    assert sum(h["name"] == NAME for h in ROWS["high_scores"]) == 2


def test_verify_passes_after_the_upgrade(upgraded: str, services: Services) -> None:
    assert services.admin.verify() == []
    verify_cli(upgraded)


def test_every_name_shows_as_the_old_release_showed_it(upgraded: str,
                                                       services: Services) -> None:
    old = {g["game_id"]: g for g in ROWS["games"]}
    now = {g["game_id"]: g for g in rows_of(upgraded, "games")}
    assert set(now) == set(old)
    for game_id, exported in EXPORTS.items():
        names = [old[game_id]["player_name"], old[game_id]["second_name"]]
        assert [now[game_id]["player_name"], now[game_id]["second_name"]] == names
        summary, state = services.queries.get_game(game_id)
        assert [summary.player_name, summary.second_name] == names
        assert [s.name for s in state.seats] == names
        assert page_names(services, game_id) == export_names(exported)
        assert export_names(services.admin.export_game(game_id)) == export_names(exported)
    assert sorted((h["id"], h["name"]) for h in rows_of(upgraded, "high_scores")) == sorted(
        (h["id"], h["name"]) for h in ROWS["high_scores"])


def test_every_old_game_is_a_guests(services: Services) -> None:
    page = services.players.page(NAME)
    assert not page.claimed
    assert {g.summary.game_id for g in page.games} == EDA_GAMES
    assert len(EDA_GAMES) == 2
    for game in ROWS["games"]:
        summary, _ = services.queries.get_game(game["game_id"])
        for seat, name in ((1, summary.player_name), (2, summary.second_name)):
            if name and not name.startswith("Computer"):
                assert not services.players.page(name).claimed, (game["game_id"], seat, name)


def test_the_old_exports_import(empty_database_url: str) -> None:
    migrate(empty_database_url)
    refused: dict[str, str] = {}  # every game tried, so that one refusal hides no other
    with services_on(empty_database_url) as services:
        ended = [game_id for game_id in EXPORTS if game_id not in TOKENS]
        for game_id in ended:
            try:
                imported = services.admin.import_game(EXPORTS[game_id])
            except (ServiceError, RuleViolation) as exc:
                refused[game_id] = f"{exc.code}: {exc}"
                continue
            assert services.queries.get_state(imported).over
            # signed by another instance: an archive game here, exported unsigned
            exported = services.admin.export_game(imported)
            assert events_of(exported) == events_of(EXPORTS[game_id])
        assert services.admin.verify() == []
    # An import never takes a name of the tables that only looks like it (RULES E1,
    # tests/storage/test_signed_imports.py): the old release's "eda firat" meets RULES
    # E2's "Eda Fırat" of every fresh database, and ab04625, comparing case, let it in.
    assert {game_id: why.split(":")[0] for game_id, why in refused.items()} == {
        game_id: "name_confusable" for game_id in ended
        if "eda firat" in export_names(EXPORTS[game_id])}


def test_unfinished_old_games_play_on_with_their_old_tokens(upgraded: str,
                                                           services: Services) -> None:
    for game_id, tokens in TOKENS.items():
        state = play_unassisted(services, game_id,
                                {int(seat): token for seat, token in tokens.items()})
        assert state.over
    assert services.admin.verify() == []
    verify_cli(upgraded)


def test_after_the_upgrade_the_name_can_be_claimed_and_then_is_its_holders(
        upgraded: str, services: Services) -> None:
    with services.store.unit_of_work() as uow:
        uow.player_records.claim(NAME, services.core.clock())
    assert services.players.page("eda firat").claimed
    with pytest.raises(NameClaimed) as refused:
        services.play.create_game(player_name="EDA FIRAT", height=9, width=13)
    assert refused.value.code == "name_claimed"
    assert services.admin.verify() == []
    verify_cli(upgraded)
    for game_id in EDA_GAMES:  # the old games still show the names they were played under
        assert export_names(services.admin.export_game(game_id)) == export_names(
            EXPORTS[game_id])


def test_forgetting_the_name_takes_it_out_of_the_old_games(upgraded: str,
                                                         services: Services) -> None:
    done = services.players.forget(NAME)
    assert done.placeholders

    def shows_eda(name: str | None) -> bool:
        return name is not None and name_key(name) == name_key(NAME)

    games = {g["game_id"]: g for g in rows_of(upgraded, "games")}
    for game_id in EDA_GAMES:
        row = games[game_id]
        shown = [row["player_name"], row["second_name"]]
        assert not any(shows_eda(n) for n in shown), shown
        assert any(n in done.placeholders for n in shown), shown
        for names in (page_names(services, game_id),
                      export_names(services.admin.export_game(game_id))):
            assert not any(shows_eda(n) for n in names), names
            assert any(n in done.placeholders for n in names), names
    high_scores = rows_of(upgraded, "high_scores")
    assert not any(shows_eda(h["name"]) for h in high_scores)
    assert sum(h["name"] in done.placeholders for h in high_scores) == 2
    with pytest.raises(PlayerNotFound):
        services.players.page(NAME)
    assert services.admin.verify() == []
    verify_cli(upgraded)
