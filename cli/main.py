"""The `squares` click group: the global ``--database-url`` and error reporting.

Exit codes: 0 ok, 1 a failed operation (service errors, refused moves, problems
found, an unusable database), 2 usage (bad options, a destructive command without
``--yes``, a malformed database URL). Errors go to stderr as ``error: <message>``;
bad input and an unusable database never print a traceback. The errors turned into
that line are the service layer's, the database's (SQLAlchemy, sqlite3, Alembic),
the operating system's (`OSError`: a file or directory that cannot be made or
written) and a number too large for the database (`OverflowError`, the last line of
defence behind the options' ranges). Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path
from typing import Any

import click
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from service.domain.commands import RuleViolation
from service.domain.events import EventFormatError
from service.domain.state import CorruptStream
from service.errors import DatabaseUnavailable, GameNotFound, ServiceError
from service.ops.settings import SettingError, Settings

from . import (
    daily,
    db,
    games,
    highscores,
    maintenance,
    play,
    players,
    replay,
    review,
    serve,
    simulate,
    watch,
)
from .context import AppContext
from .output import CliFailure


def error_message(exc: Exception, database: str | None = None) -> str | None:
    """The one-line message for an error the CLI reports (None: not ours).
    `database`: the SQLite file in use, named in messages about opening it."""
    if isinstance(exc, DatabaseUnavailable) and isinstance(exc.__cause__, Exception):
        return error_message(exc.__cause__, database)  # the driver's words, for admins
    if isinstance(exc, GameNotFound):
        return f"game {exc.details.get('game_id', '?')!r} not found"
    if isinstance(exc, ServiceError):
        return exc.message
    if isinstance(exc, RuleViolation):
        return f"{exc.message} ({exc.code})"
    if isinstance(exc, CorruptStream | EventFormatError):
        return f"corrupt event stream: {exc} (see `squares verify`)"
    if _is_alembic_error(exc):
        return f"alembic: {exc}"
    if isinstance(exc, SQLAlchemyError):
        detail = _first_line(getattr(exc, "orig", None) or exc)
        where = f" ({database})" if database and isinstance(exc, DBAPIError) else ""
        return f"database error: {detail}{where}"
    if isinstance(exc, sqlite3.Error):
        return f"database error: {_first_line(exc)}" + (f" ({database})" if database else "")
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):  # click's own
        return os_error_message(exc, database)
    if isinstance(exc, OverflowError):
        return f"a number is out of range: {_first_line(exc)}"
    return None


def _is_alembic_error(exc: Exception) -> bool:
    """An Alembic `CommandError`, without importing Alembic (about 0.15 s) for every
    command: the commands that use it import it, and an error of its own can only
    come once it is imported."""
    errors = sys.modules.get("alembic.util.exc")
    return errors is not None and isinstance(exc, errors.CommandError)


def os_error_message(exc: OSError, database: str | None = None) -> str:
    """``<reason>: <file>``; ``cannot use the database <file>: ...`` when the file is
    the SQLite database or one of its directories."""
    reason = exc.strerror or _first_line(exc)
    filename = exc.filename
    text = f"{reason}: {filename}" if filename else reason
    if database and filename and _is_on_path(str(filename), database):
        return f"cannot use the database {database}: {text}"
    return text


def _is_on_path(name: str, database: str) -> bool:
    target, path = Path(name), Path(database)
    return target == path or target in path.parents


def _first_line(exc: object) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


# click >= 8.2: a group called without a command answers with its help (exit 2).
_HELP_NOT_ERROR: tuple[type[Exception], ...] = tuple(
    getattr(click.exceptions, name) for name in ("NoArgsIsHelpError",)
    if hasattr(click.exceptions, name)
)


def usage_failure(exc: click.UsageError) -> CliFailure | None:
    """click's usage error as one ``error: <message> (see '<command> --help')`` line,
    exit 2; None for a group called without a command, which keeps click's own answer
    (its help)."""
    if isinstance(exc, _HELP_NOT_ERROR):
        return None
    hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
    return CliFailure(f"{exc.format_message()}{hint}", exit_code=exc.exit_code)


class SquaresGroup(click.Group):
    """Turns the service layer's, the database's and the system's errors into
    ``error: ...`` and exit code 1, and click's usage errors into one such line
    with exit code 2."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:  # the group's own options
            failure = usage_failure(exc)
            if failure is None:
                raise
            raise failure from exc

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:  # a command's options and arguments
            failure = usage_failure(exc)
            if failure is None:
                raise
            raise failure from exc
        except Exception as exc:
            app = ctx.obj if isinstance(ctx.obj, AppContext) else None
            message = error_message(exc, app.sqlite_path if app is not None else None)
            if message is None:
                raise
            raise CliFailure(message) from exc


@click.group(cls=SquaresGroup)
@click.option(
    "--database-url",
    default=None,  # the settings' (DATABASE_URL): `Settings` is the one reader of the environment
    metavar="URL",
    help="Database to use (default: DATABASE_URL, else sqlite:///<repo>/instance/squares.db, "
    "for an installed package ./instance/squares.db). "
    "sqlite:///path (a relative path is taken from the current directory) or "
    "postgresql://user:password@host/db.",
)
@click.option("--color/--no-color", default=None,
              help="Force colours on or off (default: only when stdout is a terminal).")
@click.pass_context
def cli(ctx: click.Context, database_url: str | None, color: bool | None) -> None:
    """Squares: run and manage the game service.

    Commands that touch data migrate the database to the newest schema first,
    so they all work on a new, empty database.
    """
    try:
        settings = Settings.from_env()
    except SettingError as exc:
        raise click.UsageError(str(exc)) from None
    ctx.obj = AppContext(database_url or settings.database_url, settings)
    if color is not None:
        ctx.color = color


for command in (
    serve.serve,
    db.db,
    games.games,
    replay.replay,
    maintenance.verify,
    maintenance.rebuild,
    daily.daily,
    players.players,
    review.review,
    highscores.highscores,
    simulate.simulate,
    play.play,
    watch.watch,
):
    cli.add_command(command)
