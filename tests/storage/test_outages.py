"""The store is where its errors become the service layer's: an outage of the database
leaves a unit of work as `DatabaseUnavailable` (its cause the driver's error), a bug
in a statement as the database's own error (the API's 500)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.exc import DBAPIError, OperationalError

from service.errors import DatabaseUnavailable
from service.store import EventStore


def test_a_database_that_cannot_be_opened_is_unavailable(tmp_path: Path) -> None:
    store = EventStore.from_url(f"sqlite:///{tmp_path}")  # a directory: no file opens
    try:
        with pytest.raises(DatabaseUnavailable) as caught, store.unit_of_work(write=False):
            pass
        assert isinstance(caught.value.__cause__, OperationalError)
        assert "unable to open database file" in caught.value.message
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
