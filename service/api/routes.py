"""The JSON API under ``/api``: thin adapters from HTTP to `Services`.

Responses are documented by the schemas (`@blp.response`) and built by
`views`; a view returning a ready `Response` is passed through by flask-smorest
unchanged, which keeps serialisation off the hot path.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Response, current_app, jsonify, request, url_for
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from ..domain.render import render
from ..errors import GameNotFound
from ..headers import no_store
from ..services import MoveResult, Services
from . import schemas as s
from .views import (
    event_view,
    high_score_view,
    hint_view,
    state_view,
    summary_view,
    timestamp,
)


class ArgumentsParser(FlaskParser):
    """webargs' parser, with every undecodable JSON body reported as malformed JSON.

    Schema errors abort with 400 (not webargs' default 422, which this API keeps
    for values no game accepts); `errors` tells the two 400s apart by their cause.
    Bodies that `json.loads` refuses with something other than a `JSONDecodeError`
    (integer literals over Python's 4300-digit limit: `ValueError`; deep nesting:
    `RecursionError`) are turned into one, so they answer ``malformed_json``
    instead of a 500.
    """

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Any) -> Any:
        try:
            return super()._raw_load_json(req)
        except json.JSONDecodeError:
            raise
        except (ValueError, RecursionError) as exc:
            # a non-empty `doc`: webargs reads an empty one as "no body"
            raise json.JSONDecodeError(f"undecodable JSON: {exc}", "<request body>", 0) from exc


class ApiBlueprint(Blueprint):  # type: ignore[misc]
    ARGUMENTS_PARSER = ArgumentsParser()


blp = ApiBlueprint("api", __name__, url_prefix="/api",
                   description="Play, watch and replay Squares games; read the high score "
                               "table.")



@blp.before_request
def refuse_oversized_streams() -> None:
    """413 for a body without ``Content-Length`` (chunked) that runs past the limit.

    Werkzeug answers 413 up front when ``Content-Length`` is too large, but a body
    streamed without one is only read up to ``MAX_CONTENT_LENGTH`` and then silently
    cut: what is left could even parse as JSON and be played. So such a body is read
    here (at most the limit; `get_data` caches it for the parser) and refused whole
    when the server's input stream still has more.
    """
    limit = request.max_content_length
    if limit is None or request.content_length is not None:
        return
    data = request.get_data(cache=True)
    if len(data) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()


@blp.before_request
def refuse_bodies_that_are_not_json() -> None:
    """415 for a write whose body is not JSON: form-encoded, ``text/plain`` or no
    Content-Type at all. Every write takes a JSON body or none; a body the parser
    would ignore must not let a move through (a stale ``expected_version`` unseen)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.is_json:
        return
    if request.get_data(cache=True):
        raise UnsupportedMediaType("a request body must be JSON (Content-Type: "
                                   "application/json), or empty")


GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TOKEN_DOC = {"security": [{"bearerAuth": []}]}
ERRORS = {
    400: "malformed JSON or a request that does not match its schema",
    401: "token_missing",
    403: "token_invalid",
    404: "game_not_found",
    409: "version_conflict or a rule the game's state forbids now",
    410: "invite_expired",
    422: "a value no game accepts (out_of_field, not_a_line_slot, invalid_name, ...)",
    429: "rate_limited, or too_many_games: this address has its most active games",
}


def _services() -> Services:
    services: Services = current_app.extensions["squares"]
    return services


def _game_id(game_id: str) -> str:
    """Ids that cannot exist never reach the database."""
    if not GAME_ID.match(game_id):
        raise GameNotFound(f"no game {game_id!r}")
    return game_id


def _token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def _errors(*statuses: int) -> Any:
    """Document the error responses of an endpoint (all share `ErrorSchema`)."""
    def decorate(view: Any) -> Any:
        for status in statuses:
            view = blp.alt_response(status, schema=s.ErrorSchema,
                                    description=ERRORS[status])(view)
        return view
    return decorate


def _move_response(result: MoveResult) -> Response:
    return jsonify(game_id=result.game_id,
                   events=[event_view(e) for e in result.events],
                   state=state_view(result.game_id, result.state))


@blp.route("/games", methods=["POST"])
@blp.arguments(s.NewGameSchema())
@blp.response(201, s.CreatedSchema)
@_errors(400, 422, 429)
@no_store
def create_game(body: dict[str, Any]) -> Response:
    """Start a game; the answer holds the game's secret token (only here), and for
    ``mode: online`` the invite link to send to a friend. One client address may
    have at most ``SQUARES_ACTIVE_GAMES_PER_CLIENT`` active games (429
    ``too_many_games``)."""
    created = _services().create_game(**body, client_address=request.remote_addr)
    invite = created.invite
    response = jsonify(game_id=created.game_id, token=created.token,
                       state=state_view(created.game_id, created.state),
                       events=[event_view(e) for e in created.events],
                       invite=None if invite is None else {
                           "code": invite.code,
                           "url": _invite_url(created.game_id, invite.code),
                           "expires_at": timestamp(invite.expires_at)})
    response.status_code = 201
    response.headers["Location"] = f"/api/games/{created.game_id}"
    return response


def _invite_url(game_id: str, code: str) -> str:
    """The join page with the code in its #fragment, on ``SQUARES_PUBLIC_URL`` when
    set (the address players use, e.g. behind a proxy), else on this request's host."""
    public = current_app.config.get("SQUARES_PUBLIC_URL", "").rstrip("/")
    page = (public + url_for("web.join", game_id=game_id) if public
            else url_for("web.join", game_id=game_id, _external=True))
    return f"{page}#code={code}"


@blp.route("/games", methods=["GET"])
@blp.arguments(s.ListGamesQuerySchema(), location="query")
@blp.response(200, s.GameListSchema)
@_errors(400)
def list_games(query: dict[str, Any]) -> Response:
    """Games, newest first; filter by status (active|finished|abandoned) or a player's
    name. ``active`` leaves out the games past their time, even before the sweep
    wrote their abandonment."""
    services = _services()
    games, total = services.list_games(**query)
    accuracies = services.accuracies(g.game_id for g in games)
    return jsonify(games=[summary_view(g) | {"accuracy": accuracies.get(g.game_id)}
                          for g in games], total=total,
                   limit=query["limit"], offset=query["offset"])


@blp.route("/games/<game_id>", methods=["GET"])
@blp.response(200, s.GameSchema)
@_errors(404)
def get_game(game_id: str) -> Response:
    """The current state (board, scores, legal actions) and the game's summary."""
    summary, state = _services().get_game(_game_id(game_id))
    return jsonify(state=state_view(game_id, state), summary=summary_view(summary))


@blp.route("/games/<game_id>/lines", methods=["POST"])
@blp.arguments(s.LineSchema())
@blp.response(200, s.MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@_errors(400, 401, 403, 404, 409, 422)
def place_line(body: dict[str, Any], game_id: str) -> Response:
    """Draw the line at (x, y); when the human's turn ends, the computer's turn follows."""
    result = _services().place_line(_game_id(game_id), _token(), body["x"], body["y"],
                                    body["expected_version"])
    return _move_response(result)


@blp.route("/games/<game_id>/advance", methods=["POST"])
@blp.arguments(s.VersionSchema(), required=False)
@blp.response(200, s.MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@_errors(400, 401, 403, 404, 409)
def advance(body: dict[str, Any], game_id: str) -> Response:
    """Go on to the next stage (stage 3 inserts the random pieces, then the turn ends)."""
    result = _services().advance(_game_id(game_id), _token(), body["expected_version"])
    return _move_response(result)


@blp.route("/games/<game_id>/computer-turn", methods=["POST"])
@blp.response(200, s.MoveResultSchema)
@blp.doc(**TOKEN_DOC)
@_errors(401, 403, 404, 409)
def computer_turn(game_id: str) -> Response:
    """Play the turn of the computer seat to move: computer-vs-computer games, or a
    vs-computer turn left unplayed (e.g. by a restart between the two writes)."""
    return _move_response(_services().play_computer_turn(_game_id(game_id), _token()))


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.arguments(s.EventsQuerySchema(), location="query")
@blp.response(200, s.EventListSchema)
@_errors(400, 404)
def events(query: dict[str, Any], game_id: str) -> Response:
    """The event stream after position `after`, for replays and live viewers.

    `version` is the game's version when read; the events are those after `after` up
    to it (at most `limit`), so ``after=version`` is a safe cursor for the next poll.
    """
    stored, version = _services().event_page(_game_id(game_id), query["after"],
                                             query["limit"])
    return jsonify(events=[event_view(e) for e in stored], version=version)


@blp.route("/games/<game_id>/replay/<int(signed=True):step>", methods=["GET"])
@blp.response(200, s.ReplaySchema)
@_errors(404)
def replay(game_id: str, step: int) -> Response:
    """The state after the first `step` events (1 = the game as created)."""
    state, event, version = _services().replay_step(_game_id(game_id), step)
    return jsonify(step=step, version=version, state=state_view(game_id, state),
                   event=event_view(event))


@blp.route("/games/<game_id>/hint", methods=["GET"])
@blp.response(200, s.HintSchema)
@_errors(401, 403, 404, 409)
def hint(game_id: str) -> Response:
    """The computer's suggestion for the seat to move now.

    An online game has hints only when its creator turned them on (`hints`, else 403
    ``hints_off``), and then only for the token of the seat to move (401/403 without
    it, 409 ``not_your_turn`` for the other seat's). Other games need no token."""
    return jsonify(hint_view(_services().hint(_game_id(game_id), _token())))


@blp.route("/games/<game_id>/board.txt", methods=["GET"])
@blp.response(200, description="the board in the assignment's text style",
              content_type="text/plain")
@_errors(404)
def board_text(game_id: str) -> Response:
    """The board and status as plain text."""
    state = _services().get_state(_game_id(game_id))
    return Response(render(state) + "\n", mimetype="text/plain")


@blp.route("/highscores", methods=["GET"])
@blp.arguments(s.HighScoresQuerySchema(), location="query")
@blp.response(200, s.HighScoreListSchema)
@_errors(400)
def high_scores(query: dict[str, Any]) -> Response:
    """The high score table, best first (the default entries included)."""
    services = _services()
    entries = services.high_scores(query["limit"], height=query["height"],
                                   width=query["width"])
    accuracies = services.accuracies(e.game_id for e in entries if e.game_id)
    return jsonify(high_scores=[high_score_view(rank, e, accuracies)
                                for rank, e in enumerate(entries, start=1)])
