"""Fixtures for the CLI tests: a fresh SQLite file per test (no schema: the CLI
migrates it itself), a `run` helper around click's CliRunner, the services on the
same database for setting up and checking, and PostgreSQL when
``SQUARES_TEST_POSTGRES_URL`` is set (else those tests are skipped)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from service.services import Services
from service.store import migrate

POSTGRES_URL = os.environ.get("SQUARES_TEST_POSTGRES_URL") or None
SQUARES = Path(sys.executable).parent / "squares"

Run = Callable[..., Result]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A SQLite file that does not exist yet."""
    return f"sqlite:///{tmp_path}/t.db"


def make_run(url: str) -> Run:
    runner = CliRunner(env={"DATABASE_URL": None})

    def run(*args: str, input: str | bytes | None = None) -> Result:
        return runner.invoke(cli, ["--database-url", url, *args], input=input,
                             catch_exceptions=False)

    return run


@pytest.fixture
def run(db_url: str) -> Run:
    """``run("games", "list")``: the CLI on the test's database (stdout, stderr apart)."""
    return make_run(db_url)


@pytest.fixture
def services(db_url: str) -> Iterator[Services]:
    """The service layer on the same database (migrated)."""
    migrate(db_url)
    svc = Services.from_url(db_url)
    yield svc
    svc.store.dispose()


# -- PostgreSQL ----------------------------------------------------------------------


def _pg_admin_execute(sql: str) -> None:
    import psycopg

    assert POSTGRES_URL is not None
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database (no schema)."""
    if not POSTGRES_URL:
        pytest.skip("SQUARES_TEST_POSTGRES_URL is not set")
    name = f"squares_cli_{uuid.uuid4().hex[:12]}"
    _pg_admin_execute(f'CREATE DATABASE "{name}"')
    base, _, _ = POSTGRES_URL.rpartition("/")
    yield f"{base}/{name}"
    _pg_admin_execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def computer_game(services: Services, seed: int, level1: str = "easy",
                  level2: str = "moderate") -> str:
    """A finished, stored computer_vs_computer game on a 7 x 9 field; its id."""
    created = services.create_game(player_name="sim", difficulty=level1, second_level=level2,
                                   mode="computer_vs_computer", seed=seed, height=7, width=9)
    state = created.state
    while not state.over:
        state = services.play_computer_turn(created.game_id).state
    return created.game_id
