"""Security headers on every response: pages, API answers, errors and static files.

A few lines of our own (an ``after_request`` hook) rather than a library such as
flask-talisman: the policy is fixed (no per-view nonces are needed, because the
pages have no inline scripts or styles at all), and talisman's defaults would have
to be switched off one by one: it redirects to HTTPS and sets HSTS (the service
runs on plain HTTP behind whatever terminates TLS, and on loopback in tests) and
marks the session cookie secure. One more dependency for four constant headers is
not worth it.

Flask runs ``after_request`` functions for every response it finalizes: views,
``send_static_file``, and the answers of error handlers (404, 405, 413, the API's
JSON errors, and 500s from the catch-all handler in `service.http.errors`).
``setdefault`` leaves a header alone if a view ever sets a stricter one itself.

The policy (``CONTENT_SECURITY_POLICY``):

* ``default-src 'self'``, ``script-src 'self'``, ``style-src 'self'``: only files the
  app serves (``/assets/...``); no inline ``<script>``, ``<style>``, ``style=``,
  event handler attributes or ``javascript:`` URLs, no ``eval``. Setting styles
  through the CSSOM (``element.style.maxWidth = ...``, as board.js does) is not
  affected. The replay page's ``<script type="application/json">`` is a data
  block, never executed, so it needs no exception (see replay.html).
* ``img-src 'self' data:``: the pages' ``<link rel="icon" href="data:,">``.
* ``connect-src 'self'``: the pages' ``fetch`` calls go to ``/api`` only; when the
  live streams have an origin of their own (``SQUARES_LIVE_URL``,
  `service.ops.live_url`), that origin too, for the pages' ``EventSource``: on
  ``SQUARES_PUBLIC_URL``'s host when set, else on the request's (`live_origin`).
* ``object-src 'none'``, ``base-uri 'none'``, ``form-action 'self'``.
* ``frame-ancestors 'none'`` (with ``X-Frame-Options: DENY`` for browsers that
  predate it): the play page holds a game token in localStorage and acts on
  clicks, so no other site may frame it (clickjacking).

``Referrer-Policy: same-origin``: nothing about our URLs reaches other sites,
while requests within the site keep their ``Referer`` and, unlike under
``no-referrer`` (which makes a same-origin ``fetch`` POST send ``Origin: null``),
a meaningful ``Origin``, which logs and any origin check can use.
``X-Content-Type-Options: nosniff``: the JSON, the board text and the assets are
only ever what their ``Content-Type`` says.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any

from flask import Response, current_app, request

from ..ops import hosts, live_url, settings

CSP_DIRECTIVES: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}

CONTENT_SECURITY_POLICY = "; ".join(f"{name} {value}" for name, value in CSP_DIRECTIVES.items())

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def no_store(view: Callable[..., Response]) -> Callable[..., Response]:
    """For views whose answer carries a secret (a token, an invite code): no cache,
    the browser's or a proxy's, may keep it."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Response:
        response = view(*args, **kwargs)
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapper


def content_security_policy(live_origin: str = "") -> str:
    """The policy, with the live streams' own origin (if any) among ``connect-src``."""
    if not live_origin:
        return CONTENT_SECURITY_POLICY
    return _with_live_origin(live_origin)


@lru_cache(maxsize=64)
def _with_live_origin(origin: str) -> str:
    directives = {**CSP_DIRECTIVES, "connect-src": f"'self' {origin}"}
    return "; ".join(f"{name} {value}" for name, value in directives.items())


def live_origin() -> str:
    """The origin this request's pages open live streams on ("": their own): on
    ``SQUARES_PUBLIC_URL`` when set, else on the request's own scheme and host, never
    on a host the service does not answer to (`hosts`: the answer refusing it)."""
    configured = settings.of_app(current_app)
    if configured.public_url:
        scheme, host = hosts.public_address(configured.public_url)
    elif configured.trusted_hosts.allows(request.host):
        scheme, host = request.scheme, request.host
    else:
        return ""
    return live_url.origin_for(configured.live_url, scheme, host)


def add_security_headers(response: Response) -> Response:
    headers = response.headers
    for name, value in SECURITY_HEADERS.items():
        if name not in headers:  # werkzeug's setdefault raises and catches a KeyError
            headers[name] = value
    if settings.of_app(current_app).live_url not in ("", live_url.SAME_ORIGIN):
        response.headers["Content-Security-Policy"] = content_security_policy(live_origin())
    return response


def close_after_unread_body(response: Response) -> Response:
    """``Connection: close`` on an answer given before the request's body was read
    whole (a 413, a refusal before the body is parsed): the server then closes the
    connection rather than read the rest, and says so, so that the client opens a new
    one for its next request instead of writing to a closed one.

    Read whole means read up to ``Content-Length``: the stream's position, not its
    ``is_exhausted``, which under a server that ends the input itself (granian sets
    ``wsgi.input_terminated``) compares with ``MAX_CONTENT_LENGTH`` and so said every
    body unread, closing the connection after every write."""
    length = request.content_length
    if not length:
        return response
    limit = request.max_content_length
    if (limit is not None and length > limit) or not _read_whole(length):
        response.headers["Connection"] = "close"
    return response


def _read_whole(length: int) -> bool:
    try:
        return request.stream.tell() >= length
    except (AttributeError, OSError):  # a stream that cannot tell: assume unread
        _warn_cannot_tell()
        return False


@lru_cache(maxsize=1)  # once a process
def _warn_cannot_tell() -> None:
    """The request stream werkzeug hands us cannot tell its position (it could under
    werkzeug 3.1, MAX_CONTENT_LENGTH set: docs/design.md, "What we rely on"): said
    once, since every write then closes its connection."""
    logging.getLogger(__name__).warning(
        "the request body's stream cannot tell its position: every answer to a request "
        "with a body now says Connection: close (a werkzeug or server change?)")
