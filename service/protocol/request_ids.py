"""The id of the request being answered: the client's ``X-Request-ID`` when it is
sane (1 to 128 of ``A-Z a-z 0-9 . _ : + / = -``), else one made here; every answer
carries it back (`access_log`) and every log line written for it names it (`logs`)."""

from __future__ import annotations

import re
import uuid

from flask import g, has_request_context, request

HEADER = "X-Request-ID"
SANE = re.compile(r"[A-Za-z0-9._:+/=-]{1,128}")


def request_id_of(header: str | None) -> str:
    """The client's id when it is sane, else a new one."""
    if header is not None and SANE.fullmatch(header):
        return header
    return uuid.uuid4().hex


def current() -> str | None:
    """The current request's id (decided on first use), or None outside a request."""
    if not has_request_context():
        return None
    found: str | None = g.get("request_id")
    if found is None:
        found = g.request_id = request_id_of(request.headers.get(HEADER))
    return found
