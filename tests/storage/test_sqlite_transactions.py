"""SQLite's transactions as the unit of work opens them (`engine.begin_sqlite`): a
write unit of work holds the write lock from its start (``BEGIN IMMEDIATE``), a read
one sees one snapshot from its first statement to its end, and an engine made for
migrations opens real transactions for a bare ``conn.begin()`` (Alembic's)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import func, select, text

from service.store import EventStore, events_table, make_engine
from service.store.engine import ADMIN


def _file(url: str) -> str:
    return url.removeprefix("sqlite:///")


def test_a_write_unit_of_work_holds_the_write_lock_from_its_start(
        sqlite_database_url: str) -> None:
    store = EventStore.from_url(sqlite_database_url)
    other = sqlite3.connect(_file(sqlite_database_url), timeout=0, isolation_level=None)
    try:
        with store.unit_of_work(), pytest.raises(sqlite3.OperationalError, match="locked"):
            other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")  # free again once it ended
        other.execute("ROLLBACK")
    finally:
        other.close()
        store.dispose()


def test_a_read_unit_of_work_reads_one_snapshot(sqlite_database_url: str) -> None:
    store = EventStore.from_url(sqlite_database_url)
    other = sqlite3.connect(_file(sqlite_database_url), isolation_level=None)
    count = select(func.count()).select_from(events_table)
    try:
        with store.unit_of_work(write=False) as uow:
            conn = uow.games._conn
            before = conn.execute(count).scalar_one()
            other.execute("UPDATE event_positions SET last = last + 7")
            seen = conn.execute(text("SELECT last FROM event_positions")).scalar_one()
            assert conn.execute(count).scalar_one() == before
        with store.unit_of_work(write=False) as uow:
            now = uow.games._conn.execute(text("SELECT last FROM event_positions")).scalar_one()
        assert now == seen + 7  # a new unit of work sees the other's commit
    finally:
        other.close()
        store.dispose()


def test_a_migration_engine_rolls_back_a_failed_transaction(
        sqlite_database_url: str, tmp_path: Path) -> None:
    engine = make_engine(sqlite_database_url, ADMIN, for_migrations=True)
    try:
        with pytest.raises(RuntimeError), engine.connect() as conn, conn.begin():
            conn.execute(text("CREATE TABLE half_done (x INTEGER)"))
            raise RuntimeError("the migration fails half-way")
        with engine.connect() as conn:
            tables = conn.execute(text(
                "SELECT name FROM sqlite_master WHERE name = 'half_done'")).all()
        assert tables == []
    finally:
        engine.dispose()
