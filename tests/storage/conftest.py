"""Fixtures for the storage suite: every test runs on a fresh real database.

``backend``, ``database_url`` (fresh and migrated) and ``empty_database_url`` come from
``tests/conftest.py``: SQLite always, PostgreSQL too when ``SQUARES_TEST_POSTGRES_URL``
is set (``./dev test`` sets it). Here: the store and the services on ``database_url``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.services import Services
from service.store import EventStore


@pytest.fixture
def store(database_url: str) -> Iterator[EventStore]:
    s = EventStore.from_url(database_url)
    yield s
    s.dispose()


@pytest.fixture
def services(store: EventStore) -> Services:
    return Services(store)
