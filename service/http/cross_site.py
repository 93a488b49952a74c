"""Writes with the session cookie must come from our own pages.

The session cookie is SameSite=Lax, which keeps it off other sites' cross-site POSTs
in today's browsers; this check does not rely on that. Every state-changing request
(POST, PUT, PATCH, DELETE) that carries the cookie must name our origin
(`protocol.relying_party.own_origin`) in its ``Origin`` header, or, when a browser
sent none, in its ``Referer``; else it is a 403 ``cross_site`` before its view runs.
Requests without the cookie (the API's clients, who play by seat tokens) are not
looked at: a token in a header is no ambient authority.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from flask import request

from ..errors import CrossSite
from ..protocol.relying_party import own_origin
from ..protocol.signed_in import SESSION_COOKIE

log = logging.getLogger(__name__)

WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def check() -> None:
    """`CrossSite` for a write with the session cookie from anywhere but our origin."""
    if request.method not in WRITES or SESSION_COOKIE not in request.cookies:
        return
    origin = request.headers.get("Origin") or _origin_of(request.headers.get("Referer"))
    if origin is not None and origin.lower() == own_origin():
        return
    log.warning("cross-site write refused: %s %s from origin %s", request.method,
                request.path, origin or "(none)")
    raise CrossSite("this request carries the session cookie but does not come from "
                    "this site's pages", origin=origin)


def _origin_of(referer: str | None) -> str | None:
    if not referer:
        return None
    parts = urlsplit(referer)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}"
