"""An upgrade keeps every check whole (issue 37): a database filled by an older release.

`release_3d21845/` holds what release 3d21845 (migrations 0001-0005) stored for a game
of every mode, played through its own service layer (`release_3d21845/make.py` says
how it was made): every row of every table, its export of every game, and the tokens
of its unfinished games. Here the old schema is built (``upgrade 0005``), the rows go
in as they were, and the database is upgraded to the newest migration, on SQLite and
on PostgreSQL. Then ``squares verify --all`` passes; every replay step folds, the last
one to the scores the old release stored; the old exports import into a fresh
database; and the unfinished games play on to their end with their old tokens.

Old games are re-derived by the rules they were played under: in that release the
creator's seat always moved first (`events.pre_commitment`), where today an online
game draws it from its seed (three of the four online games here would draw seat 2).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.domain.commands import PlaceLine
from service.domain.event_codec import event_from_dict
from service.domain.events import Event
from service.domain.fold import fold
from service.domain.start import first_seat
from service.services import Services
from service.store import migrate
from tests.conftest import SquaresRunner, services_on
from tests.storage.old_releases import fill_as_released

FIXTURE = Path(__file__).parent / "release_3d21845"
ROWS: dict[str, list[dict[str, Any]]] = json.loads((FIXTURE / "rows.json").read_text())
EXPORTS: dict[str, str] = json.loads((FIXTURE / "exports.json").read_text())
TOKENS: dict[str, dict[str, str]] = json.loads((FIXTURE / "tokens.json").read_text())
OLD_HEAD = "0005"


def events_of(exported: str) -> list[Event]:
    return [event_from_dict(json.loads(line)) for line in exported.splitlines()]


@pytest.fixture
def upgraded(empty_database_url: str) -> str:
    fill_as_released(empty_database_url, OLD_HEAD, ROWS, every_table=False)
    migrate(empty_database_url)
    return empty_database_url


def test_the_fixture_holds_a_game_of_every_mode_and_old_rules_that_differ() -> None:
    games = ROWS["games"]
    assert {(g["mode"], g["status"]) for g in games} == {
        ("vs_computer", "finished"), ("vs_computer", "active"),
        ("two_players", "finished"), ("two_players", "active"),
        ("online", "finished"), ("online", "active"), ("computer_vs_computer", "finished")}
    assert {g["game_id"] for g in games} == set(EXPORTS)
    assert set(TOKENS) == {g["game_id"] for g in games if g["status"] == "active"}
    assert all(i["claimed_at"] for i in ROWS["invitations"])
    created = [events_of(exported)[0] for exported in EXPORTS.values()]
    online = [c for c in created if c.mode == "online"]  # type: ignore[attr-defined]
    assert all(c.first_seat == 1 for c in online)  # type: ignore[attr-defined]
    assert sum(first_seat(str(c.seed), "online") == 2 for c in online) == 3  # type: ignore[attr-defined]


def test_verify_passes_after_the_upgrade(upgraded: str) -> None:
    result = SquaresRunner(upgraded)("verify", "--all")
    assert result.exit_code == 0, result.stdout + result.stderr


def test_every_replay_step_folds_to_what_the_old_release_stored(upgraded: str) -> None:
    old = {g["game_id"]: g for g in ROWS["games"]}
    with services_on(upgraded) as services:
        for game_id, exported in EXPORTS.items():
            events = events_of(exported)
            version = services.queries.get_summary(game_id).version
            assert version == len(events) == old[game_id]["version"]
            for step in range(1, version + 1):
                state, event, _ = services.queries.replay_step(game_id, step)
                assert event.event == events[step - 1]
                assert state.version == step
                assert state.lines == fold(events[:step]).lines
            assert (state.scores, state.over) == (
                [old[game_id]["score1"], old[game_id]["score2"]],
                old[game_id]["status"] == "finished")


def test_the_old_exports_import(empty_database_url: str) -> None:
    migrate(empty_database_url)
    with services_on(empty_database_url) as services:
        finished = [game_id for game_id in EXPORTS if game_id not in TOKENS]
        for game_id in finished:
            imported = services.admin.import_game(EXPORTS[game_id])
            assert services.queries.get_state(imported).over
            assert services.admin.export_game(imported).count("\n") == EXPORTS[game_id].count("\n")
        assert services.admin.verify() == []


def test_unfinished_old_games_play_on_with_their_old_tokens(upgraded: str) -> None:
    with services_on(upgraded) as services:
        for game_id, tokens in TOKENS.items():
            play_to_the_end(services, game_id, {int(seat): t for seat, t in tokens.items()})
        assert services.admin.verify() == []
    result = SquaresRunner(upgraded)("verify", "--all")
    assert result.exit_code == 0, result.stdout + result.stderr


def play_to_the_end(services: Services, game_id: str, tokens: dict[int, str]) -> None:
    for _ in range(2_000):
        state = services.queries.get_state(game_id)
        if state.over:
            return
        if state.seat_info(state.turn).kind == "computer":
            services.play.play_computer_turn(game_id, tokens[1])
            continue
        token = tokens[state.turn]
        command = services.play.hint(game_id, token).command  # (the game is then assisted)
        if isinstance(command, PlaceLine):
            services.play.place_line(game_id, token, command.x, command.y, state.version)
        else:
            services.play.advance(game_id, token, state.version)
    raise AssertionError(f"game {game_id} did not end")
