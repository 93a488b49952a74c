"""Who this request's session cookie signs in: looked up once per request, and only
when something asks (a move, authorised by its seat token, never does, so it costs
no session lookup)."""

from __future__ import annotations

from flask import current_app, g, request

from ..services.results import SignedIn

SESSION_COOKIE = "squares_session"
_UNSET = object()

__all__ = ["SESSION_COOKIE", "SignedIn", "current_player"]


def current_player() -> SignedIn | None:
    """The player signed in by the request's session cookie; None for a guest (no
    cookie, or a session that expired, was signed out, or whose player was forgotten)."""
    found = g.get("squares_signed_in", _UNSET)
    if found is _UNSET:
        token = request.cookies.get(SESSION_COOKIE)
        found = current_app.extensions["squares"].accounts.signed_in(token) if token else None
        g.squares_signed_in = found
    assert found is None or isinstance(found, SignedIn)
    return found
