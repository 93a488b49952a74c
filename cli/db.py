"""``squares db``: the schema, through Alembic (the migrations in ``migrations/``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import click

from service.store.migrations import (
    backup_sqlite,
    current_revisions,
    downgrade,
    downgrade_losses,
    migrate,
    pg_dump_command,
    script_directory,
)

from .context import AppContext, pass_app
from .output import CliFailure, safe_url

if TYPE_CHECKING:  # Alembic is imported by the commands that use it (a faster start)
    from alembic.script import ScriptDirectory


def heads() -> tuple[str, ...]:
    scripts: ScriptDirectory = script_directory()
    return tuple(scripts.get_heads())


def describe(revisions: tuple[str, ...], heads: tuple[str, ...]) -> str:
    if not revisions:
        return "none (no schema yet)"
    marks = [f"{r} (head)" if r in heads else r for r in revisions]
    return ", ".join(marks)


@click.group()
def db() -> None:
    """Manage the database schema (Alembic)."""


@db.command()
@click.argument("revision", default="head")
@pass_app
def upgrade(app: AppContext, revision: str) -> None:
    """Upgrade the schema to REVISION (default: head)."""
    before = current_revisions(app.url)
    migrate(app.url, revision)
    after = current_revisions(app.url)
    click.echo(f"{safe_url(app.url)}: {describe(before, heads())} -> "
               f"{describe(after, heads())}")


@db.command("downgrade", context_settings={"ignore_unknown_options": True})
@click.argument("revision", default="-1")
@click.option("--yes", is_flag=True, help="Confirm dropping tables or columns that hold rows.")
@pass_app
def downgrade_command(app: AppContext, revision: str, yes: bool) -> None:
    """Downgrade the schema to REVISION (default -1: one step; `base`: no tables).

    Prints the rows each dropped table or column holds; when any holds rows, the
    downgrade needs --yes (back up first: `squares db backup PATH`).
    """
    losses = downgrade_losses(app.url, revision)
    for loss in losses:
        click.echo(f"drops {loss}")
    holding = [loss for loss in losses if loss.rows]
    if holding and not yes:
        total = sum(loss.rows for loss in holding)
        raise CliFailure(f"refusing to drop {total} row{'' if total == 1 else 's'} "
                         "without --yes", exit_code=2)
    before = current_revisions(app.url)
    downgrade(app.url, revision)
    after = current_revisions(app.url)
    click.echo(f"{safe_url(app.url)}: {describe(before, heads())} -> "
               f"{describe(after, heads())}")


@db.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@pass_app
def backup(app: AppContext, path: Path) -> None:
    """Back up the database to PATH (SQLite: a consistent copy made online; PostgreSQL:
    prints the pg_dump command to run)."""
    if not app.url.startswith("sqlite"):
        click.echo(pg_dump_command(app.url, path))
        return
    if path.exists():
        raise CliFailure(f"{path} exists already; choose a new file")
    try:
        backup_sqlite(app.url, path)
    except (OSError, ValueError) as exc:
        raise CliFailure(f"backup failed: {exc}") from exc
    except sqlite3.Error as exc:  # the target cannot be made
        raise CliFailure(f"backup failed: {exc} ({path})") from exc
    click.echo(f"backed up {safe_url(app.url)} to {path}")


@db.command()
@pass_app
def current(app: AppContext) -> None:
    """Show the revision the database is at."""
    click.echo(describe(current_revisions(app.url), heads()))


@db.command()
@pass_app
def history(app: AppContext) -> None:
    """List the migrations, oldest first; the current one is marked."""
    current_revs = set(current_revisions(app.url))
    revisions = list(script_directory().walk_revisions())
    for rev in reversed(revisions):
        title = (rev.doc or "").strip().splitlines()[0] if rev.doc else ""
        mark = "  <- current" if rev.revision in current_revs else ""
        head = " (head)" if rev.is_head else ""
        click.echo(f"{rev.down_revision or 'base'} -> {rev.revision}{head}: {title}{mark}")
