"""``GET /api/ratings``: the ratings table (signed-in players' Glicko-2 ratings from
rated online games, docs/rules.md "Ratings"); a player's own rating is in their
answer (`players`)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from marshmallow import Schema, validate

from ..protocol.paths import INT32_MAX
from ..services.ratings import TABLE_MAX, RatingsPage
from .blueprint import blp, current_services, error_responses
from .players import player_url
from .response_schemas import RatingsSchema
from .schema_fields import query_int


class RatingsQuerySchema(Schema):
    limit = query_int(load_default=50, validate=validate.Range(1, TABLE_MAX),
                      metadata={"description": "players on this page"})
    offset = query_int(load_default=0, validate=validate.Range(0, INT32_MAX),
                       metadata={"description": "players skipped, highest first"})


def ratings_view(page: RatingsPage, limit: int, offset: int) -> dict[str, Any]:
    return {
        "players": [{"place": offset + n, "name": p.name, "player_url": player_url(p.name),
                     "rating": round(p.rating), "deviation": round(p.deviation),
                     "games": p.games}
                    for n, p in enumerate(page.players, start=1)],
        "total": page.total, "limit": limit, "offset": offset,
    }


@blp.route("/ratings", methods=["GET"])
@blp.arguments(RatingsQuerySchema(), location="query")
@blp.response(200, RatingsSchema)
@error_responses(400)
def ratings(query: dict[str, Any]) -> Response:
    """The ratings table: every signed-in player who has finished a rated online game,
    highest rating first, a page at a time (at most 100 a page). Ratings and
    deviations are rounded; a player's history is on their page
    (``GET /api/players/<name>``, ``rating``)."""
    page = current_services().ratings.table(limit=query["limit"], offset=query["offset"])
    return jsonify(ratings_view(page, query["limit"], query["offset"]))
