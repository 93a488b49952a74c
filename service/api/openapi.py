"""The JSON API on the app: the flask-smorest `Api` with the endpoints' blueprint, the
OpenAPI document (``/api/openapi.json``) and the readable API page (``/api/docs``)."""


from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Flask, current_app, render_template
from flask_smorest import Api
from markupsafe import Markup, escape

from ..protocol import statuses
from ..protocol.name_paths import NAME_MAX_IN_PATH, NameConverter

# analysis, daily, feed, highscores, online, players, ratings and routes add their endpoints to blp
from . import (  # noqa: F401
    account,
    analysis,
    daily,
    feed,
    highscores,
    online,
    players,
    ratings,
    routes,
)
from .blueprint import blp
from .response_schemas import ErrorSchema, HealthSchema


class SquaresApi(Api):
    ERROR_SCHEMA = ErrorSchema  # document our one error shape, not flask-smorest's


API_CONFIG: dict[str, Any] = {
    "API_TITLE": "Squares",
    "API_VERSION": "1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api",
    "OPENAPI_JSON_PATH": "openapi.json",
    # No Swagger UI / ReDoc settings: they load from CDNs; /api/docs is ours.
    "API_SPEC_OPTIONS": {
        "components": {
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
        },
        "info": {"description": "Every error answers {\"error\": {\"code\", \"message\", "
                                "\"details\"}}, its code at one status: "
                                + statuses.summary() + ". Moves need the game's token as "
                                "`Authorization: Bearer <token>`.",
                 "x-error-codes": statuses.table()},
    },
}

docs = Blueprint("api_docs", __name__, template_folder="templates")

# A code span of the descriptions (docstrings): ``double`` or `single` backticks, as
# CommonMark reads them in the OpenAPI document.
_CODE_SPAN = re.compile(r"``(.+?)``|`([^`]+)`", re.S)


@docs.app_template_filter("code_spans")
def code_spans(text: Any) -> Markup:
    """`text` escaped, its code spans as <code> elements: the page shows ``x`` as x in
    code type, never the backticks themselves."""
    parts, last = [], 0
    raw = "" if text is None else str(text)
    for found in _CODE_SPAN.finditer(raw):
        parts.append(escape(raw[last:found.start()]))
        parts.append(Markup("<code>%s</code>") % (found.group(1) or found.group(2)))
        last = found.end()
    parts.append(escape(raw[last:]))
    return Markup("").join(parts)


@docs.get("/api/docs")
def api_page() -> str:
    spec = current_app.extensions["squares_api"].spec.to_dict()
    return render_template("api_docs.html", spec=spec)


HEALTH_PATHS = {
    "/healthz": ("Liveness: the process answers (the database is not touched).", {}),
    "/readyz": ("Readiness: the database answers and its schema is the newest migration.",
                {"503": {"description": statuses.http_error("not_ready").code,
                         "content": {"application/json": {"schema": ErrorSchema}}}}),
}


def _document_health(app: Flask, api: Api) -> None:
    """`/healthz` and `/readyz` live in `service.http.app` (outside the blueprint); the
    document names them too."""
    for rule in app.url_map.iter_rules():
        if rule.rule not in HEALTH_PATHS:
            continue
        summary, errors = HEALTH_PATHS[rule.rule]
        api.spec.path(rule=rule, operations={"get": {
            "summary": summary,
            "tags": ["health"],
            "responses": {"200": {"description": "OK", "content": {
                "application/json": {"schema": HealthSchema}}}, **errors},
        }})


def _name_parameter(_converter: NameConverter) -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": NAME_MAX_IN_PATH}


def init_app(app: Flask) -> None:
    for key, value in API_CONFIG.items():
        app.config.setdefault(key, value)
    api = SquaresApi(app)
    api.register_converter(NameConverter, _name_parameter)
    api.register_blueprint(blp)
    _document_health(app, api)
    app.extensions["squares_api"] = api
    app.register_blueprint(docs)
