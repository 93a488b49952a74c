"""``squares verify`` and ``squares rebuild``: a tampered read model is found and
repaired. The tampering goes straight to the SQLite file (tests only)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from service.services import Services
from tests.cli.conftest import Run
from tests.factories import GameFactory


def _tamper(db_url: str, sql: str, *params: object) -> None:
    path = Path(db_url.removeprefix("sqlite:///"))
    with sqlite3.connect(path) as conn:
        conn.execute(sql, params)
    conn.close()


def test_verify_needs_an_id_or_all(run: Run) -> None:
    for args in ([], ["abc", "--all"]):
        result = run("verify", *args)
        assert result.exit_code == 2
        assert result.stderr == "error: give either a game ID or --all\n"
    assert run("rebuild").exit_code == 2


def test_verify_of_honest_games(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    GameFactory.create(services=services, turns=2, small=True)
    result = run("verify", "--all")
    assert result.exit_code == 0 and result.stdout == "ok: 2 games verified\n"
    result = run("verify", game.game_id)  # one game: where it comes from, too
    assert result.exit_code == 0
    assert result.stdout == f"{game.game_id}: played here\nok: 1 game verified\n"
    data = json.loads(run("verify", "--all", "--json").stdout)
    assert data == {"ok": True, "games": 2, "problems": [], "waiting_on_computer": [],
                    "signatures": []}


def test_verify_of_an_unknown_game(run: Run) -> None:
    result = run("verify", "abc")
    assert result.exit_code == 1
    assert result.stdout == "abc: game_not_found: no game 'abc'\n"
    assert result.stderr == "error: 1 problem in 1 game\n"


def test_verify_catches_a_tampered_read_model_and_rebuild_repairs_it(
        run: Run, services: Services, db_url: str) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    honest = GameFactory.create(services=services, turns=2, small=True)
    _tamper(db_url, "UPDATE games SET score1 = score1 + 7, status = 'active' WHERE game_id = ?",
            game.game_id)

    result = run("verify", "--all")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert all(line.startswith(f"{game.game_id}: read_model: games.") for line in lines)
    assert any("games.score1 is " in line for line in lines)
    assert any("games.status is 'active'" in line for line in lines)
    assert honest.game_id not in result.stdout
    assert result.stderr == f"error: {len(lines)} problems in 1 game\n"

    data = json.loads(run("verify", "--all", "--json").stdout)
    assert data["ok"] is False
    assert {p["game_id"] for p in data["problems"]} == {game.game_id}
    assert {p["kind"] for p in data["problems"]} == {"read_model"}

    result = run("rebuild", "--all")
    assert result.exit_code == 0
    assert result.stdout == "rebuilt 2 game rows\n"
    assert "rebuilding" in result.stderr  # the progress bar
    result = run("verify", "--all")
    assert result.exit_code == 0 and result.stdout == "ok: 2 games verified\n"
    assert services.queries.get_summary(game.game_id).scores == tuple(game.state.scores)


def test_rebuild_of_one_game(run: Run, services: Services, db_url: str) -> None:
    game = GameFactory.create(services=services, turns=2, small=True)
    _tamper(db_url, "UPDATE games SET round = 99 WHERE game_id = ?", game.game_id)
    assert run("verify", game.game_id).exit_code == 1
    result = run("rebuild", game.game_id)
    assert result.exit_code == 0 and result.stdout == "rebuilt 1 game row\n"
    assert run("verify", game.game_id).exit_code == 0
    result = run("rebuild", "abc")
    assert result.exit_code == 1 and result.stderr == "error: game 'abc' not found\n"


def test_verify_catches_a_sequence_gap_in_the_events(
        run: Run, services: Services, db_url: str) -> None:
    game = GameFactory.create(services=services, turns=2, small=True)
    _tamper(db_url, "DELETE FROM events WHERE game_id = ? AND seq = 3", game.game_id)
    result = run("verify", "--all")
    assert result.exit_code == 1
    assert result.stdout == f"{game.game_id}: seq_gap: event 3 is missing (next stored is 4)\n"
    result = run("games", "show", game.game_id)
    assert result.exit_code == 1 and result.stderr.startswith("error: corrupt event stream: ")


def test_RULES_E1_import_and_verify_report_each_signature(run: Run, services: Services,
                                                          tmp_path: Path) -> None:
    """Issue 34: a stream built offline imports as an archive game, and ``squares
    verify`` says so of each import; an export of this instance imports ranked."""
    from service.domain.commands import NewGame
    from service.domain.export_format import to_jsonl
    from squares_testing.greedy import Greedy
    from squares_testing.play import play_out

    forged = play_out(NewGame(seed="mine", player_name="Mallory", height=7, width=9,
                              ranked=True), Greedy())[0]
    path = tmp_path / "forged.jsonl"
    path.write_text(to_jsonl(forged), encoding="utf-8")
    result = run("games", "import", str(path))
    assert result.exit_code == 0
    assert result.stderr == ("imported as an archive game, in no high score table: "
                             "no signature\n")
    archive = result.stdout.strip()
    signed = GameFactory.create(services=services, finished=True, small=True)
    path.write_text(services.admin.export_game(signed.game_id), encoding="utf-8")
    services.admin.delete_game(signed.game_id)
    ranked = run("games", "import", str(path)).stdout.strip()

    result = run("verify", "--all")
    assert result.exit_code == 0
    assert result.stdout == (
        f"{archive}: as an archive game, in no high score table: no signature\n"
        f"{ranked}: ranked: signature valid (this instance)\n"
        "ok: 2 games verified\n")
    data = json.loads(run("verify", "--all", "--json").stdout)
    assert [(s["game_id"], s["origin"], s["state"]) for s in data["signatures"]] == [
        (archive, "archive", "missing"), (ranked, "signed", "valid")]
    listed = run("highscores", "list", "--height", "7", "--width", "9").stdout
    assert "Mallory" not in listed
