"""One error shape for every failure: ``{"error": {"code", "message", "details"}}``.

Domain and service errors keep their stable codes; HTTP-level failures (bad JSON,
schema errors, unknown routes, oversized bodies) get codes of their own. Every code's
status comes from the one table, `statuses`.

A database that cannot be reached or used (`database_outage`: a refused or lost
connection, the pool's checkout timeout, PostgreSQL shutting down or out of disk,
SQLite's full disk, I/O error or unopenable file) answers 503 ``unavailable`` with
``Retry-After``; the error and its traceback go to the log, never into the answer.
Every other unexpected error is a bug: a logged 500 ``internal_error``.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from flask import Flask, Response, jsonify, request
from marshmallow import ValidationError
from sqlalchemy import exc as sa_exc
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    ServiceUnavailable,
)

from ..domain.commands import RuleViolation
from ..errors import ServiceError
from ..ops import metrics
from ..store import WriteLockTimeout
from ..web.errors import error_page
from .statuses import (
    HTTP_CODES,
    OUTAGE_RETRY_AFTER_S,
    UNAVAILABLE_MESSAGE,
    http_error,
    rule_status,
    service_error,
)

try:
    import psycopg
except ImportError:  # pragma: no cover - SQLite-only installs
    psycopg = None  # type: ignore[assignment]

log = logging.getLogger(__name__)



def error_response(status: int, code: str, message: str,
                   details: dict[str, Any] | None = None) -> Response:
    response = jsonify(error={"code": code, "message": message, "details": details or {}})
    response.status_code = status
    return response


def api_error(code: str, message: str | None = None,
              details: dict[str, Any] | None = None) -> Response:
    """The answer of one of the API's own codes (`statuses.HTTP_ERRORS`), at its
    status; `message` defaults to the code's meaning."""
    kind = http_error(code)
    return error_response(kind.status, kind.code, message or kind.meaning, details)


def _on_service_error(error: ServiceError) -> Response:
    kind = service_error(error)
    if kind.status >= 500:  # the server's own trouble: its text goes to the log only
        log.error("%s on %s %s: %s", kind.code, request.method, request.path, error.message)
        return error_response(kind.status, kind.code, kind.meaning)
    response = error_response(kind.status, kind.code, error.message, error.details)
    if kind.status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="squares"'
    return response


def _on_rule_violation(error: RuleViolation) -> Response:
    return error_response(rule_status(error.code), error.code, error.message,
                          dict(error.details))


def _wants_json() -> bool:
    if request.path.startswith("/api/") or request.path == "/healthz":
        return True
    accept = request.accept_mimetypes
    return accept.best_match(["application/json", "text/html"]) == "application/json"


def _on_http_exception(error: HTTPException) -> Response | HTTPException:
    if not _wants_json():
        return error_page(error)  # the site's own page (service/web/errors.py)
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if messages is not None:  # webargs (see blueprint.ArgumentsParser)
        failed_schema = isinstance(getattr(error, "exc", None), ValidationError)
        return api_error("invalid_request" if failed_schema else "malformed_json",
                         details={"fields": messages})
    code = HTTP_CODES.get(status, f"http_{status}")
    message = error.description or error.name
    if status == 413:
        limit = request.max_content_length
        message = f"the request body is larger than {limit} bytes"
    response = error_response(status, code, message)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)  # required on a 405
    retry_after = getattr(error, "retry_after", None)
    if isinstance(retry_after, int):  # a 429 (`service.http.limits`), a 503
        response.headers["Retry-After"] = str(retry_after)
    return response


# SQLite result codes (the primary code, the low byte of an extended one) that mean
# the file cannot be used now: busy/locked past the busy timeout, out of memory,
# read-only, an I/O error, a full disk, a file that cannot be opened.
SQLITE_OUTAGE_CODES = frozenset({5, 6, 7, 8, 10, 13, 14, 15})
SQLITE_OUTAGE_TEXTS = ("database or disk is full", "disk i/o error", "unable to open",
                       "database is locked", "readonly database")
# PostgreSQL SQLSTATE classes: 08 connection exception, 28 the login is refused,
# 53 insufficient resources (disk full, out of memory, too many connections),
# 57 operator intervention (shutting down, starting up, query cancelled), 58 system
# error (I/O). Others (syntax, constraint, limits of a statement) are bugs.
PG_OUTAGE_CLASSES = frozenset({"08", "28", "53", "57", "58"})
_CHAIN_DEPTH = 8


def database_outage(error: BaseException) -> bool:
    """Whether `error` (or what it was raised from) says that the database cannot be
    reached or used right now, as opposed to a bug in a statement."""
    seen: set[int] = set()
    current: BaseException | None = error
    for _ in range(_CHAIN_DEPTH):
        if current is None or id(current) in seen:
            return False
        seen.add(id(current))
        if _is_outage(current):
            return True
        # SQLAlchemy's error wraps the driver's (``orig``); others may be raised from one
        orig = current.orig if isinstance(current, sa_exc.DBAPIError) else None
        current = orig if isinstance(orig, BaseException) else current.__cause__
    return False


def _is_outage(error: BaseException) -> bool:
    if isinstance(error, (sa_exc.DisconnectionError, sa_exc.TimeoutError, WriteLockTimeout)):
        return True  # a dead connection SQLAlchemy gave up on; the pool's checkout
        # timeout; SQLite's write lock not had in time
    if isinstance(error, sa_exc.DBAPIError):
        if error.connection_invalidated:
            return True  # SQLAlchemy recognised a disconnect
        # raised while connecting (no statement yet): the database is not there
        return error.statement is None and isinstance(
            error, (sa_exc.OperationalError, sa_exc.InterfaceError))
    return _driver_outage(error)


def _driver_outage(error: BaseException) -> bool:
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", None)
        if isinstance(code, int):
            return code & 0xFF in SQLITE_OUTAGE_CODES
        text = str(error).lower()
        return any(t in text for t in SQLITE_OUTAGE_TEXTS)
    if psycopg is not None and isinstance(error, psycopg.Error):
        if isinstance(error, psycopg.InterfaceError):
            return True  # the connection is closed or lost
        sqlstate = error.sqlstate
        if sqlstate is None:  # no answer from a server: refused, reset, timed out
            return isinstance(error, psycopg.OperationalError)
        return sqlstate[:2] in PG_OUTAGE_CLASSES
    return False


def _on_outage(error: Exception) -> Response | HTTPException:
    metrics.database_error("outage")
    log.error("the database is not available on %s %s", request.method, request.path,
              exc_info=error)
    if not _wants_json():
        return error_page(ServiceUnavailable(UNAVAILABLE_MESSAGE,
                                             retry_after=OUTAGE_RETRY_AFTER_S))
    response = api_error("unavailable", UNAVAILABLE_MESSAGE)
    response.headers["Retry-After"] = str(OUTAGE_RETRY_AFTER_S)
    return response


def _on_unexpected(error: Exception) -> Response | HTTPException:
    if database_outage(error):
        return _on_outage(error)
    if isinstance(error, sa_exc.SQLAlchemyError):
        metrics.database_error("error")
    log.exception("unhandled error on %s %s", request.method, request.path, exc_info=error)
    if not _wants_json():
        return error_page(InternalServerError(original_exception=error))
    return api_error("internal_error", "something went wrong on our side")


def register(app: Flask) -> None:
    """Install the handlers (after flask-smorest's, which they replace)."""
    app.register_error_handler(ServiceError, _on_service_error)
    app.register_error_handler(RuleViolation, _on_rule_violation)
    app.register_error_handler(HTTPException, _on_http_exception)
    app.register_error_handler(Exception, _on_unexpected)
