"""``squares games``: list, show, delete, prune, export and import."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from cli.games import parse_duration
from service.services import Services
from squares_testing.play import play_unassisted
from tests.cli.conftest import Run
from tests.factories import GameFactory


def test_every_read_command_works_on_an_empty_database(run: Run) -> None:
    result = run("games", "list")
    assert result.exit_code == 0 and result.stdout == "no games\n"
    result = run("games", "list", "--json")
    assert json.loads(result.stdout) == {"total": 0, "limit": 20, "offset": 0, "games": []}
    result = run("verify", "--all")
    assert result.exit_code == 0 and "ok: 0 games verified" in result.stdout
    assert run("rebuild", "--all").stdout == "rebuilt 0 game rows\n"


def test_list_filters_and_pages(run: Run, services: Services) -> None:
    finished = GameFactory.create(services=services, finished=True, small=True,
                                  player_name="Gülşen")
    active = GameFactory.create(services=services, turns=1, small=True, player_name="Ali")

    result = run("games", "list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["id", "player", "mode", "difficulty", "status", "scores",
                                "version", "created"]
    assert any(finished.game_id in line and "Gülşen vs Computer" in line and "finished" in line
               for line in lines)
    assert any(active.game_id in line and "active" in line for line in lines)
    assert lines[-1] == "1-2 of 2 games"

    def ids(*args: str) -> list[str]:
        data = json.loads(run("games", "list", "--json", *args).stdout)
        return [g["game_id"] for g in data["games"]]

    assert ids("--status", "unfinished") == [active.game_id]
    assert ids("--status", "finished") == [finished.game_id]
    assert ids("--player", "Gülşen") == [finished.game_id]
    assert ids("--player", "Nobody") == []
    assert len(ids("--limit", "1")) == 1
    assert ids("--limit", "1") + ids("--limit", "1", "--offset", "1") == ids()
    data = json.loads(run("games", "list", "--json", "--status", "finished").stdout)
    game = data["games"][0]
    assert data["total"] == 1
    assert game["status"] == "finished"
    assert [game["score1"], game["score2"]] == list(finished.state.scores)
    assert game["created_at"].endswith("Z")  # as the API writes a moment


def test_list_refuses_a_bad_status(run: Run) -> None:
    result = run("games", "list", "--status", "paused")
    assert result.exit_code == 2 and "paused" in result.stderr


def test_show_prints_the_summary_and_the_board(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True,
                              player_name="Ayşe")
    result = run("games", "show", game.game_id)
    assert result.exit_code == 0
    out = result.stdout
    assert f"game       {game.game_id}" in out
    assert "players    Ayşe (P) vs Computer (C)" in out
    assert "\x1b[" not in out  # no colours when stdout is not a terminal
    assert "+---+---+---+---+" in out  # a 7 x 9 field: 4 boxes a row
    assert "Game over:" in out

    data = json.loads(run("games", "show", game.game_id, "--json").stdout)
    assert data["game"]["game_id"] == game.game_id
    assert data["game"]["player_name"] == "Ayşe"
    assert len(data["board"]) == 7 and data["board"][0] == "+---+---+---+---+"


@pytest.mark.parametrize("command", [
    ["games", "show", "abc"],
    ["games", "show", "abc", "--json"],
    ["games", "export", "abc"],
    ["games", "delete", "abc", "--yes"],
    ["replay", "abc"],
])
def test_an_unknown_game_is_an_error(run: Run, command: list[str]) -> None:
    result = run(*command)
    assert result.exit_code == 1
    assert result.stderr == "error: game 'abc' not found\n"
    assert result.stdout == ""


def test_delete_needs_yes(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, turns=1, small=True)
    result = run("games", "delete", game.game_id)
    assert result.exit_code == 2
    assert result.stderr == "error: refusing to delete without --yes\n"
    assert services.queries.get_summary(game.game_id).game_id == game.game_id

    result = run("games", "delete", game.game_id, "--yes")
    assert result.exit_code == 0 and result.stdout == f"deleted game {game.game_id}\n"
    assert services.queries.list_games()[1] == 0


def test_prune_deletes_only_old_unfinished_games(run: Run, services: Services) -> None:
    active = GameFactory.create(services=services, turns=1, small=True)
    finished = GameFactory.create(services=services, finished=True, small=True)

    result = run("games", "prune", "--unfinished-older-than", "30d")
    assert result.exit_code == 2 and "refusing to delete without --yes" in result.stderr

    result = run("games", "prune", "--unfinished-older-than", "30d", "--yes")
    assert result.exit_code == 0 and result.stdout == "pruned 0 unfinished games\n"

    result = run("games", "prune", "--unfinished-older-than", "0m", "--yes")
    assert result.exit_code == 0 and result.stdout == "pruned 1 unfinished game\n"
    remaining = [g.game_id for g in services.queries.list_games()[0]]
    assert remaining == [finished.game_id] and active.game_id not in remaining


def test_prune_refuses_a_bad_duration(run: Run) -> None:
    result = run("games", "prune", "--unfinished-older-than", "soon", "--yes")
    assert result.exit_code == 2 and "45m, 12h, 30d or 2w" in result.stderr
    result = run("games", "prune", "--yes")
    assert result.exit_code == 2 and "--unfinished-older-than" in result.stderr


@pytest.mark.parametrize(("text", "expected"), [
    ("45m", timedelta(minutes=45)),
    ("12h", timedelta(hours=12)),
    ("30d", timedelta(days=30)),
    ("2w", timedelta(weeks=2)),
    (" 7D ", timedelta(days=7)),
    ("0m", timedelta(0)),
])
def test_parse_duration(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["", "30", "d", "1.5h", "-3d", "3y", "3 days"])
def test_parse_duration_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


def test_export_delete_import_round_trip_is_byte_identical(
        run: Run, services: Services, tmp_path: Path) -> None:
    """The import stores the stream as a new game (a new id: ids are not part of
    the events), so the comparison is of the whole export text, byte for byte."""
    game = GameFactory.create(services=services, finished=True, small=True,
                              mode="two_players", player_name="Gülşen İnce",
                              second_name="Ayşe Çelik")
    stdout_export = run("games", "export", game.game_id)
    assert stdout_export.exit_code == 0
    exported = tmp_path / "game.jsonl"
    result = run("games", "export", game.game_id, "-o", str(exported))
    assert result.exit_code == 0 and result.stdout == ""
    original = exported.read_bytes()
    assert original == stdout_export.stdout.encode("utf-8")
    assert "Gülşen İnce".encode() in original
    assert original.count(b"\n") == game.state.version + 1  # the events, the signature

    assert run("games", "delete", game.game_id, "--yes").exit_code == 0
    result = run("games", "import", str(exported))
    assert result.exit_code == 0
    assert result.stderr == "imported ranked: signature valid (this instance)\n"
    new_id = result.stdout.strip()
    assert new_id != game.game_id and len(new_id) == 32

    again = tmp_path / "again.jsonl"
    assert run("games", "export", new_id, "-o", str(again)).exit_code == 0
    assert again.read_bytes() == original
    assert services.queries.get_state(new_id) == game.state
    assert run("verify", new_id).exit_code == 0


def test_import_reads_stdin(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, turns=1, small=True, ranked=False)
    text = services.admin.export_game(game.game_id)
    services.admin.delete_game(game.game_id)
    result = run("games", "import", "-", input=text.encode("utf-8"))
    assert result.exit_code == 0
    assert services.admin.export_game(result.stdout.strip()) == text


def _game_count(services: Services) -> int:
    return services.queries.list_games()[1]


def test_import_of_a_stream_with_a_gap_names_the_line_and_writes_nothing(
        run: Run, services: Services, tmp_path: Path) -> None:
    # a practice game: an unfinished ranked stream is refused at line 1 (its seed secret)
    game = GameFactory.create(services=services, turns=2, small=True, seed=4242, ranked=False)
    lines = services.admin.export_game(game.game_id).splitlines(keepends=True)
    assert len(lines) > 5
    gap = tmp_path / "gap.jsonl"
    gap.write_text("".join(lines[:3] + lines[4:]), encoding="utf-8")  # event 4 is missing
    before = _game_count(services)

    result = run("games", "import", str(gap))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("error: line ")
    line = int(result.stderr.split()[2].rstrip(":"))
    assert line >= 4  # the first line that no longer fits is at or after the gap
    assert _game_count(services) == before


def test_import_of_bad_files(run: Run, services: Services, tmp_path: Path) -> None:
    game = GameFactory.create(services=services, turns=1, small=True)
    lines = services.admin.export_game(game.game_id).splitlines(keepends=True)
    before = _game_count(services)

    not_json = tmp_path / "not_json.jsonl"
    not_json.write_text(lines[0] + lines[1] + "{oops\n", encoding="utf-8")
    result = run("games", "import", str(not_json))
    assert result.exit_code == 1 and result.stderr.startswith("error: line 3: not JSON")

    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    result = run("games", "import", str(empty))
    assert result.exit_code == 1 and "line 1: the stream is empty" in result.stderr

    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = run("games", "import", str(binary))
    assert result.exit_code == 1 and "is not UTF-8 text" in result.stderr

    result = run("games", "import", str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 2 and "does not exist" in result.stderr
    assert _game_count(services) == before


@pytest.mark.parametrize("mode", ["vs_computer", "online"])
def test_importing_a_stored_game_again_is_refused_in_every_mode(
        run: Run, services: Services, tmp_path: Path, mode: str) -> None:
    """An online game's export once imported as a second ranked game; it is refused
    like a game against the computer: one line naming the stored game, exit 1."""
    created = services.play.create_game(player_name="Ann", mode=mode, height=7, width=9,
                                        difficulty="easy")
    tokens: str | dict[int, str] = created.token
    if created.invite is not None:  # online: Bob takes seat 2, each seat plays its own
        claimed = services.play.claim_seat(created.game_id, created.invite.code, "Bob")
        tokens = {1: created.token, 2: claimed.token}
    play_unassisted(services, created.game_id, tokens)
    exported = tmp_path / "game.jsonl"
    assert run("games", "export", created.game_id, "-o", str(exported)).exit_code == 0
    before = _game_count(services)

    result = run("games", "import", str(exported))
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == f"error: this stream is game {created.game_id}, stored already\n"
    assert _game_count(services) == before
    table = services.queries.high_scores(100, height=7, width=9, mode=mode)
    assert len([h for h in table if h.game_id is not None]) == (2 if mode == "online" else 1)
