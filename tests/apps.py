"""The Flask app as the in-process tests make it."""

from __future__ import annotations

from typing import Any

from flask import Flask

from service.http.app import create_app

# No background sweep in a test's app: a test that wants one starts it itself
# (tests/api/test_sweeper.py); the servers the e2e tests start sweep as shipped.
TEST_CONFIG = {"TESTING": True, "SQUARES_SWEEP_INTERVAL_S": "0"}


def app_for_tests(config: dict[str, Any]) -> Flask:
    """An app on `config` (``DATABASE_URL``, settings, Flask's own), TESTING."""
    return create_app({**TEST_CONFIG, **config})
