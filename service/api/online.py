"""Online games over the API: a friend claims the invited seat with the code from
the invite link (`POST /api/games/<id>/claim`; the join page asks first what a claim
would meet, `POST .../invite-check`), and the players of a finished game play again,
the seats swapped (`POST /api/games/<id>/rematch`; `GET` tells whether one waits).
Creating one is ``POST /api/games`` with ``"mode": "online"``; its answer holds the
invite (`invite_view`)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
from marshmallow import Schema, fields, validate

from ..protocol.event_json import event_view
from ..protocol.headers import no_store
from ..protocol.signed_in import current_player
from .blueprint import (
    TOKEN_DOC,
    bearer_token,
    blp,
    checked_game_id,
    current_services,
    error_responses,
)
from .request_schemas import ClaimSchema
from .response_schemas import ClaimedSchema, EventSchema, InviteSchema, StateSchema
from .views import invite_view, state_view

INVITE_STATUSES = ("open", "invite_invalid", "invite_claimed", "invite_expired", "not_online")


class InviteCheckSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(0, 200))


class InviteStatusSchema(Schema):
    status = fields.String(required=True, metadata={
        "enum": list(INVITE_STATUSES),
        "description": "what a claim with this code would meet now: `open` (the seat "
                       "waits), else the error code the claim would answer"})


class RematchSchema(Schema):
    game_id = fields.String(required=True, metadata={"description": "the rematch"})
    seat = fields.Integer(strict=True, required=True, metadata={
        "description": "the caller's seat in the rematch: the other one than before"})
    token = fields.String(required=True, metadata={
        "description": "shown only here: it moves this seat only"})
    created = fields.Boolean(required=True, metadata={
        "description": "true: the caller made the rematch (201, with `invite`); false: "
                       "the caller accepted the friend's (200)"})
    invite = fields.Nested(InviteSchema, allow_none=True, metadata={
        "description": "a rematch just made: the friend's invite (the friend may also "
                       "accept it by asking for the rematch with the old game's token)"})
    state = fields.Nested(StateSchema, required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class WaitingRematchSchema(Schema):
    game_id = fields.String(required=True)
    seat = fields.Integer(strict=True, required=True, metadata={
        "description": "the seat that waits for the friend"})
    claimed = fields.Boolean(required=True, metadata={"description": "the friend took it"})
    by = fields.String(required=True, metadata={"description": "who made the rematch"})


class RematchWaitsSchema(Schema):
    rematch = fields.Nested(WaitingRematchSchema, required=True, allow_none=True, metadata={
        "description": "the rematch of this game made by one of its players; null: none "
                       "(or one whose invite expired unclaimed)"})


@blp.route("/games/<game_id>/claim", methods=["POST"])
@blp.arguments(ClaimSchema())
@blp.response(201, ClaimedSchema)
@error_responses(400, 403, 404, 409, 410, 422)
@no_store
def claim(body: dict[str, Any], game_id: str) -> Response:
    """Take an online game's invited seat with the invitation's one-time code; the
    answer holds that seat's own token (only here). A wrong code is a 403
    (``invite_invalid``), a used one a 409 (``invite_claimed``), an expired one a 410
    (``invite_expired``); nothing is written then."""
    claimed = current_services().play.claim_seat(checked_game_id(game_id), body["code"],
                                                 body["name"], signed_in=current_player())
    response = jsonify(game_id=claimed.game_id, seat=claimed.seat, token=claimed.token,
                       state=state_view(claimed.game_id, claimed.state),
                       events=[event_view(e) for e in claimed.events])
    response.status_code = 201
    return response


@blp.route("/games/<game_id>/invite-check", methods=["POST"])
@blp.arguments(InviteCheckSchema())
@blp.response(200, InviteStatusSchema)
@error_responses(400, 404)
@no_store
def invite_check(body: dict[str, Any], game_id: str) -> Response:
    """What a claim with this code would meet now, without claiming: the join page
    says up front when an invite is wrong, used or expired. Nothing is written."""
    status = current_services().play.invite_status(checked_game_id(game_id), body["code"])
    return jsonify(status=status)


@blp.route("/games/<game_id>/rematch", methods=["POST"])
@blp.response(201, RematchSchema)
@blp.alt_response(200, schema=RematchSchema, description="the friend's rematch, accepted")
@blp.doc(**TOKEN_DOC)
@error_responses(401, 403, 404, 409, 410, 422, 429)
@no_store
def rematch(game_id: str) -> Response:
    """Play a finished online game again, the seats swapped, with the token of either
    seat. The first player to ask makes the rematch (201: their token, and the invite
    for the friend); the friend then asks too and takes the waiting seat (200), or
    opens the invite link. 409: the game is not over, or nobody joined it
    (``no_rematch``), the caller made the rematch already (``rematch_exists``,
    ``details.game_id``), its seat is taken (``invite_claimed``)."""
    made = current_services().play.rematch(checked_game_id(game_id), bearer_token(),
                                           client_address=request.remote_addr,
                                           signed_in=current_player())
    response = jsonify(game_id=made.game_id, seat=made.seat, token=made.token,
                       created=made.created,
                       invite=None if made.invite is None else invite_view(made.game_id,
                                                                           made.invite),
                       state=state_view(made.game_id, made.state),
                       events=[event_view(e) for e in made.events])
    response.status_code = 201 if made.created else 200
    return response


@blp.route("/games/<game_id>/rematch", methods=["GET"])
@blp.response(200, RematchWaitsSchema)
@error_responses(404)
def waiting_rematch(game_id: str) -> Response:
    """The rematch one of this game's players made, if one waits (the finished
    game's page asks while it is shown, to offer it to the friend)."""
    found = current_services().play.waiting_rematch(checked_game_id(game_id))
    return jsonify(rematch=None if found is None else {
        "game_id": found.game_id, "seat": found.seat, "claimed": found.claimed,
        "by": found.by})
