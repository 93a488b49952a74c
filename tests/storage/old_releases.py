"""A database as an older release left it: its schema built by our migrations up to
that release's newest one, then every row it stored, as it stored them (the fixture
folders `release_*/rows.json`). The upgrade tests start from here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, MetaData, insert, text

from service.store import ADMIN, make_engine, migrate


def fill_as_released(url: str, head: str, rows_of: dict[str, list[dict[str, Any]]], *,
                     every_table: bool) -> None:
    """`url` at migration `head` holding `rows_of` (table → rows); `every_table`: the
    rows name every table of that schema (else some tables may hold none)."""
    migrate(url, head)
    engine = make_engine(url, ADMIN)
    try:
        meta = MetaData()
        meta.reflect(engine)
        tables = set(meta.tables) | {"alembic_version"}
        assert tables == set(rows_of) if every_table else tables >= set(rows_of)
        with engine.begin() as conn:
            for name, rows in rows_of.items():
                if name == "alembic_version" or not rows:
                    continue
                table = meta.tables[name]
                conn.execute(table.delete())  # the migrations' own seed rows are in the rows
                dates = {c.name for c in table.columns if isinstance(c.type, DateTime)}
                conn.execute(insert(table), [
                    {k: datetime.fromisoformat(v) if k in dates and v is not None else v
                     for k, v in row.items()} for row in rows])
            if engine.dialect.name == "postgresql":  # the ids given: the serials follow
                conn.execute(text("SELECT setval(pg_get_serial_sequence('high_scores', 'id'), "
                                  "(SELECT max(id) FROM high_scores))"))
    finally:
        engine.dispose()
