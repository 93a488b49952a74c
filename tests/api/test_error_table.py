"""The one table of the API's errors (`service.protocol.statuses`): every service error and
every rule's refusal has its status and code there, the handlers answer by it and
the OpenAPI document lists it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from service import errors as service_errors
from service.domain.commands import RuleViolation
from service.errors import BadSetting, GameExists, ServiceError
from service.protocol import statuses

from .helpers import CheckedClient, assert_error

ROOT = Path(__file__).resolve().parents[2]


def _subclasses(cls: type[ServiceError]) -> set[type[ServiceError]]:
    found = set(cls.__subclasses__())
    return found.union(*(_subclasses(sub) for sub in found)) if found else found


SERVICE_ERRORS = sorted(_subclasses(ServiceError), key=lambda cls: cls.__name__)


def test_every_service_error_has_one_row_with_its_own_code() -> None:
    defined = {value for value in vars(service_errors).values()
               if isinstance(value, type) and issubclass(value, ServiceError)
               and value is not ServiceError}
    assert defined <= set(SERVICE_ERRORS)
    assert set(statuses.SERVICE_ERRORS) == set(SERVICE_ERRORS)
    for error, kind in statuses.SERVICE_ERRORS.items():
        assert kind.code == error.code, error
        assert 400 <= kind.status <= 599 and kind.meaning, error
    codes = [kind.code for kind in statuses.ALL]
    assert len(codes) == len(set(codes)), "a code at two statuses"


def test_no_service_error_falls_through_to_400() -> None:
    assert statuses.SERVICE_ERRORS[GameExists].status == 409
    assert statuses.SERVICE_ERRORS[BadSetting].status == 500


def test_every_rule_code_the_code_raises_is_in_the_table() -> None:
    raised = set()
    for path in (ROOT / "service").rglob("*.py"):
        raised |= set(re.findall(r'RuleViolation\(\s*"([a-z0-9_]+)"', path.read_text()))
    assert raised, "no RuleViolation found: the pattern is stale"
    assert raised <= set(statuses.RULE_ERRORS), raised - set(statuses.RULE_ERRORS)


@pytest.fixture
def raising(app: Flask) -> CheckedClient:
    """The app with one more endpoint that raises the service error or rule code named
    in its path, as a use case would."""
    by_name = {cls.__name__: cls for cls in SERVICE_ERRORS}

    def fail(name: str) -> Any:
        if name in by_name:
            raise by_name[name](f"{name} raised on purpose", some="detail")
        raise RuleViolation(name, f"{name} on purpose")

    app.add_url_rule("/api/test-raise/<name>", "test_raise", fail)
    client: CheckedClient = app.test_client()
    return client


@pytest.mark.parametrize("error", SERVICE_ERRORS, ids=lambda cls: cls.__name__)
def test_each_service_error_answers_its_status_and_code(raising: CheckedClient,
                                                        error: type[ServiceError]) -> None:
    kind = statuses.SERVICE_ERRORS[error]
    response = raising.get(f"/api/test-raise/{error.__name__}")
    details = assert_error(response, kind.status, kind.code)
    message = response.get_json()["error"]["message"]
    if kind.status >= 500:  # the server's own trouble: nothing of it in the answer
        assert details == {} and "on purpose" not in message
    else:
        assert details == {"some": "detail"} and message == f"{error.__name__} raised on purpose"
    if kind.status == 401:
        assert response.headers["WWW-Authenticate"].startswith("Bearer")


@pytest.mark.parametrize("code", sorted(statuses.RULE_ERRORS))
def test_each_rule_code_answers_its_status(raising: CheckedClient, code: str) -> None:
    assert_error(raising.get(f"/api/test-raise/{code}"), statuses.RULE_ERRORS[code].status,
                 code)


def test_a_rule_code_the_table_does_not_know_is_a_409(raising: CheckedClient) -> None:
    assert_error(raising.get("/api/test-raise/some_new_rule"), 409, "some_new_rule")


def test_the_openapi_document_lists_every_code_at_its_status(client: CheckedClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    listed = spec["info"]["x-error-codes"]
    assert listed == [dict(kind._asdict()) for kind in statuses.ALL]
    for kind in statuses.ALL:
        assert re.search(rf"\b{kind.status}: [a-z0-9_, ]*\b{kind.code}\b",
                         spec["info"]["description"]), kind
    # each documented error response names only codes of its own status
    documented: set[str] = set()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, response in operation["responses"].items():
                if not status.startswith(("4", "5")):
                    continue
                names = response["description"].split(", ")
                assert names and all(statuses.ALL_BY_CODE[name].status == int(status)
                                     for name in names), (path, method, status, names)
                documented |= set(names)
    every_service_code = {kind.code for kind in statuses.SERVICE_ERRORS.values()}
    unreachable = {"game_exists", "invalid_stream", "high_score_not_found"}
    # the server's own trouble (a setting, the database) can meet any endpoint: the
    # table lists it once (x-error-codes), not every endpoint
    server_side = {kind.code for kind in statuses.SERVICE_ERRORS.values()
                   if kind.status >= 500}
    assert server_side == {"bad_setting", "unavailable"}
    assert every_service_code - unreachable - server_side <= documented


def test_the_docs_page_shows_the_codes(client: CheckedClient) -> None:
    html = client.get("/api/docs").get_data(as_text=True)
    for kind in statuses.ALL:
        assert kind.code in html, kind
