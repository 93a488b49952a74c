"""``squares highscores``: list, add, remove, reset (RULES E2 defaults)."""

from __future__ import annotations

import json

from service.services import Services
from tests.cli.conftest import Run

DEFAULTS = [("Tarık Yolcu", 325), ("Eda Fırat", 200), ("Sinem Okur", 153),
            ("Deniz Vadi", 85), ("Ali Okyanus", 26)]


def _entries(run: Run, *args: str) -> list[dict[str, object]]:
    result = run("highscores", "list", "--json", *args)
    assert result.exit_code == 0
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_a_new_database_lists_the_default_table(run: Run) -> None:
    result = run("highscores", "list")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["#", "name", "score", "difficulty", "date", "game", "id"]
    assert "Tarık Yolcu" in lines[2] and "325" in lines[2]
    assert "Ali Okyanus" in lines[-1]
    assert [(e["name"], e["score"]) for e in _entries(run)] == DEFAULTS


def test_add_remove_and_limit(run: Run) -> None:
    result = run("highscores", "add", "Zeynep Şahin", "999", "--difficulty", "hard")
    assert result.exit_code == 0
    assert result.stdout.startswith("added high score ") and "Zeynep Şahin 999" in result.stdout
    entries = _entries(run, "--limit", "2")
    assert [(e["name"], e["score"], e["difficulty"]) for e in entries] == [
        ("Zeynep Şahin", 999, "hard"), ("Tarık Yolcu", 325, "default")]
    assert run("highscores", "add", "Minus", "-3").exit_code == 0
    assert _entries(run, "--limit", "100")[-1]["score"] == -3

    entry_id = str(entries[0]["id"])
    result = run("highscores", "remove", entry_id)
    assert result.exit_code == 2 and "refusing to delete without --yes" in result.stderr
    assert run("highscores", "remove", entry_id, "--yes").stdout == f"removed high score {entry_id}\n"
    assert _entries(run)[0]["name"] == "Tarık Yolcu"

    result = run("highscores", "remove", entry_id, "--yes")
    assert result.exit_code == 1 and result.stderr == f"error: no high score {entry_id}\n"


def test_add_refuses_a_bad_name_or_score(run: Run) -> None:
    result = run("highscores", "add", "x" * 40, "10")
    assert result.exit_code == 1 and "invalid_name" in result.stderr
    result = run("highscores", "add", "Ali", "many")
    assert result.exit_code == 2


def test_reset_needs_yes_and_restores_the_defaults(run: Run, services: Services) -> None:
    services.admin.add_high_score("Ayşe", 500)
    result = run("highscores", "reset")
    assert result.exit_code == 2
    assert result.stderr == "error: refusing to reset the high scores without --yes\n"
    assert len(_entries(run)) == 6
    result = run("highscores", "reset", "--yes")
    assert result.exit_code == 0 and result.stdout == "high scores reset to the 5 default entries\n"
    assert [(e["name"], e["score"]) for e in _entries(run)] == DEFAULTS


def test_list_of_an_emptied_table(run: Run) -> None:
    for entry in _entries(run):
        assert run("highscores", "remove", str(entry["id"]), "--yes").exit_code == 0
    assert run("highscores", "list").stdout == "the vs_computer table of 19 x 33 is empty\n"
    assert _entries(run) == []


def test_list_ranks_each_level_apart_and_filters_by_level(run: Run, services: Services) -> None:
    """As the API (docs/rules.md, "How each table ranks"): the hardest level first,
    the default entries (no level) last, # counting within each level; --level shows
    one level."""
    services.admin.add_high_score("Kolay", 999, "easy")
    services.admin.add_high_score("Usta", 1, "expert")
    services.admin.add_high_score("Usta İki", 2, "expert")
    entries = _entries(run, "--limit", "100")
    assert [(e["name"], e["difficulty"]) for e in entries[:3]] == [
        ("Usta İki", "expert"), ("Usta", "expert"), ("Kolay", "easy")]
    assert [(e["name"], e["score"]) for e in entries[3:]] == DEFAULTS
    lines = run("highscores", "list", "--limit", "100").stdout.splitlines()[2:]
    assert [line.split()[0] for line in lines] == ["1", "2", "1", "1", "2", "3", "4", "5"]
    assert [e["name"] for e in _entries(run, "--level", "easy")] == ["Kolay"]
    assert [e["name"] for e in _entries(run, "--level", "expert", "--limit", "1")] == [
        "Usta İki"]
    assert run("highscores", "list", "--level", "hard").stdout == (
        "the vs_computer table of 19 x 33 at hard is empty\n")
    result = run("highscores", "list", "--level", "impossible")
    assert result.exit_code == 2 and "--level" in result.stderr
    result = run("highscores", "list", "--mode", "online", "--level", "easy")
    assert result.exit_code == 2 and "only the table against the computer has levels" in (
        result.stderr)
