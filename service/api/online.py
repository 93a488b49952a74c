"""Online games over the API: a friend claims the invited seat with the code from
the invite link (`POST /api/games/<id>/claim`). Creating one is ``POST /api/games``
with ``"mode": "online"``; its answer holds the invite (`invite_view`)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify

from ..http.headers import no_store
from . import schemas as s
from .blueprint import blp, checked_game_id, current_services, error_responses
from .views import event_view, state_view


@blp.route("/games/<game_id>/claim", methods=["POST"])
@blp.arguments(s.ClaimSchema())
@blp.response(201, s.ClaimedSchema)
@error_responses(400, 403, 404, 409, 410, 422)
@no_store
def claim(body: dict[str, Any], game_id: str) -> Response:
    """Take an online game's invited seat with the invitation's one-time code; the
    answer holds that seat's own token (only here). A wrong code is a 403
    (``invite_invalid``), a used one a 409 (``invite_claimed``), an expired one a 410
    (``invite_expired``); nothing is written then."""
    claimed = current_services().play.claim_seat(checked_game_id(game_id), body["code"], body["name"])
    response = jsonify(game_id=claimed.game_id, seat=claimed.seat, token=claimed.token,
                       state=state_view(claimed.game_id, claimed.state),
                       events=[event_view(e) for e in claimed.events])
    response.status_code = 201
    return response
