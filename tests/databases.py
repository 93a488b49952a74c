"""Fresh databases for tests: SQLite files and databases in one PostgreSQL cluster.

The cluster is the one of ``SQUARES_TEST_POSTGRES_URL`` (`scripts/run_tests.py`, and so
``./dev test``, starts a throwaway one and sets it); without the variable only SQLite
is used (`BACKENDS`). ``SQUARES_REQUIRE_POSTGRES=1`` turns a missing URL into an error
(checked in ``tests/conftest.py``).

Plain functions and context managers, no fixtures, so that fixtures in any conftest
and helpers such as ``tests/e2e/reliability_helpers.py`` share them.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

POSTGRES_URL_VAR = "SQUARES_TEST_POSTGRES_URL"
REQUIRE_POSTGRES_VAR = "SQUARES_REQUIRE_POSTGRES"


def postgres_admin_url() -> str | None:
    """The URL of the test cluster's maintenance database, or None (SQLite only)."""
    return os.environ.get(POSTGRES_URL_VAR) or None


def postgres_required() -> bool:
    return os.environ.get(REQUIRE_POSTGRES_VAR) == "1"


POSTGRES_URL = postgres_admin_url()
BACKENDS = ["sqlite", "postgres"] if POSTGRES_URL else ["sqlite"]


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def copy_sqlite(template: Path, path: Path) -> str:
    """A copy of the (migrated) SQLite file `template` at `path`; its URL."""
    shutil.copyfile(template, path)
    return sqlite_url(path)


def _admin(admin_url: str | None) -> str:
    url = admin_url or postgres_admin_url()
    if url is None:
        raise RuntimeError(f"{POSTGRES_URL_VAR} is not set")
    return url


def postgres_url_for(database: str, admin_url: str | None = None) -> str:
    """The URL of `database` in the cluster of `admin_url` (default: the test cluster)."""
    base, _, _ = _admin(admin_url).rpartition("/")
    return f"{base}/{database}"


def _execute(sql: str, admin_url: str | None) -> None:
    import psycopg

    with psycopg.connect(_admin(admin_url), autocommit=True) as conn:
        conn.execute(sql)  # type: ignore[arg-type]


def create_postgres_database(template: str | None = None, *, prefix: str = "squares_t",
                             admin_url: str | None = None) -> str:
    """A new database (a copy of `template`, else empty); its name."""
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    copy = f' TEMPLATE "{template}"' if template else ""
    _execute(f'CREATE DATABASE "{name}"{copy}', admin_url)
    return name


def drop_postgres_database(name: str, admin_url: str | None = None) -> None:
    _execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', admin_url)


@contextlib.contextmanager
def fresh_postgres_database(template: str | None = None, *, prefix: str = "squares_t",
                            admin_url: str | None = None) -> Iterator[str]:
    """The URL of a new database (a copy of `template`, else empty), dropped at exit."""
    name = create_postgres_database(template, prefix=prefix, admin_url=admin_url)
    try:
        yield postgres_url_for(name, admin_url)
    finally:
        drop_postgres_database(name, admin_url)


@contextlib.contextmanager
def inspector(url: str) -> Iterator[Any]:
    """SQLAlchemy's inspector of the database at `url` (its engine disposed at exit)."""
    from sqlalchemy import inspect

    from service.store import make_engine

    engine = make_engine(url)
    try:
        yield inspect(engine)
    finally:
        engine.dispose()


@contextlib.contextmanager
def fresh_database(backend: str, sqlite_path: Path) -> Iterator[str]:
    """The URL of a fresh database without tables: `sqlite_path` (not created here, left
    behind) or a new PostgreSQL database (dropped at exit)."""
    if backend == "sqlite":
        yield sqlite_url(sqlite_path)
    elif backend == "postgres":
        with fresh_postgres_database() as url:
            yield url
    else:
        raise ValueError(f"unknown backend {backend!r}")
