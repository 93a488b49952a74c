"""The Flask application factory: one `Services` per app, the API and the pages."""

from __future__ import annotations

import os
from typing import Any

from flask import Flask, jsonify
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import api, web
from ..api.errors import api_error
from ..config import database_url, invite_ttl_seconds, trusted_proxies
from ..ops import lifecycle, sweeper
from ..services import Services
from . import headers, hooks, limits
from .json import FastJSON

MAX_BODY_BYTES = 64 * 1024


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """The app on ``DATABASE_URL`` (or ``config["DATABASE_URL"]``).

    The schema is not created here: run ``squares db upgrade`` (``squares serve``
    does it for you) so that migrations stay the only way the schema changes.
    What the app opens (the sweeper's thread, the database pool) is let go by
    `lifecycle.close(app)`. The live streams and the analyst run in processes of
    their own (`service.serve`).
    """
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES, JSON_SORT_KEYS=False)
    app.config.setdefault("SQUARES_PUBLIC_URL", os.environ.get("SQUARES_PUBLIC_URL", ""))
    app.config.setdefault("SQUARES_TRUSTED_PROXIES",
                          os.environ.get("SQUARES_TRUSTED_PROXIES", "0"))
    app.config.update(config or {})
    proxies = trusted_proxies(str(app.config["SQUARES_TRUSTED_PROXIES"]))
    if proxies:
        # every per-client decision (limits, stream caps, logs) and the invite links'
        # scheme and host then come from the last `proxies` hops of X-Forwarded-*
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,  # type: ignore[method-assign]
                                x_host=proxies, x_port=proxies)
    url = app.config.get("DATABASE_URL") or database_url()
    app.config["DATABASE_URL"] = url
    app.extensions["squares"] = services = Services.from_url(url)
    lifecycle.on_close(app, services.store.dispose)  # the last to close
    invite_ttl_seconds()  # a bad setting stops the server at start, not a request later
    app.json = FastJSON(app)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.json.compact = True  # type: ignore[attr-defined]

    @app.get("/healthz")
    def healthz() -> Any:
        """Liveness: the process answers (the database is not touched)."""
        return jsonify(status="ok")

    @app.get("/readyz")
    def readyz() -> Any:
        """Readiness: the database answers a query and its schema is at the newest
        migration; else 503 naming only the failing part (no host, port or driver
        text: `readiness_problem` logs those)."""
        problem = app.extensions["squares"].store.readiness_problem()
        if problem is not None:
            return api_error("not_ready", problem)
        return jsonify(status="ok")

    api.init_app(app)
    app.register_blueprint(web.bp)
    headers.init_app(app)
    hooks.init_app(app, limits.init_app(app))
    started = sweeper.init_app(app)  # abandons stale games: a thread per process
    if started is not None:
        lifecycle.on_close(app, started.stop)
    return app
