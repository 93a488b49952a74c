"""What every answer carries, whichever server sends it: the one error shape and the
headers. The Flask app (`service.http.errors`, `service.http.hooks`) and the live streams' ASGI app
(`service.live.app`) build theirs here; nginx's own answers (`deploy/nginx.conf`) are
written by hand and checked against these by tests/packaging/test_nginx_answers.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import request_ids
from .headers import SECURITY_HEADERS


def error_body(code: str, message: str, details: Mapping[str, Any] | None = None
               ) -> dict[str, Any]:
    """``{"error": {"code", "message", "details"}}``: every failure's answer."""
    return {"error": {"code": code, "message": message, "details": dict(details or {})}}


def answer_headers(headers: Mapping[str, str], request_id: str) -> dict[str, str]:
    """An answer's own `headers` with the security headers and its request id."""
    return {**headers, **SECURITY_HEADERS, request_ids.HEADER: request_id}
