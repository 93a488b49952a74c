"""The Flask application factory: one `Services` per app, the API and the pages."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, jsonify

from . import api, headers, limits, web
from .api.errors import error_response
from .config import database_url, invite_ttl_seconds
from .services import Services

MAX_BODY_BYTES = 64 * 1024


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app on ``DATABASE_URL`` (or ``config["DATABASE_URL"]``).

    The schema is not created here: run ``squares db upgrade`` (``squares serve``
    does it for you) so that migrations stay the only way the schema changes.
    """
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False)
    app.config.setdefault("SQUARES_PUBLIC_URL", os.environ.get("SQUARES_PUBLIC_URL", ""))
    app.config.update(config or {})
    url = app.config.get("DATABASE_URL") or database_url()
    app.config["DATABASE_URL"] = url
    app.extensions["squares"] = Services.from_url(url)
    invite_ttl_seconds()  # a bad setting stops the server at start, not a request later
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.compact = True  # type: ignore[attr-defined]

    @app.get("/healthz")
    def healthz() -> Any:
        """Liveness: the process answers (the database is not touched)."""
        return jsonify(status="ok")

    @app.get("/readyz")
    def readyz() -> Any:
        """Readiness: the database answers a query and its schema is at the newest
        migration; 503 with the reason otherwise."""
        problem = app.extensions["squares"].store.readiness_problem()
        if problem is not None:
            return error_response(503, "not_ready", problem)
        return jsonify(status="ok")

    api.init_app(app)
    app.register_blueprint(web.bp)
    limits.init_app(app)
    headers.init_app(app)
    return app
