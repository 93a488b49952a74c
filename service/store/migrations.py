"""The schema's life: Alembic upgrades and downgrades, what a downgrade would drop,
and backups.

Every migration module declares ``DOWNGRADE_DROPS``: the tables (``()``) and the
columns its ``downgrade()`` removes, so that `downgrade_losses` can count the rows
a downgrade would lose before it runs (`tests/storage/test_migrations.py` checks each
declaration against what the downgrade really removes).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import column, func, inspect, select, table
from sqlalchemy.engine import Connection, make_url

from .engine import ADMIN, make_engine
from .private_files import PRIVATE_FILE

# Alembic is imported where it is used: the app's workers, the streams server and the
# analyst never migrate, and importing it cost each of them about 0.1 s of CPU at start.
if TYPE_CHECKING:
    from alembic.config import Config as AlembicConfig
    from alembic.script import Script, ScriptDirectory


def _migrations_dir() -> Path:
    """The directory of the installed (or checked-out) ``migrations`` package, found
    without importing it: the Alembic script directory at the top of the repository is
    also the top-level package ``migrations``, which a wheel installs next to
    `service`; the repository's own when it is not importable."""
    spec = importlib.util.find_spec("migrations")
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "env.py").is_file():
            return Path(location).resolve()
    return Path(__file__).resolve().parent.parent.parent / "migrations"


MIGRATIONS_DIR = _migrations_dir()


def alembic_config(url: str) -> AlembicConfig:
    from alembic.config import Config as AlembicConfig

    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.attributes["url"] = url
    return cfg


def script_directory() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(MIGRATIONS_DIR))


@functools.cache
def head_revisions() -> tuple[str, ...]:
    return tuple(script_directory().get_heads())


def schema_problem(conn: Connection) -> str | None:
    """Why the schema `conn` sees is not the newest one, or None."""
    current = _current_heads(conn)
    if set(current) != set(head_revisions()):
        have = ", ".join(current) or "none"
        return f"the schema is at revision {have}, not {', '.join(head_revisions())}"
    return None


def migrate(url: str, revision: str = "head") -> None:
    """Run Alembic ``upgrade <revision>`` (default head) on `url`."""
    from alembic import command as alembic_command

    alembic_command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    """Run Alembic ``downgrade <revision>`` (base: drops every table). See
    `downgrade_losses` for what it would drop first."""
    from alembic import command as alembic_command

    alembic_command.downgrade(alembic_config(url), revision)


def current_revisions(url: str) -> tuple[str, ...]:
    """The revisions the database is at (empty for a database without schema)."""
    engine = make_engine(url, ADMIN)
    try:
        with engine.connect() as conn:
            return _current_heads(conn)
    finally:
        engine.dispose()


def _current_heads(conn: Connection) -> tuple[str, ...]:
    from alembic.runtime.migration import MigrationContext

    return tuple(MigrationContext.configure(conn).get_current_heads())


@dataclass(frozen=True)
class Loss:
    table: str
    column: str | None  # None: the whole table
    rows: int  # rows of the table, or rows where the column is not NULL

    def __str__(self) -> str:
        what = self.table if self.column is None else f"{self.table}.{self.column}"
        return f"{what}: {self.rows} row{'' if self.rows == 1 else 's'}"


def revisions_undone(url: str, target: str) -> list[Script]:
    """The migrations a downgrade of `url` to `target` undoes, newest first.

    `target` is a revision id, ``base`` or ``-N`` (the history is linear).
    """
    scripts = script_directory()
    chain = list(reversed(list(scripts.walk_revisions())))  # oldest first
    ids = [s.revision for s in chain]
    current = current_revisions(url)
    if not current:
        return []
    top = ids.index(current[0]) if current[0] in ids else len(ids) - 1
    if target == "base":
        bottom = -1
    elif target.startswith("-") and target[1:].isdigit():
        bottom = max(top - int(target[1:]), -1)
    else:
        bottom = ids.index(scripts.get_revision(target).revision)
    return list(reversed(chain[bottom + 1 : top + 1]))


def downgrade_losses(url: str, target: str) -> list[Loss]:
    """What a downgrade to `target` would drop, with the rows it holds now."""
    engine = make_engine(url, ADMIN)
    try:
        with engine.connect() as conn:
            existing = set(inspect(conn).get_table_names())
            losses = []
            for script in revisions_undone(url, target):
                drops: dict[str, tuple[str, ...]] = script.module.DOWNGRADE_DROPS
                for name, columns in drops.items():
                    if name not in existing:
                        continue
                    if not columns:
                        count = select(func.count()).select_from(table(name))
                        losses.append(Loss(name, None, conn.execute(count).scalar_one()))
                    for col in columns:
                        count = (select(func.count()).select_from(table(name, column(col)))
                                 .where(column(col).is_not(None)))
                        losses.append(Loss(name, col, conn.execute(count).scalar_one()))
            return losses
    finally:
        engine.dispose()


def backup_sqlite(url: str, destination: Path) -> None:
    """Copy a live SQLite database with SQLite's online backup API (consistent while
    the service keeps writing)."""
    source_path = make_url(url).database
    if not source_path or source_path == ":memory:":
        raise ValueError("only a SQLite database file can be backed up this way")
    if not Path(source_path).is_file():
        raise FileNotFoundError(f"no database file {source_path}")
    # made here, 0600 whatever the umask: the copy holds the database's secrets
    # (`private_files`); O_EXCL: never over a file that exists
    try:
        os.close(os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    except FileExistsError:
        raise FileExistsError(f"{destination} exists already") from None
    source = sqlite3.connect(source_path)
    try:
        target = sqlite3.connect(destination)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def pg_dump_command(url: str, destination: Path) -> str:
    """The ``pg_dump`` command that backs up a PostgreSQL database (password left
    to ``PGPASSWORD`` or ``~/.pgpass``)."""
    parsed = make_url(url)
    parts = ["pg_dump", "--format=custom", f"--file={destination}"]
    if parsed.host:
        parts.append(f"--host={parsed.host}")
    if parsed.port:
        parts.append(f"--port={parsed.port}")
    if parsed.username:
        parts.append(f"--username={parsed.username}")
    parts.append(parsed.database or "")
    return " ".join(parts)
