"""Alembic environment: migrates the database given by `service.store.migrate(url)`,
else ``sqlalchemy.url`` from alembic.ini, else the settings' ``DATABASE_URL``."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from logging.config import fileConfig
from pathlib import Path

from alembic import context
from sqlalchemy.engine import Connection

from service.ops.database_urls import sqlalchemy_url
from service.ops.settings import Settings
from service.store import ADMIN, make_engine, metadata
from service.store.private_files import open_private

cfg = context.config
if cfg.config_file_name is not None and not cfg.attributes.get("url"):
    fileConfig(cfg.config_file_name, disable_existing_loggers=False)


def _url() -> str:
    return (
        cfg.attributes.get("url")
        or cfg.get_main_option("sqlalchemy.url")
        or Settings.from_env().database_url
    )


def run_migrations_offline() -> None:
    context.configure(
        url=sqlalchemy_url(_url()),
        target_metadata=metadata,
        literal_binds=True,
        render_as_batch=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


# Any fixed number: the PostgreSQL advisory lock that serialises concurrent migrations.
PG_MIGRATION_LOCK = 0x5371_7561


@contextlib.contextmanager
def migration_lock(connection: Connection) -> Iterator[None]:
    """Serialise migrations of one database across processes (e.g. two server
    workers starting together): a file lock next to a SQLite file, an advisory lock
    on PostgreSQL. The second migrator then finds the schema at head."""
    dialect = connection.dialect.name
    if dialect == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_lock({PG_MIGRATION_LOCK})")
        connection.commit()
        try:
            yield
        finally:
            connection.rollback()
            connection.exec_driver_sql(f"SELECT pg_advisory_unlock({PG_MIGRATION_LOCK})")
            connection.commit()
        return
    database = connection.engine.url.database if dialect == "sqlite" else None
    if not database or database == ":memory:":
        yield
        return
    lock_path = Path(database).with_name(Path(database).name + ".migrate-lock")
    # 0600 (`private_files`): whoever could open it could hold it and stall every start
    with open(lock_path, "a", opener=open_private) as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextlib.contextmanager
def sqlite_foreign_keys_off(connection: Connection) -> Iterator[None]:
    """SQLite batch migrations copy a table and drop the old one; with foreign keys
    on, dropping ``games`` would run its ``ON DELETE SET NULL`` on ``high_scores``.
    So they are off while migrating (the pragma only works outside a transaction)
    and ``PRAGMA foreign_key_check`` must find nothing afterwards."""
    if connection.dialect.name != "sqlite":
        yield
        return
    dbapi = connection.connection.dbapi_connection
    assert dbapi is not None and not connection.in_transaction()
    dbapi.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
        broken = dbapi.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
    finally:
        dbapi.execute("PRAGMA foreign_keys=ON")


def run_migrations_online() -> None:
    engine = make_engine(_url(), ADMIN, for_migrations=True)
    try:
        with (engine.connect() as connection, migration_lock(connection),
              sqlite_foreign_keys_off(connection)):
            context.configure(
                connection=connection,
                target_metadata=metadata,
                render_as_batch=True,  # SQLite's ALTER TABLE is limited
                transaction_per_migration=True,
                # SQLite DDL is transactional too (inside BEGIN): each migration is atomic
                transactional_ddl=True,
            )
            with context.begin_transaction():
                context.run_migrations()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
