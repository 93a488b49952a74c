"""The ratings page, ``/ratings``: signed-in players' Glicko-2 ratings from rated
online games, highest first, a page at a time (``?page=``). A player's own rating and
its history are on their page (`players`)."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import gettext

from ..protocol.paths import ascii_int
from ..services.ratings import TABLE_MAX
from .blueprint import bp, page_services

RATINGS_PER_PAGE = 50
assert RATINGS_PER_PAGE <= TABLE_MAX
MAX_PAGE = (2**31 - 1) // RATINGS_PER_PAGE  # the offset stays a 32-bit integer


@bp.get("/ratings")
def ratings() -> str:
    page = ascii_int(request.args.get("page", "1"))
    if page is None or not 1 <= page <= MAX_PAGE:
        abort(400, description=gettext("page must be a number from 1 to %(most)s",
                                       most=MAX_PAGE))
    offset = (page - 1) * RATINGS_PER_PAGE
    table = page_services().ratings.table(limit=RATINGS_PER_PAGE, offset=offset)
    pages = max(1, -(-table.total // RATINGS_PER_PAGE))
    return render_template("ratings.html", active="highscores", players=table.players,
                           offset=offset, page=page, pages=pages)
