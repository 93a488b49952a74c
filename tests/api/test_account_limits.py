"""The passkey steps' rate limits: per address, and per name across addresses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.apps import app_for_tests
from tests.conftest import close_app

from .account_steps import SAME_SITE, claim
from .helpers import assert_error


@pytest.fixture
def strict_app(database_url: str) -> Iterator[Flask]:
    from .conftest import checked

    app = checked(app_for_tests({"DATABASE_URL": database_url,
                                 "SQUARES_LIMIT_SIGN_IN": "3 per minute"}))
    yield app
    close_app(app)


def _from(address: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": address}, "headers": SAME_SITE}


def test_one_address_gets_a_few_sign_in_options(strict_app: Flask) -> None:
    client = strict_app.test_client()
    for _ in range(3):
        assert client.post("/api/account/sign-in/options", json={},
                           **_from("10.0.0.1")).status_code == 200
    refused = client.post("/api/account/sign-in/options", json={}, **_from("10.0.0.1"))
    assert_error(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) >= 1
    assert client.post("/api/account/sign-in/options", json={},
                       **_from("10.0.0.2")).status_code == 200


def test_one_name_gets_a_few_recovery_tries_from_any_address(strict_app: Flask) -> None:
    client = strict_app.test_client()
    _, codes = claim(client, "Ayşe")
    for n in range(3):
        wrong = client.post("/api/account/recovery", json={"name": "Ayşe", "code": "x"},
                            **_from(f"10.0.1.{n}"))
        assert_error(wrong, 403, "recovery_code_invalid")
    refused = client.post("/api/account/recovery", json={"name": "AYSE", "code": codes[0]},
                          **_from("10.0.1.9"))
    assert_error(refused, 429, "rate_limited")
    other = client.post("/api/account/recovery", json={"name": "Bora", "code": "x"},
                        **_from("10.0.1.9"))
    assert_error(other, 403, "recovery_code_invalid")
