"""Fixtures for the JSON API suite: the real app (API + pages) on a fresh database.

``app``/``client`` run on a temp SQLite file per test: a copy of a template that
Alembic migrated once per session, so the schema still comes only from the
migrations. ``any_client`` is parametrized over ``sqlite`` and, when
``SQUARES_TEST_POSTGRES_URL`` is set, ``postgres`` (a fresh database copied from a
migrated template in that cluster); a few tests use it.

Every client is a `helpers.CheckedClient`: each JSON answer it receives is
validated against its marshmallow schema (errors against `ErrorSchema`).
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service.app import create_app
from service.services import Services
from service.store import migrate

from .helpers import CheckedClient

POSTGRES_URL = os.environ.get("SQUARES_TEST_POSTGRES_URL") or None
BACKENDS = ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def build_app(url: str) -> Flask:
    """The real application on `url` (already migrated), with the checking test client."""
    app = create_app({"TESTING": True, "DATABASE_URL": url})
    app.test_client_class = CheckedClient
    return app


def dispose(app: Flask) -> None:
    services: Services = app.extensions["squares"]
    services.store.dispose()


@pytest.fixture(scope="session")
def api_sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("api-template") / "template.db"
    migrate(sqlite_url(path))
    return path


def fresh_sqlite_url(template: Path, directory: Path) -> str:
    path = directory / "t.db"
    shutil.copyfile(template, path)
    return sqlite_url(path)


@pytest.fixture
def database_url(api_sqlite_template: Path, tmp_path: Path) -> str:
    return fresh_sqlite_url(api_sqlite_template, tmp_path)


@pytest.fixture
def app(database_url: str) -> Iterator[Flask]:
    app = build_app(database_url)
    yield app
    dispose(app)


@pytest.fixture
def client(app: Flask) -> CheckedClient:
    return app.test_client()  # type: ignore[return-value]


@pytest.fixture
def services(app: Flask) -> Services:
    services: Services = app.extensions["squares"]
    return services


# -- optionally PostgreSQL too -------------------------------------------------------


def _pg(sql: str) -> None:
    import psycopg

    assert POSTGRES_URL is not None
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def _pg_url(database: str) -> str:
    assert POSTGRES_URL is not None
    base, _, _ = POSTGRES_URL.rpartition("/")
    return f"{base}/{database}"


@pytest.fixture(scope="session")
def api_postgres_template() -> Iterator[str | None]:
    if not POSTGRES_URL:
        yield None
        return
    name = f"squares_api_tpl_{uuid.uuid4().hex[:12]}"
    _pg(f'CREATE DATABASE "{name}"')
    migrate(_pg_url(name))
    yield name
    _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=BACKENDS)
def any_app(request: pytest.FixtureRequest, api_sqlite_template: Path,
            tmp_path: Path) -> Iterator[Flask]:
    """The app on SQLite and (when configured) on PostgreSQL."""
    if request.param == "sqlite":
        app = build_app(fresh_sqlite_url(api_sqlite_template, tmp_path))
        yield app
        dispose(app)
        return
    template = request.getfixturevalue("api_postgres_template")
    name = f"squares_api_{uuid.uuid4().hex[:12]}"
    _pg(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    app = build_app(_pg_url(name))
    try:
        yield app
    finally:
        dispose(app)
        _pg(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def any_client(any_app: Flask) -> Any:
    return any_app.test_client()
