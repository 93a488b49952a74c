"""One error shape for every failure: ``{"error": {"code", "message", "details"}}``,
or, for a page, the site's own error page (`service.web.errors`).

Domain and service errors keep their stable codes; HTTP-level failures (bad JSON,
schema errors, unknown routes, oversized bodies) get codes of their own. Every code's
status comes from the one table, `service.protocol.statuses`.

A database that cannot be reached or used (the store raises `DatabaseUnavailable`:
`service.store.outages` says which errors those are) answers 503 ``unavailable``
with ``Retry-After``; the error and its traceback go to the log, never into the
answer. Every other unexpected error is a bug: a logged 500 ``internal_error``.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, request
from marshmallow import ValidationError
from werkzeug.exceptions import (
    HTTPException,
    InternalServerError,
    MethodNotAllowed,
    ServiceUnavailable,
)

from ..api.errors import api_error, error_response
from ..domain.commands import RuleViolation
from ..domain.texts import english
from ..errors import DatabaseUnavailable, ServiceError
from ..protocol.statuses import (
    HTTP_CODES,
    OUTAGE_RETRY_AFTER_S,
    UNAVAILABLE_MESSAGE,
    rule_status,
    service_error,
)
from ..web.errors import error_page

log = logging.getLogger(__name__)


def _on_service_error(error: ServiceError) -> Response | HTTPException:
    if isinstance(error, DatabaseUnavailable):
        return _on_outage(error)
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
    if request.path.startswith("/api/") or request.path in ("/healthz", "/readyz"):
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
        message = english("the request body is larger than {limit} bytes", limit=limit)
    response = error_response(status, code, message)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)  # required on a 405
    retry_after = getattr(error, "retry_after", None)
    if isinstance(retry_after, int):  # a 429 (`service.http.limits`), a 503
        response.headers["Retry-After"] = str(retry_after)
    return response


def _on_outage(error: DatabaseUnavailable) -> Response | HTTPException:
    log.error("the database is not available on %s %s", request.method, request.path,
              exc_info=error.__cause__ or error)
    if not _wants_json():
        return error_page(ServiceUnavailable(UNAVAILABLE_MESSAGE,
                                             retry_after=OUTAGE_RETRY_AFTER_S))
    response = error_response(503, error.code, UNAVAILABLE_MESSAGE)
    response.headers["Retry-After"] = str(OUTAGE_RETRY_AFTER_S)
    return response


def _on_unexpected(error: Exception) -> Response | HTTPException:
    log.exception("unhandled error on %s %s", request.method, request.path, exc_info=error)
    if not _wants_json():
        return error_page(InternalServerError(original_exception=error))
    return api_error("internal_error", english("something went wrong on our side"))


def register(app: Flask) -> None:
    """Install the handlers (after flask-smorest's, which they replace)."""
    app.register_error_handler(ServiceError, _on_service_error)
    app.register_error_handler(RuleViolation, _on_rule_violation)
    app.register_error_handler(HTTPException, _on_http_exception)
    app.register_error_handler(Exception, _on_unexpected)
