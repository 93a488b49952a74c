"""The daily challenge's page, ``/daily``: play today's game (a form; ``static/daily``
starts it through ``POST /api/games`` with ``"daily": true``), today's ranking so far,
and yesterday's final ranking with its revealed seed and a link to the best game's
replay (`services.daily`). The page is rendered for who the session cookie signs in:
a signed-in player is told whether their next game is their ranked attempt."""

from __future__ import annotations

from datetime import timedelta

from flask import Response, make_response, render_template

from ..protocol.signed_in import current_player
from .blueprint import bp, page_services


@bp.get("/daily")
def daily() -> Response:
    services = page_services()
    today = services.daily.day()
    yesterday = services.daily.day(today.date - timedelta(days=1))
    player = current_player()
    attempt = (services.daily.ranked_attempt(player.player_id)
               if player is not None else None)
    response = make_response(render_template(
        "daily.html", active="daily", today=today, yesterday=yesterday, player=player,
        attempt=attempt))
    response.headers["Cache-Control"] = "no-store"  # whose page it is depends on the cookie
    return response
