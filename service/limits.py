"""Rate limits per client address (Flask-Limiter) on game creation, hints and moves.

Each app gets its own `Limiter`, and the limits are read from the app's config, which
defaults to the environment:

- ``SQUARES_LIMIT_CREATE`` (default ``30 per minute``): ``POST /api/games``
- ``SQUARES_LIMIT_HINT`` (default ``60 per minute``): ``GET /api/games/{id}/hint``
- ``SQUARES_LIMIT_MOVE`` (default ``300 per minute``): lines, advances and computer
  turns together
- ``SQUARES_RATELIMIT_STORAGE_URI`` (default ``memory://``): where the counts live.
  In memory each server process counts on its own, so with N gunicorn workers a
  client may get up to N times a limit; ``redis://host:6379[/db]`` (the Redis client
  installs with the project) counts once over all workers and instances.
- ``SQUARES_RATELIMIT_FALLBACK`` (default ``1``): while that storage does not answer,
  each process counts in memory on its own (so up to N times a limit again) and logs
  a warning (logger ``flask-limiter``); it tries the storage again now and then (1 to
  32 s apart, on a limited request) and counts there again once it answers. ``0``
  lets requests through unlimited instead. Either way a dead storage never makes a
  request fail.
- ``SQUARES_RATELIMIT_STORAGE_TIMEOUT`` (default ``0.5`` seconds): the longest a
  request waits for Redis to connect or answer before that happens.
- ``SQUARES_RATELIMIT_ENABLED=0`` turns the limits off (the load benchmark does).

A refused request is a 429 in the API's error shape (``rate_limited``) with
``Retry-After`` and the ``X-RateLimit-*`` headers.
"""

from __future__ import annotations

import os

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

DEFAULT_LIMITS = {
    "SQUARES_LIMIT_CREATE": "30 per minute",
    "SQUARES_LIMIT_HINT": "60 per minute",
    "SQUARES_LIMIT_MOVE": "300 per minute",
}
# endpoint -> the config key of its limit (endpoints with the same key share a count)
LIMITED_ENDPOINTS = {
    "api.create_game": "SQUARES_LIMIT_CREATE",
    "api.claim": "SQUARES_LIMIT_CREATE",
    "api.hint": "SQUARES_LIMIT_HINT",
    "api.place_line": "SQUARES_LIMIT_MOVE",
    "api.advance": "SQUARES_LIMIT_MOVE",
    "api.computer_turn": "SQUARES_LIMIT_MOVE",
}


def init_app(app: Flask) -> Limiter:
    """Wrap the limited endpoints of `app` (call after the blueprints are registered)."""
    for key, default in DEFAULT_LIMITS.items():
        app.config.setdefault(key, os.environ.get(key, default))
    app.config.setdefault("RATELIMIT_STORAGE_URI",
                          os.environ.get("SQUARES_RATELIMIT_STORAGE_URI", "memory://"))
    app.config.setdefault("RATELIMIT_ENABLED",
                          os.environ.get("SQUARES_RATELIMIT_ENABLED", "1") != "0")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED",
                          os.environ.get("SQUARES_RATELIMIT_FALLBACK", "1") != "0")
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # storage down, no fallback
    if app.config["RATELIMIT_STORAGE_URI"].startswith(("redis", "valkey")):
        timeout = float(os.environ.get("SQUARES_RATELIMIT_STORAGE_TIMEOUT", "0.5"))
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {
            "socket_connect_timeout": timeout, "socket_timeout": timeout})
    limiter = Limiter(get_remote_address, app=app)
    app.extensions["squares_limiter"] = limiter  # the wrapped views hold it only weakly
    for endpoint, key in LIMITED_ENDPOINTS.items():
        view = app.view_functions[endpoint]
        app.view_functions[endpoint] = limiter.shared_limit(app.config[key], scope=key)(view)
    return limiter
