"""The site's own error pages: an HTTP error of a page (anything outside ``/api``)
as a page of the site, with its header and navigation, a title, a sentence in plain
words and links back to Play and the replays.

`service.http.errors` decides between JSON and a page (``_wants_json``) and calls
`error_page` for a page. The status and the exception's own headers (``Allow`` of a
405, ``Retry-After`` of a 429 or 503) are kept; the security headers and any
``Retry-After`` of the rate limiter or of an outage are added later, by the
``after_request`` hooks, as on every answer. A 5xx page never shows the error's
text (nor a traceback: the handlers log those); a 4xx page other than a 429 shows a
description a view gave (``abort(400, description=...)``) under the sentence.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from flask import Response, render_template, request
from flask_babel import lazy_gettext
from werkzeug.exceptions import HTTPException

log = logging.getLogger(__name__)

# the pages whose ``<game_id>`` names a game: their 404 is "No such game"
GAME_PAGES = frozenset({"web.play_game", "web.replay", "web.watch", "web.join"})
GAME_ID_SHOWN = 64  # characters of an unknown id the page repeats, at most


@dataclass(frozen=True)
class Wording:
    """What an error page says, in the page's language (each text translated when the
    page is rendered: `lazy_gettext`)."""

    title: str
    sentence: str
    again: bool = False  # "Try again in N seconds." (``Retry-After``) or "in a moment"


WORDING: dict[int, Wording] = {
    400: Wording(lazy_gettext("Bad request"),
                 lazy_gettext("Something in this address is not what the page expects.")),
    404: Wording(lazy_gettext("Page not found"),
                 lazy_gettext("There is no page at this address. The link may be mistyped or out of date.")),
    405: Wording(lazy_gettext("Not allowed here"),
                 lazy_gettext("This page cannot be used that way. Open it from a link instead.")),
    410: Wording(lazy_gettext("Gone for good"),
                 lazy_gettext("What was here has been removed and will not come back.")),
    413: Wording(lazy_gettext("Too much data"),
                 lazy_gettext("The request was larger than this site accepts.")),
    429: Wording(lazy_gettext("Too many requests"),
                 lazy_gettext("You sent a lot of requests in a short time."), again=True),
    500: Wording(lazy_gettext("Something went wrong"),
                 lazy_gettext("The page failed on our side, not yours. Try again in a little while.")),
    503: Wording(lazy_gettext("Back in a moment"),
                 lazy_gettext("The site cannot answer right now."), again=True),
}
NO_SUCH_GAME = Wording(lazy_gettext("No such game"),
                       lazy_gettext("There is no game with this id. The link may be mistyped, "
                       "or the game may have been removed."))
NO_SUCH_PLAYER = Wording(lazy_gettext("No such player"),
                         lazy_gettext("No game has a player of this name yet. The link may be "
                         "mistyped, or their games may have been removed."))


def wording(error: HTTPException) -> Wording:
    status = error.code or 500
    if status == 404 and request.url_rule is not None \
            and request.url_rule.endpoint in GAME_PAGES:
        return NO_SUCH_GAME
    if status == 404 and request.url_rule is not None \
            and request.url_rule.endpoint == "web.player":
        return NO_SUCH_PLAYER
    known = WORDING.get(status)
    if known is not None:
        return known
    if status >= 500:
        return WORDING[500]
    return Wording(error.name, lazy_gettext("The site could not answer this request."))


def detail(error: HTTPException) -> str | None:
    """A description the view gave (not Werkzeug's default text), for a 4xx only and
    not a 429 (the limiter's names the limit itself, "at most 1 per 1 minute ...")."""
    status = error.code or 500
    description = error.description
    if status >= 500 or status == 429 or not description \
            or description == type(error).description:
        return None
    return str(description)


def retry_seconds(error: HTTPException) -> int | None:
    seconds = getattr(error, "retry_after", None)
    return seconds if isinstance(seconds, int) and seconds > 0 else None


def error_page(error: HTTPException) -> Response | HTTPException:
    """`error` as the site's page; `error` itself (Werkzeug's page) if it carries a
    response of its own or if the page cannot be rendered."""
    if getattr(error, "response", None) is not None:
        return error
    status = error.code or 500
    words = wording(error)
    game_id = None
    if words is NO_SUCH_GAME and request.view_args:
        game_id = str(request.view_args.get("game_id") or "")[:GAME_ID_SHOWN] or None
    try:
        body = render_template(
            "error.html", status=status, title=words.title, sentence=words.sentence,
            again=words.again, retry_after=retry_seconds(error), detail=detail(error),
            game_id=game_id, active=None,
        )
    except Exception:  # never let the error page turn a 404 into a bare 500
        log.exception("the error page for %s %s could not be rendered",
                      request.method, request.path)
        return error
    headers = [(k, v) for k, v in error.get_headers() if k.lower() != "content-type"]
    return Response(body, status=status, headers=headers, mimetype="text/html")
