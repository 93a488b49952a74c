"""The group itself: help, the database URL, error reporting, output helpers."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from click.testing import CliRunner

from cli.main import cli
from cli.output import jsonable, safe_url, table

COMMANDS = ["serve", "db", "games", "replay", "verify", "rebuild", "highscores", "simulate",
            "play", "watch"]


def test_the_cli_starts_without_alembic() -> None:
    """Alembic (about 0.15 s of a start) is imported only by what uses it."""
    probe = "import sys, cli.main; print('alembic' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           check=True)
    assert found.stdout == "False\n", found.stderr


def test_help_lists_every_command() -> None:
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert f"  {name} " in result.stdout


@pytest.mark.parametrize("path", [
    [name] for name in COMMANDS
] + [["db", sub] for sub in ("upgrade", "downgrade", "current", "history")]
  + [["games", sub] for sub in ("list", "show", "delete", "prune", "export", "import")]
  + [["highscores", sub] for sub in ("list", "add", "remove", "reset")])
def test_every_command_has_help(path: list[str]) -> None:
    result = CliRunner().invoke(cli, [*path, "--help"])
    assert result.exit_code == 0 and result.stdout.startswith("Usage: ")


def test_database_url_comes_from_the_environment(db_url: str) -> None:
    runner = CliRunner(env={"DATABASE_URL": db_url})
    assert runner.invoke(cli, ["highscores", "add", "Env", "7"]).exit_code == 0
    explicit = CliRunner(env={"DATABASE_URL": None})
    listed = explicit.invoke(cli, ["--database-url", db_url, "highscores", "list"])
    assert "Env" in listed.stdout


def test_an_unreachable_database_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        cli, ["--database-url", "postgresql://nobody:secret@127.0.0.1:1/x", "games", "list"])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: database error: ")
    assert "secret" not in result.stderr


def test_an_unknown_command_is_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["frobnicate"])
    assert result.exit_code == 2


def test_table_aligns_columns() -> None:
    text = table(("a", "num"), [("xyz", 5), ("q", 123)], align_right=(1,))
    assert text.splitlines() == ["a    num", "---  ---", "xyz    5", "q    123"]


def test_json_and_time_helpers() -> None:
    moment = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert table(("t",), [(moment,), (None,)]).splitlines()[2:] == ["2025-01-02 03:04", "-"]
    assert jsonable({"t": moment, "p": (1, 2)}) == {"t": "2025-01-02T03:04:05Z",
                                                    "p": [1, 2]}
    assert safe_url("postgresql://u:pw@h/db") == "postgresql://u:***@h/db"
    assert safe_url("sqlite:///x.db") == "sqlite:///x.db"
