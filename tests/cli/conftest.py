"""Fixtures for the CLI tests: a fresh SQLite file per test (no schema: the CLI
migrates it itself), a `run` helper around click's CliRunner (the root conftest's
`SquaresRunner`), the services on the same database for setting up and checking, and
PostgreSQL when ``SQUARES_TEST_POSTGRES_URL`` is set (else those tests are skipped)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from service.services import Services
from tests.cli.terminal import Terminal
from tests.conftest import SquaresRunner, services_on
from tests.databases import (
    POSTGRES_URL_VAR,
    copy_sqlite,
    fresh_postgres_database,
    postgres_admin_url,
    sqlite_url,
)

SQUARES = Path(sys.executable).parent / "squares"

Run = Callable[..., Result]


def _db_path(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A SQLite file that does not exist yet."""
    return sqlite_url(_db_path(tmp_path))


def make_run(url: str) -> Run:
    """``run("games", "list")``: the CLI on `url` (stdout, stderr apart)."""
    return SquaresRunner(url)


@pytest.fixture
def run(db_url: str) -> Run:
    """``run("games", "list")``: the CLI on the test's database (stdout, stderr apart)."""
    return make_run(db_url)


@pytest.fixture
def services(db_url: str, sqlite_template: Path, tmp_path: Path) -> Iterator[Services]:
    """The service layer on the same database (migrated: a copy of the root's template)."""
    assert copy_sqlite(sqlite_template, _db_path(tmp_path)) == db_url
    with services_on(db_url) as svc:
        yield svc


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (no schema)."""
    if not postgres_admin_url():
        pytest.skip(f"{POSTGRES_URL_VAR} is not set")
    with fresh_postgres_database(prefix="squares_cli") as url:
        yield url


@pytest.fixture
def tokens_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "keep" / "tokens.json"
    monkeypatch.setenv("SQUARES_TOKENS_FILE", str(path))
    return path


@pytest.fixture
def terminal(db_url: str, tokens_path: Path) -> Iterator[Callable[..., Terminal]]:
    opened: list[Terminal] = []
    env = {**os.environ, "TERM": "xterm-256color", "SQUARES_TUI_DELAY": "0",
           "SQUARES_TOKENS_FILE": str(tokens_path)}
    env.pop("DATABASE_URL", None)

    def start(*args: str) -> Terminal:
        term = Terminal([str(SQUARES), "--database-url", db_url, "play", *args], env)
        opened.append(term)
        return term

    yield start
    for term in opened:
        if term.process.poll() is None:
            term.process.kill()
            term.close()
