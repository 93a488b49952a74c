"""The state shared by every command: the database URL and the service layer on it.

Every command that reads or writes data opens the services through
`AppContext.services()`, which first migrates the database to head (idempotent
and cheap when it already is; serialised across processes by the migration
environment). So every command works on a new, empty database. Only the ``db``
commands manage the schema explicitly.

The URL: a relative SQLite path (``sqlite:///rel.db``) is made absolute against the
directory the command was started in (`service.ops.database_urls.absolute_sqlite_url`), so it names the same
file for every command, also for the processes of ``squares serve`` (which
run in another directory). The URL is checked on first use (`check_url`): a
malformed one or an unsupported scheme is a usage error (exit 2), a SQLite path
below a regular file exit 1, before anything touches the database.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from service.ops.database_urls import absolute_sqlite_url, sqlalchemy_url, sqlite_file
from service.ops.settings import Settings
from service.services import Services
from service.store import ADMIN, migrate

from .output import CliFailure, safe_url

SUPPORTED_BACKENDS = ("sqlite", "postgresql")
URL_FORMS = "sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DATABASE"

def check_url(url: str) -> None:
    """Refuse a database URL the commands cannot use, before anything opens it:
    unparsable, a scheme or driver other than SQLite / PostgreSQL (psycopg), a bad
    port: `CliFailure` with exit 2; a SQLite path that is a directory or lies below a
    regular file: exit 1."""
    shown = safe_url(url)
    try:
        parsed = make_url(sqlalchemy_url(url))
        port = parsed.port
    except (ArgumentError, ValueError) as exc:
        raise CliFailure(f"invalid database URL {shown!r} ({_first_line(exc)}); "
                         f"use {URL_FORMS}", exit_code=2) from exc
    if parsed.get_backend_name() not in SUPPORTED_BACKENDS:
        raise CliFailure(f"unsupported database URL {shown!r}: use {URL_FORMS}", exit_code=2)
    if port is not None and not 0 < port < 65536:
        raise CliFailure(f"invalid database URL {shown!r}: port {port} is not in 1..65535",
                         exit_code=2)
    try:
        parsed.get_dialect().import_dbapi()
    except ArgumentError as exc:  # an unknown driver (``sqlite+foo://``)
        raise CliFailure(f"unsupported database URL {shown!r}: use {URL_FORMS}",
                         exit_code=2) from exc
    except ImportError as exc:
        raise CliFailure(f"the database driver for {parsed.drivername} is not installed "
                         f"({exc})") from exc
    database = sqlite_file(url)
    if database is not None:
        _check_sqlite_path(Path(database))


def _check_sqlite_path(path: Path) -> None:
    if path.is_dir():
        raise CliFailure(f"cannot use the database {path}: it is a directory")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise CliFailure(f"cannot use the database {path}: {parent} is not a "
                                 "directory")
            return


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


class AppContext:
    """The settings, the database URL (made absolute at once, checked on first use)
    and the services on it."""

    def __init__(self, url: str, settings: Settings) -> None:
        self.settings = settings
        self.given_url = url
        self._url = absolute_sqlite_url(url)
        self._checked = False
        self.migrated = False

    @property
    def url(self) -> str:
        """The URL every command uses; `CliFailure` when it is not usable."""
        if not self._checked:
            check_url(self._url)
            self._checked = True
        return self._url

    @property
    def sqlite_path(self) -> str | None:
        """The SQLite file (absolute), None for PostgreSQL or an in-memory database."""
        return sqlite_file(self._url)

    def migrate(self) -> None:
        if not self.migrated:
            migrate(self.url)
            self.migrated = True

    @contextmanager
    def services(self) -> Iterator[Services]:
        """The service layer on a database at the newest schema; disposed afterwards."""
        self.migrate()
        services = Services.from_url(self.url, ADMIN, self.settings)
        try:
            yield services
        finally:
            services.store.dispose()


# A command's function gets the `AppContext` as its first argument.
pass_app = click.make_pass_decorator(AppContext)


def current_settings() -> Settings:
    """The settings of the command being run (read once, by `cli.main`)."""
    app = click.get_current_context().find_object(AppContext)
    if app is None:
        raise RuntimeError("no squares command is running")
    return app.settings
