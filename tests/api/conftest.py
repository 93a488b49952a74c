"""Fixtures for the JSON API suite: the real app (API + pages) on a fresh database.

``app``/``client``/``services`` (from ``tests/conftest.py``) run on a fresh migrated
SQLite file per test. ``any_app``/``any_client`` run on every backend of the root
``database_url`` fixture: SQLite and, when ``SQUARES_TEST_POSTGRES_URL`` is set,
PostgreSQL; a few tests use them.

Every client is a `helpers.CheckedClient`: each JSON answer it receives is
validated against its marshmallow schema (errors against `ErrorSchema`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.conftest import close_app, make_app

from .helpers import CheckedClient


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each operation's collected fuzz test function (before -k or -m deselect
    any) for the fuzz count check of tests/api/test_fuzz.py."""
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and hasattr(module, "is_fuzz_item") and module.is_fuzz_item(item):
            module.BUILT[module.operation_of(item)] = item.obj


def checked(app: Flask) -> Flask:
    """`app` with `CheckedClient` as its test client."""
    app.test_client_class = CheckedClient
    return app


@pytest.fixture
def app(app: Flask) -> Flask:
    """The root ``app`` (fresh SQLite), with the checking test client."""
    return checked(app)


@pytest.fixture
def any_app(database_url: str) -> Iterator[Flask]:
    """The app on SQLite and (when configured) on PostgreSQL."""
    app = checked(make_app(database_url))
    yield app
    close_app(app)


@pytest.fixture
def any_client(any_app: Flask) -> Any:
    return any_app.test_client()
