"""One error shape for every failure: ``{"error": {"code", "message", "details"}}``.

Domain and service errors keep their stable codes; HTTP-level failures (bad JSON,
schema errors, unknown routes, oversized bodies) get codes of their own here.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from ..domain.commands import RuleViolation
from ..errors import ServiceError

log = logging.getLogger(__name__)

SERVICE_STATUS = {
    "game_not_found": 404,
    "step_out_of_range": 404,
    "high_score_not_found": 404,
    "token_missing": 401,
    "token_invalid": 403,
    "version_conflict": 409,
    "not_computer_turn": 409,
    "not_online": 409,
    "invite_invalid": 403,
    "invite_claimed": 409,
    "invite_expired": 410,
    "invalid_stream": 400,
}

# Rule violations no game state could make valid: 422. The rest depend on the
# state of the game (whose turn, which stage, what is drawn): 409.
NEVER_VALID = frozenset({
    "out_of_field", "not_a_line_slot", "invalid_name", "invalid_level", "invalid_mode",
    "invalid_field_size", "unknown_command",
})

HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


def error_response(status: int, code: str, message: str,
                   details: dict[str, Any] | None = None) -> Response:
    response = jsonify(error={"code": code, "message": message, "details": details or {}})
    response.status_code = status
    return response


def rule_status(code: str) -> int:
    return 422 if code in NEVER_VALID else 409


def _on_service_error(error: ServiceError) -> Response:
    status = SERVICE_STATUS.get(error.code, 400)
    response = error_response(status, error.code, error.message, error.details)
    if status == 401:
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
        return error  # the pages keep Werkzeug's HTML error pages
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    messages = data.get("messages")
    if messages is not None:  # webargs (see routes.ArgumentsParser)
        if isinstance(getattr(error, "exc", None), ValidationError):  # failed its schema
            return error_response(400, "invalid_request",
                                  "the request does not match its schema", {"fields": messages})
        return error_response(400, "malformed_json", "the request body is not valid JSON",
                              {"fields": messages})
    code = HTTP_CODES.get(status, f"http_{status}")
    message = error.description or error.name
    if status == 413:
        limit = request.max_content_length
        message = f"the request body is larger than {limit} bytes"
    response = error_response(status, code, message)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)  # required on a 405
    return response


def _on_unexpected(error: Exception) -> Response | HTTPException:
    log.exception("unhandled error on %s %s", request.method, request.path, exc_info=error)
    if not _wants_json():
        return InternalServerError(original_exception=error)
    return error_response(500, "internal_error", "something went wrong on our side")


def register(app: Flask) -> None:
    """Install the handlers (after flask-smorest's, which they replace)."""
    app.register_error_handler(ServiceError, _on_service_error)
    app.register_error_handler(RuleViolation, _on_rule_violation)
    app.register_error_handler(HTTPException, _on_http_exception)
    app.register_error_handler(Exception, _on_unexpected)
