"""The JSON API under ``/api``: thin adapters from HTTP to `Services`.

Responses are documented by the schemas (`@blp.response`) and built by
`views`; a view returning a ready `Response` is passed through by flask-smorest
unchanged, which keeps serialisation off the hot path.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request

from ..domain.render import render
from ..domain.texts import english
from ..errors import GameNotFound, RatedNeedsSignIn, StepOutOfRange
from ..protocol.event_json import event_view
from ..protocol.headers import no_store
from ..protocol.paths import ascii_int
from ..protocol.signed_in import current_player
from ..services import MoveResult
from .blueprint import (
    TOKEN_DOC,
    bearer_token,
    blp,
    checked_game_id,
    current_services,
    error_responses,
)
from .daily import create_daily
from .errors import api_error
from .request_schemas import (
    EventsQuerySchema,
    LineSchema,
    ListGamesQuerySchema,
    NewGameSchema,
    VersionSchema,
)
from .response_schemas import (
    CreatedSchema,
    EventListSchema,
    GameListSchema,
    GameSchema,
    HintSchema,
    MoveResultSchema,
    ReplaySchema,
)
from .views import (
    hint_view,
    invite_view,
    state_view,
    summary_view,
)


def _move_response(result: MoveResult) -> Response:
    return jsonify(game_id=result.game_id,
                   events=[event_view(e) for e in result.events],
                   state=state_view(result.game_id, result.state))


@blp.route("/games", methods=["POST"])
@blp.arguments(NewGameSchema())
@blp.response(201, CreatedSchema)
@error_responses(400, 422, 429, RatedNeedsSignIn)
@no_store
def create_game(body: dict[str, Any]) -> Response:
    """Start a game; the answer holds the game's secret token (only here), and for
    ``mode: online`` the invite link to send to a friend. One client address may
    have at most ``SQUARES_ACTIVE_GAMES_PER_CLIENT`` active games (429
    ``too_many_games``). With ``"daily": true``, today's daily challenge (`daily`).
    ``"rated": true`` (online only, else 422 ``invalid_mode``) needs a signed-in
    creator playing under their own name (409 ``rated_needs_sign_in``)."""
    if body.pop("daily"):
        return create_daily(body)
    created = current_services().play.create_game(**body, client_address=request.remote_addr,
                                                  signed_in=current_player())
    invite = created.invite
    response = jsonify(game_id=created.game_id, token=created.token,
                       state=state_view(created.game_id, created.state),
                       events=[event_view(e) for e in created.events],
                       invite=None if invite is None else invite_view(created.game_id, invite))
    response.status_code = 201
    response.headers["Location"] = f"/api/games/{created.game_id}"
    return response


@blp.route("/games", methods=["GET"])
@blp.arguments(ListGamesQuerySchema(), location="query")
@blp.response(200, GameListSchema)
@error_responses(400)
def list_games(query: dict[str, Any]) -> Response:
    """Games, newest first; filter by status (active|finished|abandoned|aborted; a
    resigned game is finished) or a player's name. ``active`` leaves out the games
    past their time, even before the sweep wrote their abandonment."""
    services = current_services()
    games, total = services.queries.list_games(**query)
    accuracies = services.reviews.accuracies(g.game_id for g in games)
    return jsonify(games=[summary_view(g) | {"accuracy": accuracies.get(g.game_id)}
                          for g in games], total=total,
                   limit=query["limit"], offset=query["offset"])


@blp.route("/games/<game_id>", methods=["GET"])
@blp.response(200, GameSchema)
@error_responses(GameNotFound)
def get_game(game_id: str) -> Response:
    """The current state (board, scores, legal actions) and the game's summary."""
    summary, state = current_services().queries.get_game(checked_game_id(game_id))
    return jsonify(state=state_view(game_id, state), summary=summary_view(summary))


@blp.route("/games/<game_id>/lines", methods=["POST"])
@blp.arguments(LineSchema())
@blp.response(200, MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@error_responses(400, 401, 403, 404, 409, 422)
def place_line(body: dict[str, Any], game_id: str) -> Response:
    """Draw the line at (x, y); when the human's turn ends, the computer's turn follows."""
    result = current_services().play.place_line(checked_game_id(game_id), bearer_token(),
                                           body["x"], body["y"], body["expected_version"])
    return _move_response(result)


@blp.route("/games/<game_id>/advance", methods=["POST"])
@blp.arguments(VersionSchema(), required=False)
@blp.response(200, MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@error_responses(400, 401, 403, 404, 409)
def advance(body: dict[str, Any], game_id: str) -> Response:
    """Go on to the next stage (stage 3 inserts the random pieces, then the turn ends)."""
    result = current_services().play.advance(checked_game_id(game_id), bearer_token(),
                                        body["expected_version"])
    return _move_response(result)


@blp.route("/games/<game_id>/computer-turn", methods=["POST"])
@blp.response(200, MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@error_responses(401, 403, 404, 409)
def computer_turn(game_id: str) -> Response:
    """Play the turn of the computer seat to move: computer-vs-computer games, or a
    vs-computer turn left unplayed (e.g. by a restart between the two writes)."""
    game_id = checked_game_id(game_id)
    return _move_response(current_services().play.play_computer_turn(game_id, bearer_token()))


@blp.route("/games/<game_id>/resign", methods=["POST"])
@blp.response(200, MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@error_responses(401, 403, 404, 409)
def resign(game_id: str) -> Response:
    """Give the game up: the token's human seat (on one screen: the seat to move)
    resigns at any stage, on either seat's turn, and the other seat wins
    (``game_resigned``, then ``game_over``; a ranked game's ``seed_revealed``). A
    resigned game enters no high score table. 409 ``game_over`` once the game has
    ended, ``waiting_for_opponent`` while an online game's friend has not joined
    (abort it instead), ``not_a_human`` for computer against computer."""
    game_id = checked_game_id(game_id)
    return _move_response(current_services().play.resign(game_id, bearer_token()))


@blp.route("/games/<game_id>/abort", methods=["POST"])
@blp.response(200, MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@error_responses(401, 403, 404, 409)
def abort(game_id: str) -> Response:
    """Call an online game off before both seats have moved: no winner, no result,
    no table (``game_aborted``; a ranked game's ``seed_revealed``). Either seat's
    token may: the creator's, or the friend's once claimed. 409 ``abort_too_late``
    once both have moved (resign instead), ``abort_online_only`` against the
    computer or on one screen, ``game_over`` once the game has ended."""
    game_id = checked_game_id(game_id)
    return _move_response(current_services().play.abort(game_id, bearer_token()))


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.arguments(EventsQuerySchema(), location="query")
@blp.response(200, EventListSchema)
@error_responses(400, GameNotFound)
def events(query: dict[str, Any], game_id: str) -> Response:
    """The event stream after position `after`, for replays and live viewers.

    `version` is the game's version when read; the events are those after `after` up
    to it (at most `limit`), so ``after=version`` is a safe cursor for the next poll.
    """
    stored, version = current_services().queries.event_page(checked_game_id(game_id),
                                                    query["after"], query["limit"])
    return jsonify(events=[event_view(e) for e in stored], version=version)


# `step` is read by `ascii_int`, not by werkzeug's int converter: that one takes any
# script's digits ("١" would be step 1), and a segment that is no number is a 400
# here, not a route that does not exist. A negative step is a number out of range.
@blp.route("/games/<game_id>/replay/<step>", methods=["GET"], parameters=[
    {"in": "path", "name": "step", "required": True, "schema": {"type": "integer"}}])
@blp.response(200, ReplaySchema)
@error_responses("invalid_request", GameNotFound, StepOutOfRange)
def replay(game_id: str, step: str) -> Response:
    """The state after the first `step` events (1 = the game as created)."""
    game_id = checked_game_id(game_id)
    number = ascii_int(step, signed=True)
    if number is None:
        return api_error("invalid_request", english("step must be an integer (ASCII digits)"))
    state, event, version = current_services().queries.replay_step(game_id, number)
    return jsonify(step=number, version=version, state=state_view(game_id, state),
                   event=event_view(event))


@blp.route("/games/<game_id>/hint", methods=["GET"])
@blp.response(200, HintSchema)
@blp.doc(**TOKEN_DOC)
@error_responses(401, 403, 404, 409)
def hint(game_id: str) -> Response:
    """The computer's suggestion for the seat to move now.

    A hint is the player's: it needs the token that moves the seat to move (401/403
    without it, 409 ``not_your_turn`` for the other seat's in an online game, whose
    hints are on only when its creator turned them on: else 403 ``hints_off``). The
    first hint a human seat asks for makes the game assisted, unranked (RULES E1):
    it appends ``hint_used``, once, and ``version`` in the answer counts it; a move
    may still name the version read before the hint as ``expected_version``."""
    return jsonify(hint_view(current_services().play.hint(checked_game_id(game_id), bearer_token())))


@blp.route("/games/<game_id>/board.txt", methods=["GET"])
@blp.response(200, description="the board in the assignment's text style",
              content_type="text/plain")
@error_responses(GameNotFound)
def board_text(game_id: str) -> Response:
    """The board and status as plain text."""
    state = current_services().queries.get_state(checked_game_id(game_id))
    return Response(render(state) + "\n", mimetype="text/plain")
