"""Fixtures for the storage suite: every test runs on a fresh real database.

The ``database_url`` fixture is parametrized over ``sqlite`` (a temp file) and, when
``SQUARES_TEST_POSTGRES_URL`` is set (``./dev test`` sets it whenever the PostgreSQL
server binaries exist), ``postgres`` (a fresh database on that server). Without
the variable the suite runs on SQLite only; with ``SQUARES_REQUIRE_POSTGRES=1`` a
missing URL is an error instead.

Fresh databases are copies of a template migrated once per session by Alembic (a
copied SQLite file / ``CREATE DATABASE ... TEMPLATE``), so the schema still comes only
from the migrations.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from service.services import Services
from service.store import EventStore, migrate

POSTGRES_URL = os.environ.get("SQUARES_TEST_POSTGRES_URL") or None
if os.environ.get("SQUARES_REQUIRE_POSTGRES") == "1" and not POSTGRES_URL:
    raise pytest.UsageError("SQUARES_REQUIRE_POSTGRES=1 but SQUARES_TEST_POSTGRES_URL is unset")

BACKENDS = ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def _pg_admin() -> psycopg.Connection:
    assert POSTGRES_URL is not None
    return psycopg.connect(POSTGRES_URL, autocommit=True)


def postgres_url_for(database: str) -> str:
    assert POSTGRES_URL is not None
    base, _, _ = POSTGRES_URL.rpartition("/")
    return f"{base}/{database}"


def create_pg_database(template: str | None = None) -> str:
    name = f"squares_t_{uuid.uuid4().hex[:16]}"
    with _pg_admin() as conn:
        if template:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        else:
            conn.execute(f'CREATE DATABASE "{name}"')
    return name


def drop_pg_database(name: str) -> None:
    with _pg_admin() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "template.db"
    migrate(sqlite_url(path))
    return path


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str | None]:
    if not POSTGRES_URL:
        yield None
        return
    name = create_pg_database()
    migrate(postgres_url_for(name))
    yield name
    drop_pg_database(name)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of a fresh, migrated database (SQLite file or PostgreSQL database)."""
    if backend == "sqlite":
        template = request.getfixturevalue("sqlite_template")
        path = tmp_path / "squares.db"
        shutil.copyfile(template, path)
        yield sqlite_url(path)
        return
    name = create_pg_database(request.getfixturevalue("postgres_template"))
    yield postgres_url_for(name)
    drop_pg_database(name)


@pytest.fixture
def empty_database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database without any table (for migration tests)."""
    if backend == "sqlite":
        yield sqlite_url(tmp_path / "empty.db")
        return
    name = create_pg_database()
    yield postgres_url_for(name)
    drop_pg_database(name)


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    s = EventStore.from_url(database_url)
    yield s
    s.dispose()


@pytest.fixture
def services(store: EventStore) -> Services:
    return Services(store)
