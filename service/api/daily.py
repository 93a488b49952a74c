"""The daily challenge (RULES D) under ``/api``: ``GET /api/daily`` (today's),
``GET /api/daily/<date>`` (any date begun: a past one's seed and final ranking), and
the start of a daily game, ``POST /api/games`` with ``"daily": true``
(`routes.create_game` hands it here).

A daily game's settings are the date's (`domain.daily`), so a request that names any
of the other creation fields with ``daily`` is refused (400 ``invalid_request``)
rather than silently played otherwise. ``player_name`` is a guest's name; a
signed-in player (the session cookie) plays under their own and gets their ranked
attempt.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Response, jsonify, request

from ..domain.texts import english
from ..errors import DailyNotYet
from ..protocol.event_json import event_view, timestamp
from ..protocol.headers import no_store
from ..protocol.signed_in import current_player
from ..services.daily import DailyDay
from .blueprint import blp, current_services, error_responses
from .errors import api_error
from .response_schemas import DailySchema
from .views import state_view

# What the daily fixes: the creation fields a daily request may not name
FIXED_FIELDS = ("difficulty", "mode", "seed", "hints", "height", "width", "second_name",
                "second_level", "rated")


def create_daily(body: dict[str, Any]) -> Response:
    """`routes.create_game` with ``"daily": true``: today's game for the signed-in
    player (their ranked attempt if it is their first of the date) or a guest."""
    raw = request.get_json(silent=True)
    named = sorted(set(raw) & set(FIXED_FIELDS)) if isinstance(raw, dict) else []
    if named:
        message = english("the daily challenge fixes {fields}: leave them out",
                          fields=", ".join(named))
        return api_error("invalid_request", message,
                         {"fields": {"json": {name: [message] for name in named}}})
    signed_in = current_player()
    started = current_services().daily.start(
        player_id=None if signed_in is None else signed_in.player_id,
        player_name=body["player_name"], client_address=request.remote_addr)
    created = started.created
    response = jsonify(game_id=created.game_id, token=created.token,
                       state=state_view(created.game_id, created.state),
                       events=[event_view(e) for e in created.events], invite=None)
    response.status_code = 201
    response.headers["Location"] = f"/api/games/{created.game_id}"
    return response


def daily_view(day: DailyDay) -> dict[str, Any]:
    return {
        "date": day.date.isoformat(),
        "commitment": day.commitment,
        "seed": day.seed,
        "over": day.over,
        "ranking": [{"place": e.place, "name": e.name, "score": e.score,
                     "game_id": e.game_id,
                     "ended_at": None if e.ended_at is None else timestamp(e.ended_at)}
                    for e in day.ranking],
        "ranked_players": day.ranked_players,
        "practice_games": day.practice_games,
        "best_game_id": day.best_game_id,
    }


@blp.route("/daily", methods=["GET"])
@blp.response(200, DailySchema)
@no_store
def daily_today() -> Response:
    """Today's daily challenge (the UTC date): its date, the commitment to its seed
    (the seed is revealed once the date is over) and its ranking so far, the ranked
    attempts whose games have ended, by score, ties by the earlier end."""
    return jsonify(daily_view(current_services().daily.day()))


# What the OpenAPI document says of the path's date (clients and fuzzers see a date)
DATE_PARAMETER = {"in": "path", "name": "day", "required": True,
                  "schema": {"type": "string", "format": "date"},
                  "description": "a UTC date, YYYY-MM-DD"}


@blp.route("/daily/<day>", methods=["GET"], parameters=[DATE_PARAMETER])
@blp.response(200, DailySchema)
@error_responses("invalid_request", DailyNotYet)
@no_store
def daily_of(day: str) -> Response:
    """The daily challenge of a date (``YYYY-MM-DD``, UTC): a past date's revealed seed,
    final ranking and best game (for its replay); today's as ``GET /api/daily``. 404
    ``daily_not_yet`` for a date to come, 400 ``invalid_request`` for no date."""
    try:
        when = date.fromisoformat(day) if len(day) == 10 and day.isascii() else None
    except ValueError:
        when = None
    if when is None:
        message = english("a date is YYYY-MM-DD")
        return api_error("invalid_request", message, {"fields": {"path": {"day": [message]}}})
    return jsonify(daily_view(current_services().daily.day(when)))
