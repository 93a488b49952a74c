"""The store is where its errors become the service layer's: an outage of the database
leaves a unit of work as `DatabaseUnavailable` (its cause the driver's error), a bug
in a statement as the database's own error (the API's 500). And PostgreSQL's pooled
connections are pinged before they are lent only after they idled."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, OperationalError

from service.errors import DatabaseUnavailable
from service.store import EventStore
from service.store.engine import PING_AFTER_IDLE_S, make_engine
from squares_testing.throwaway_postgres import cluster
from tests.databases import fresh_postgres_database, postgres_admin_url


def test_a_database_that_cannot_be_opened_is_unavailable(tmp_path: Path) -> None:
    store = EventStore.from_url(f"sqlite:///{tmp_path}")  # a directory: no file opens
    try:
        with pytest.raises(DatabaseUnavailable) as caught, store.unit_of_work(write=False):
            pass
        cause = caught.value.__cause__
        assert isinstance(cause, OperationalError)
        # the message is the driver's first line (its wording is SQLite's)
        assert caught.value.message == str(cause.orig).splitlines()[0] != ""
    finally:
        store.dispose()


def test_a_bad_statement_stays_the_databases_error(store: EventStore) -> None:
    with pytest.raises(DBAPIError) as caught, store.unit_of_work(write=False) as uow:
        uow.events._conn.exec_driver_sql("SELEC 1")
    assert not isinstance(caught.value, DatabaseUnavailable)


def test_an_outage_inside_a_nested_unit_of_work_is_wrapped_once(
        store: EventStore, tmp_path: Path) -> None:
    gone = EventStore.from_url(f"sqlite:///{tmp_path}")  # a directory: no file opens
    try:
        with (pytest.raises(DatabaseUnavailable) as caught, store.unit_of_work(write=False),
              gone.unit_of_work(write=False)):
            pass
        assert not isinstance(caught.value.__cause__, DatabaseUnavailable)
    finally:
        gone.dispose()


@contextlib.contextmanager
def _postgres_database() -> Iterator[str]:
    """A fresh database in the test cluster, else in a throwaway cluster of its own."""
    if postgres_admin_url() is not None:
        with fresh_postgres_database() as url:
            yield url
        return
    with cluster(prefix="squares-ping-pg-") as own:
        if own is None:
            pytest.fail("PostgreSQL server binaries not found (./dev test installs them)")
        yield own.url


def _backend_pid(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar_one())


def _terminate(url: str, pid: int) -> None:
    """End the server side of connection `pid`, and wait until it is gone."""
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        for _ in range(100):
            if admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s",
                             (pid,)).fetchone() == (0,):
                return
            time.sleep(0.05)
    pytest.fail(f"backend {pid} did not end")


def test_a_pooled_postgresql_connection_is_pinged_only_after_it_idled() -> None:
    """`engine.ping_after_idle`: a connection lent again within `PING_AFTER_IDLE_S` gets
    no ping, so one whose server side ended meanwhile fails its first statement (the
    request's 503), and the pool then replaces it; one idle longer is pinged first and
    replaced before it is lent."""
    with _postgres_database() as url:
        engine = make_engine(url)
        try:
            first = _backend_pid(engine)
            _terminate(url, first)
            with pytest.raises(DBAPIError) as caught, engine.connect() as conn:
                conn.exec_driver_sql("SELECT 1")
            assert caught.value.connection_invalidated
            second = _backend_pid(engine)  # the pool recycled it
            assert second != first
            _terminate(url, second)
            time.sleep(PING_AFTER_IDLE_S + 0.2)
            assert _backend_pid(engine) not in (first, second)  # pinged, then replaced
        finally:
            engine.dispose()
