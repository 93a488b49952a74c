"""The API's error answers: ``{"error": {"code", "message", "details"}}`` at the status
the one table (`service.protocol.statuses`) gives each code. The app's error handlers
(`service.http.errors`) answer with them on every API path."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ..protocol.answers import error_body
from ..protocol.messages import said
from ..protocol.statuses import http_error


def error_response(status: int, code: str, message: str,
                   details: dict[str, Any] | None = None) -> Response:
    # the message in the request's language (`protocol.messages`); the code stays
    response = jsonify(error_body(code, said(message, code), details))
    response.status_code = status
    return response


def api_error(code: str, message: str | None = None,
              details: dict[str, Any] | None = None) -> Response:
    """The answer of one of the API's own codes (`statuses.HTTP_ERRORS`), at its
    status; `message` defaults to the code's meaning."""
    kind = http_error(code)
    return error_response(kind.status, kind.code, message or kind.meaning, details)


