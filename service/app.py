"""The Flask application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify


def create_app(config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=False)
    app.config.update(config or {})

    @app.get("/healthz")
    def healthz() -> Any:
        return jsonify(status="ok")

    return app
