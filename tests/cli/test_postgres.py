"""Smoke tests of the CLI on PostgreSQL (run when ``SQUARES_TEST_POSTGRES_URL`` is
set, as ``./dev test`` does; skipped otherwise)."""

from __future__ import annotations

import json

import pytest

from service.store.migrations import head_revisions
from tests.cli.conftest import make_run

pytestmark = pytest.mark.postgres


def test_an_empty_postgres_database_just_works(pg_url: str) -> None:
    run = make_run(pg_url)
    assert run("db", "current").stdout == "none (no schema yet)\n"
    assert run("games", "list").stdout == "no games\n"
    assert run("db", "current").stdout == f"{head_revisions()[0]} (head)\n"
    names = [e["name"] for e in json.loads(run("highscores", "list", "--json").stdout)]
    assert names[0] == "Tarık Yolcu" and len(names) == 5


def test_simulate_verify_export_import_on_postgres(pg_url: str) -> None:
    run = make_run(pg_url)
    data = json.loads(run("simulate", "--games", "2", "--seat1", "easy", "--seat2", "moderate",
                          "--seed", "9", "--height", "7", "--width", "9", "--store",
                          "--no-swap", "--json").stdout)
    game_id = data["games"][0]["game_id"]
    assert run("verify", "--all").stdout == "ok: 2 games verified\n"
    exported = run("games", "export", game_id).stdout
    assert run("games", "delete", game_id, "--yes").exit_code == 0
    new_id = run("games", "import", "-", input=exported.encode("utf-8")).stdout.strip()
    assert run("games", "export", new_id).stdout == exported
    assert run("replay", new_id, "--step", "2").exit_code == 0
    assert run("rebuild", "--all").stdout == "rebuilt 2 game rows\n"
    result = run("games", "show", "abc")
    assert result.exit_code == 1 and result.stderr == "error: game 'abc' not found\n"
