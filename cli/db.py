"""``squares db``: the schema, through Alembic (the migrations in ``migrations/``)."""

from __future__ import annotations

import click
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from service.store import alembic_config, downgrade, make_engine, migrate

from .context import AppContext, pass_app
from .output import require_yes, safe_url


def current_revisions(url: str) -> tuple[str, ...]:
    """The revisions the database is at (empty for a database without schema)."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return tuple(MigrationContext.configure(conn).get_current_heads())
    finally:
        engine.dispose()


def script_directory(url: str) -> ScriptDirectory:
    return ScriptDirectory.from_config(alembic_config(url))


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
    heads = tuple(script_directory(app.url).get_heads())
    click.echo(f"{safe_url(app.url)}: {describe(before, heads)} -> {describe(after, heads)}")


@db.command("downgrade", context_settings={"ignore_unknown_options": True})
@click.argument("revision", default="-1")
@click.option("--yes", is_flag=True, help="Confirm: a downgrade drops tables and data.")
@pass_app
def downgrade_command(app: AppContext, revision: str, yes: bool) -> None:
    """Downgrade the schema to REVISION (default -1: one step; `base`: no tables)."""
    require_yes(yes, "downgrade")
    heads = tuple(script_directory(app.url).get_heads())
    before = current_revisions(app.url)
    downgrade(app.url, revision)
    after = current_revisions(app.url)
    click.echo(f"{safe_url(app.url)}: {describe(before, heads)} -> {describe(after, heads)}")


@db.command()
@pass_app
def current(app: AppContext) -> None:
    """Show the revision the database is at."""
    heads = tuple(script_directory(app.url).get_heads())
    click.echo(describe(current_revisions(app.url), heads))


@db.command()
@pass_app
def history(app: AppContext) -> None:
    """List the migrations, oldest first; the current one is marked."""
    current_revs = set(current_revisions(app.url))
    revisions = list(script_directory(app.url).walk_revisions())
    for rev in reversed(revisions):
        title = (rev.doc or "").strip().splitlines()[0] if rev.doc else ""
        mark = "  <- current" if rev.revision in current_revs else ""
        head = " (head)" if rev.is_head else ""
        click.echo(f"{rev.down_revision or 'base'} -> {rev.revision}{head}: {title}{mark}")
