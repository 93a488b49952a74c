"""Fixtures for every suite: fresh databases, and `app`, `client`, `runner` as in Flask's tutorial.

PostgreSQL comes from the hand-written `squares_testing/throwaway_postgres.py`, which
`scripts/run_tests.py` (so ``./dev test``) starts once per run and hands over as
``SQUARES_TEST_POSTGRES_URL``; pytest-postgresql was considered and not taken. It runs
``pg_ctl initdb``/``start`` as the current user, and as root (``./dev test`` and CI run
as root) PostgreSQL refuses (``pg_ctl: cannot be run as root``), while the launcher runs
the cluster as the ``postgres`` system user. Beyond that it would bring three packages
(pytest-postgresql, mirakuru, port-for) and a ``postgresql_exec`` setting (its default
is PostgreSQL 14's path; Debian has 15) for what the few lines of `tests/databases.py`
do here, and `benchmarks/load.py --postgres` needs the launcher outside pytest anyway.

Databases (helpers in `tests/databases.py`): ``backend`` is parametrized over
``sqlite`` and, when ``SQUARES_TEST_POSTGRES_URL`` is set, ``postgres``; without it
the tests run on SQLite only, and ``SQUARES_REQUIRE_POSTGRES=1`` makes that an error.
``database_url`` is a fresh migrated database of that backend: a copy of a template
that Alembic migrated once per session (a copied SQLite file /
``CREATE DATABASE ... TEMPLATE``), so the schema only ever comes from the migrations.
``empty_database_url`` is a fresh database without tables. Tests parametrized with
``postgres`` get the ``postgres`` marker (``-m "not postgres"`` leaves them out). Under
pytest-xdist (`scripts/run_tests.py` runs two workers) each worker is a session of its
own: its own templates and temp files; every database name is random.

The app: ``app`` is the real application (API and pages) on a fresh migrated SQLite
file, ``client`` its test client, ``runner`` the ``squares`` CLI (click's CliRunner)
on the app's database, ``services`` the app's service layer (`services_of`). A suite
whose tests have no app gives ``services`` on its own database: the storage suite
over its ``store``, the CLI suite with `services_on` (a service layer of its own on a
URL, disposed at exit).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from flask import Flask
from flask.testing import FlaskClient

from service.ops import settings
from service.services import Services
from service.store import migrate
from tests.databases import (
    BACKENDS,
    POSTGRES_URL_VAR,
    REQUIRE_POSTGRES_VAR,
    copy_sqlite,
    create_postgres_database,
    drop_postgres_database,
    fresh_database,
    fresh_postgres_database,
    postgres_admin_url,
    postgres_required,
    postgres_url_for,
    sqlite_url,
)

OWN_FILES_VAR = "SQUARES_TEST_FILES_DIR"  # where the session before put its files
SERIAL_FILES_VAR = "SQUARES_TEST_SERIAL_FILES"  # scripts/run_tests.py's
FILES_DIR_KEY = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    if postgres_required() and not postgres_admin_url():
        raise pytest.UsageError(f"{REQUIRE_POSTGRES_VAR}=1 but {POSTGRES_URL_VAR} is unset")
    # `squares play` keeps the tokens of the games it creates: not in the home
    # directory of whoever runs the tests, nor the export key file in the checkout's
    # instance directory (`export_keys`). Each session has files of its own: an xdist
    # worker inherits the environment of the process that started it, and two workers
    # writing one tokens file would lose each other's tokens. A value set outside the
    # tests is kept.
    files_dir = tempfile.mkdtemp(prefix="squares-tokens-")
    inherited = os.environ.get(OWN_FILES_VAR)
    for var, name in (("SQUARES_TOKENS_FILE", "tokens.json"),
                      ("SQUARES_EXPORT_KEY_FILE", "export.key"),
                      ("SQUARES_DAILY_SECRET_FILE", "daily.key")):
        value = os.environ.get(var)
        if value is None or (inherited and os.path.dirname(value) == inherited):
            os.environ[var] = os.path.join(files_dir, name)
    os.environ[OWN_FILES_VAR] = files_dir
    config.stash[FILES_DIR_KEY] = files_dir


def pytest_unconfigure(config: pytest.Config) -> None:
    files_dir = config.stash.get(FILES_DIR_KEY, None)
    if files_dir is not None:  # the session's tokens and key files, left in /tmp before
        shutil.rmtree(files_dir, ignore_errors=True)


def pytest_report_header(config: pytest.Config) -> str:
    return f"database backends: {', '.join(BACKENDS)}"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and "postgres" in callspec.params.values():
            item.add_marker(pytest.mark.postgres)
    items[:] = spread_waiting_files(items)


WAITING_DIR = "live"  # its tests mostly wait for streams and counts: little CPU
BUSY_DIR = "e2e"  # browsers and servers: the suite's CPU


def spread_waiting_files(items: list[pytest.Item]) -> list[pytest.Item]:
    """The items with the files of ``tests/live/`` spread evenly among those of
    ``tests/e2e/``, each file's items together and in order. `scripts/run_tests.py`'s
    first pass hands whole files to its two workers in this order: in the order
    collected, both workers reached the waiting files together and left the
    machine's cores idle for half a minute."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(str(item.path), []).append(item)

    def in_dir(path: str, name: str) -> bool:
        return Path(path).parent.name == name and Path(path).parent.parent.name == "tests"

    waiting = [path for path in files if in_dir(path, WAITING_DIR)]
    busy = [path for path in files if in_dir(path, BUSY_DIR)]
    if not waiting or not busy:
        return items
    step = max(1, len(busy) // (len(waiting) + 1))
    merged: list[str] = []
    pending = list(waiting)
    for n, path in enumerate(busy, start=1):
        merged.append(path)
        if n % step == 0 and pending:
            merged.append(pending.pop(0))
    merged += pending
    order: list[str] = []
    for path in files:  # the merged run takes the place of the first busy file
        if path == busy[0]:
            order += merged
        elif path not in merged:
            order.append(path)
    return [item for path in order for item in files[path]]


def pytest_deselected(items: list[pytest.Item]) -> None:
    """For `scripts/run_tests.py`: the files of the ``serial`` tests its first pass
    leaves out, one absolute path a line appended to ``$SQUARES_TEST_SERIAL_FILES``,
    so that its second pass collects those files only (or, none, does not run)."""
    out = os.environ.get(SERIAL_FILES_VAR)
    files = sorted({str(item.path) for item in items if item.get_closest_marker("serial")})
    if out and files:
        with open(out, "a", encoding="utf-8") as noted:  # one write: workers append too
            noted.write("".join(f"{name}\n" for name in files))


# -- databases -----------------------------------------------------------------------


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file migrated once per session; tests get copies."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    migrate(sqlite_url(path))
    return path


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """A PostgreSQL database migrated once per session; tests get copies (its name)."""
    if not postgres_admin_url():
        pytest.skip(f"{POSTGRES_URL_VAR} is not set")
    name = create_postgres_database(prefix="squares_tpl")
    try:
        migrate(postgres_url_for(name))
        yield name
    finally:
        drop_postgres_database(name)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    """The URL of a fresh, migrated database (SQLite file or PostgreSQL database)."""
    if backend == "sqlite":
        yield copy_sqlite(request.getfixturevalue("sqlite_template"), tmp_path / "squares.db")
        return
    with fresh_postgres_database(request.getfixturevalue("postgres_template")) as url:
        yield url


@pytest.fixture
def empty_database_url(backend: str, tmp_path: Path) -> Iterator[str]:
    """The URL of a fresh database without any table (for migration tests)."""
    with fresh_database(backend, tmp_path / "empty.db") as url:
        yield url


@pytest.fixture
def sqlite_database_url(sqlite_template: Path, tmp_path: Path) -> str:
    """A fresh, migrated SQLite file (whatever `backend` says)."""
    return copy_sqlite(sqlite_template, tmp_path / "app.db")


# -- the app, its test client and the CLI --------------------------------------------


def make_app(url: str) -> Flask:
    """The real application (API + pages) on `url`, whose schema must exist already."""
    from tests.apps import app_for_tests

    return app_for_tests({"DATABASE_URL": url})


def close_app(app: Flask) -> None:
    """Let go of what the app opened (its threads, its database engine)."""
    from service.ops import lifecycle

    lifecycle.close(app)


def services_of(app: Flask) -> Services:
    """The service layer the app serves with."""
    services: Services = app.extensions["squares"]
    return services


@contextlib.contextmanager
def services_on(url: str) -> Iterator[Services]:
    """A service layer of its own on `url` (whose schema must exist), disposed at exit."""
    services = Services.from_url(url)
    try:
        yield services
    finally:
        services.store.dispose()


class SquaresRunner:
    """click's CliRunner for the ``squares`` CLI on one database (what Flask's
    ``app.test_cli_runner()`` is for ``flask``): ``--database-url`` always given,
    ``DATABASE_URL`` unset, exceptions not caught, stdout and stderr apart."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self.cli_runner = CliRunner(env={"DATABASE_URL": None})

    def invoke(self, args: Sequence[str] = (), **kwargs: Any) -> Result:
        from cli.main import cli

        kwargs.setdefault("catch_exceptions", False)
        return self.cli_runner.invoke(cli, ["--database-url", self.database_url, *args],
                                      **kwargs)

    def __call__(self, *args: str, input: str | bytes | None = None) -> Result:
        """``runner("games", "list")``."""
        return self.invoke(args, input=input)


@pytest.fixture
def app(sqlite_database_url: str) -> Iterator[Flask]:
    app = make_app(sqlite_database_url)
    yield app
    close_app(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> SquaresRunner:
    return SquaresRunner(settings.of_app(app).database_url)


@pytest.fixture
def services(app: Flask) -> Services:
    return services_of(app)
