"""The `squares` click group: the global ``--database-url`` and error reporting.

Exit codes: 0 ok, 1 a failed operation (service errors, refused moves, problems
found), 2 usage (bad options, a destructive command without ``--yes``). Errors go
to stderr as ``error: <message>``.
"""

from __future__ import annotations

from typing import Any

import click
from alembic.util.exc import CommandError
from sqlalchemy.exc import SQLAlchemyError

from service import config
from service.domain.events import EventFormatError
from service.domain.rules import RuleViolation
from service.domain.state import CorruptStream
from service.errors import GameNotFound, ServiceError

from . import db, games, highscores, maintenance, play, replay, serve, simulate
from .context import AppContext
from .output import CliFailure


def error_message(exc: Exception) -> str | None:
    """The one-line message for an error the CLI reports (None: not ours)."""
    if isinstance(exc, GameNotFound):
        return f"game {exc.details.get('game_id', '?')!r} not found"
    if isinstance(exc, ServiceError):
        return exc.message
    if isinstance(exc, RuleViolation):
        return f"{exc.message} ({exc.code})"
    if isinstance(exc, CorruptStream | EventFormatError):
        return f"corrupt event stream: {exc} (see `squares verify`)"
    if isinstance(exc, CommandError):
        return f"alembic: {exc}"
    if isinstance(exc, SQLAlchemyError):
        detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        return f"database error: {detail[0] if detail else type(exc).__name__}"
    return None


class SquaresGroup(click.Group):
    """Turns the service layer's errors into ``error: ...`` and exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as exc:
            message = error_message(exc)
            if message is None:
                raise
            raise CliFailure(message) from exc


@click.group(cls=SquaresGroup)
@click.option(
    "--database-url",
    envvar="DATABASE_URL",
    default=None,
    metavar="URL",
    help="Database to use (env DATABASE_URL; default sqlite:///<repo>/instance/squares.db, "
    "for an installed package ./instance/squares.db). "
    "sqlite:///path or postgresql://user:password@host/db.",
)
@click.option("--color/--no-color", default=None,
              help="Force colours on or off (default: only when stdout is a terminal).")
@click.pass_context
def cli(ctx: click.Context, database_url: str | None, color: bool | None) -> None:
    """Squares: run and manage the game service.

    Commands that touch data migrate the database to the newest schema first,
    so they all work on a new, empty database.
    """
    ctx.obj = AppContext(database_url or config.database_url())
    if color is not None:
        ctx.color = color


for command in (
    serve.serve,
    db.db,
    games.games,
    replay.replay,
    maintenance.verify,
    maintenance.rebuild,
    highscores.highscores,
    simulate.simulate,
    play.play,
):
    cli.add_command(command)
