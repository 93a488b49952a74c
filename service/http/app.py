"""The Flask application factory: one `Services` per app, the API and the pages."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify
from werkzeug.middleware.proxy_fix import ProxyFix

from .. import web
from ..api import openapi
from ..api.errors import api_error
from ..ops import lifecycle, logs, sweeper
from ..ops.settings import EXTENSION, Settings
from ..protocol import request_ids
from ..protocol.name_paths import CONVERTER, NameConverter
from ..services import Services
from . import errors, hooks, language, limits
from .json import FastJSON

MAX_BODY_BYTES = 64 * 1024


def create_app(config: dict[str, Any] | None = None, *,
               settings: Settings | None = None) -> Flask:
    """The app on the settings' database (`Settings.from_env`, with the settings
    `config` names, e.g. ``DATABASE_URL``; its other keys are Flask's own config).

    The schema is not created here: run ``squares db upgrade`` (``squares serve``
    does it for you) so that migrations stay the only way the schema changes.
    What the app opens (the sweeper's thread, the database pool) is let go by
    `lifecycle.close(app)`. The live streams and the analyst run in processes of
    their own (`service.serve`).
    """
    if settings is None:
        settings, config = Settings.of_config(config)
    logs.take_request_ids_from(request_ids.current)
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_BODY_BYTES)
    app.config.update(config or {})
    app.extensions[EXTENSION] = settings
    proxies = settings.trusted_proxies
    if proxies:
        # every per-client decision (limits, stream caps, logs) and the invite links'
        # scheme and host then come from the last `proxies` hops of X-Forwarded-*;
        # wrapping the method is Flask's documented way in, which mypy flags as
        # replacing a method
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies,  # type: ignore[method-assign]
                                x_host=proxies, x_port=proxies)
    app.extensions["squares"] = services = Services.from_url(settings=settings)
    lifecycle.on_close(app, services.store.dispose)  # the last to close
    app.json = FastJSON(app)

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

    # a player's name in a path, for the API's rules and the pages' (`name_paths`)
    app.url_map.converters[CONVERTER] = NameConverter
    openapi.init_app(app)
    errors.register(app)  # after flask-smorest's handlers, which they replace
    language.init_app(app)  # the pages' and the API errors' language (en, tr)
    app.register_blueprint(web.bp)
    hooks.init_app(app, limits.init_app(app, settings.limits))
    started = sweeper.init_app(app, settings.sweep_interval_s)  # a thread per process
    if started is not None:
        lifecycle.on_close(app, started.stop)
    return app

