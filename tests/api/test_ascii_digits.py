"""Every number a client writes as text is ASCII digits, or a 400: never read as a
number, never a 500.

Python's int() and a str regex's ``\\d`` take the decimal digits of every script
(``١٢`` is 12), and str.isdigit() takes superscripts that int() then refuses (``²``:
a ValueError, once a 500 of ``/highscores?size=``). Each form of `FORMS` is sent in
every numeric parameter: the API's are read from its OpenAPI document (every query,
path and header parameter of type integer, and every integer field of a JSON body),
so a new one is swept without being listed here; the pages' are `PAGE_NUMBERS`. An
API answer is the JSON error shape naming the parameter, a page the site's 400 page.
The streams server's own reading of ``after``, ``Last-Event-ID`` and ``viewers`` is
swept in ``tests/live/test_ascii_digits.py``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from werkzeug.routing import FloatConverter, IntegerConverter

from .helpers import CheckedClient, assert_error, create_game
from .test_error_pages import BROWSER, assert_error_page

# Numbers int() or str.isdigit() take that are not ASCII digits (ids: ASCII names).
FORMS = {
    "superscript": "²³",
    "full-width": "１２",
    "arabic-indic": "١٢",
    "extended-arabic-indic": "۱۲",
    "devanagari": "१२",
    "mixed-superscript": "1²",
    "mixed-arabic-indic": "1٢",
    "plus-sign": "+1",  # int() takes a sign, spaces and underscores too
    "underscore": "1_0",
}

# (page path, query parameter, its value around the number): `{g}` is a real game
PAGE_NUMBERS = [
    ("/games", "page", "{}"),
    ("/games/{g}", "step", "{}"),
    ("/highscores", "size", "{}x9"),
    ("/highscores", "size", "9x{}"),
]

# What the sweep must find in the OpenAPI document, so that it never sweeps nothing.
KNOWN = {
    ("get", "/api/games", "query", "limit"),
    ("get", "/api/games", "query", "offset"),
    ("get", "/api/games/{game_id}/events", "query", "after"),
    ("get", "/api/games/{game_id}/events", "query", "limit"),
    ("get", "/api/games/{game_id}/replay/{step}", "path", "step"),
    ("get", "/api/games/{game_id}/live", "query", "after"),
    ("get", "/api/games/{game_id}/live", "query", "viewers"),
    ("get", "/api/games/{game_id}/live", "header", "Last-Event-ID"),
    ("get", "/api/highscores", "query", "limit"),
    ("get", "/api/highscores", "query", "height"),
    ("get", "/api/highscores", "query", "width"),
    ("post", "/api/games", "json", "seed"),
    ("post", "/api/games", "json", "height"),
    ("post", "/api/games/{game_id}/lines", "json", "x"),
    ("post", "/api/games/{game_id}/lines", "json", "expected_version"),
}

CONVERTER = re.compile(r"<(\w+)[(:]")  # a rule's converters: <int:n>, <int(signed=True):n>
PLACEHOLDER = re.compile(r"{(\w+)}")  # an OpenAPI path's parameters
Param = tuple[str, str, str, str]  # method, path, where (query, path, header, json), name


def _resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        schema = spec["components"]["schemas"][name]
    return schema


def numeric_params(spec: dict[str, Any]) -> set[Param]:
    """Every parameter and JSON body field of type integer in the OpenAPI document."""
    found: set[Param] = set()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for param in [*item.get("parameters", []), *operation.get("parameters", [])]:
                if param.get("schema", {}).get("type") == "integer":
                    found.add((method, path, param["in"], param["name"]))
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                for name, field in _resolved(spec, body["schema"]).get("properties", {}).items():
                    if field.get("type") == "integer":
                        found.add((method, path, "json", name))
    return found


def _send(client: CheckedClient, param: Param, game_id: str, value: str) -> Any:
    """`value` in the one place `param` names; the path's other numbers are 1."""
    method, path, where, name = param
    in_path = {"game_id": game_id, **({name: value} if where == "path" else {})}
    url = PLACEHOLDER.sub(lambda found: in_path.get(found.group(1), "1"), path)
    return client.open(url, method=method.upper(),
                       query_string={name: value} if where == "query" else None,
                       headers={name: value} if where == "header" else None,
                       json={name: value} if where == "json" else None)


@pytest.fixture
def game_id(client: CheckedClient) -> str:
    return str(create_game(client)["game_id"])


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
def test_the_api_refuses_numbers_not_in_ascii_digits(client: CheckedClient, game_id: str,
                                                      form: str) -> None:
    params = numeric_params(client.get("/api/openapi.json").get_json())
    assert params >= KNOWN, KNOWN - params  # the sweep finds what is known at least
    for param in sorted(params):
        response = _send(client, param, game_id, form)
        details = assert_error(response, 400, "invalid_request")
        # the schema's error names the field; a parameter read by hand, its message
        where, name = param[2], param[3]
        message = response.get_json()["error"]["message"].lower()
        assert name in details.get("fields", {}).get(where, {}) or name.lower() in message, (
            param, response.get_json())


def test_a_json_body_takes_numbers_not_numeric_strings(client: CheckedClient) -> None:
    """A body's integer is a JSON number: even ASCII digits in a string are refused."""
    response = client.post("/api/games", json={"player_name": "A", "height": "9"})
    assert "height" in assert_error(response, 400, "invalid_request")["fields"]["json"]


def test_ascii_numbers_still_work(client: CheckedClient, game_id: str) -> None:
    assert client.get("/api/games?limit=1&offset=0").status_code == 200
    assert client.get(f"/api/games/{game_id}/events?after=0&limit=5").status_code == 200
    assert client.get(f"/api/games/{game_id}/replay/1").get_json()["step"] == 1
    live = client.get(f"/api/games/{game_id}/live?viewers=1", headers={"Last-Event-ID": "1"})
    assert live.status_code == 200 and live.mimetype == "text/event-stream"
    assert client.get("/api/highscores?height=7&width=9&limit=3").status_code == 200
    details = assert_error(client.get("/api/games?offset=-1"), 400, "invalid_request")
    assert details["fields"]["query"]["offset"] == ["Must be greater than or equal to 0 "
                                                    "and less than or equal to 2147483647."]


@pytest.mark.parametrize("form", FORMS.values(), ids=FORMS.keys())
def test_the_pages_refuse_numbers_not_in_ascii_digits(client: CheckedClient, game_id: str,
                                                        form: str) -> None:
    for path, name, around in PAGE_NUMBERS:
        response = client.get(path.format(g=game_id), headers=BROWSER,
                              query_string={name: around.format(form)})
        html = assert_error_page(response, 400, "Bad request")
        assert name in html, (path, name)


@pytest.mark.parametrize(("path", "query", "shown"), [
    ("/games", "page=1", "/games/{g}"),  # the game's row
    ("/games/{g}", "step=1", '<output id="step-no">1</output>'),
    ("/games/{g}", "step=0", '<output id="step-no">1</output>'),  # before the start: 1
    ("/games/{g}", "step=99", '<output id="step-no">{steps}</output>'),  # past the end
    ("/highscores", "size=9x13", 'value="9x13" selected'),
])
def test_pages_still_take_ascii_numbers(client: CheckedClient, game_id: str, path: str,
                                        query: str, shown: str) -> None:
    steps = client.get(f"/api/games/{game_id}").get_json()["state"]["version"]
    response = client.get(f"{path.format(g=game_id)}?{query}", headers=BROWSER)
    assert response.status_code == 200
    assert shown.format(g=game_id, steps=steps) in response.get_data(as_text=True)


def test_no_route_takes_werkzeugs_number_converters(app: Flask) -> None:
    """werkzeug's ``int`` and ``float`` converters read every script's digits: a number
    in a path is read by `ascii_int` in its view instead."""
    converters = app.url_map.converters
    numeric = [rule.rule for rule in app.url_map.iter_rules()
               for name in CONVERTER.findall(rule.rule)
               if issubclass(converters[name], (IntegerConverter, FloatConverter))]
    assert numeric == []
