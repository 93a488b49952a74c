"""The API's blueprint and what its endpoints share: the arguments parser, the
checks every request passes (body size, JSON bodies), the services, the game id
and token of a request, and the documented error responses.

The endpoints live in `routes` (games, moves, replays, high scores), `online`
(claiming a seat), `analysis` (reviews) and `feed` (the live stream).
"""

from __future__ import annotations

import json
from typing import Any

from flask import current_app, request
from flask_smorest import Blueprint
from marshmallow import missing
from webargs.flaskparser import FlaskParser, is_json_request
from werkzeug.exceptions import RequestEntityTooLarge, UnsupportedMediaType

from ..domain.texts import english
from ..errors import GameNotFound, ServiceError
from ..protocol.paths import GAME_ID
from ..protocol.statuses import HTTP_ERRORS, SERVICE_ERRORS, codes
from ..services import Services
from .response_schemas import ErrorSchema


class DuplicateKey(ValueError):
    """A JSON object that names one key twice."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise DuplicateKey("a key twice in one object")
    return found


class ArgumentsParser(FlaskParser):
    """webargs' parser, with every undecodable JSON body reported as malformed JSON.

    Schema errors abort with 400 (not webargs' default 422, which this API keeps
    for values no game accepts); `errors` tells the two 400s apart by their cause.
    Bodies that `json.loads` refuses with something other than a `JSONDecodeError`
    (integer literals over Python's 4300-digit limit: `ValueError`; deep nesting:
    `RecursionError`) are turned into one, so they answer ``malformed_json``
    instead of a 500. An object with a key twice is malformed too: Python's
    decoder would keep the last one silently, so ``{"x": 1, "x": 3}`` would play
    a line the client may not have meant (imports refuse such keys as well).
    """

    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Any) -> Any:
        if not is_json_request(req):
            return missing
        try:
            text = req.get_data(cache=True).decode("utf-8")
            return json.loads(text, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError:
            raise
        except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
            # a non-empty `doc`: webargs reads an empty one as "no body"
            raise json.JSONDecodeError(f"undecodable JSON: {exc}", "<request body>", 0) from exc


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = ArgumentsParser()


blp = ApiBlueprint("api", __name__, url_prefix="/api",
                   description="Play, watch and replay Squares games; read the high score "
                               "table.")


@blp.before_request
def check_body() -> None:
    """The checks of every request body of the API (`refuse_oversized_streams`,
    `refuse_bodies_that_are_not_json`), in one hook."""
    if request.method in ("GET", "HEAD", "OPTIONS") and not request.content_length:
        return
    refuse_oversized_streams()
    refuse_bodies_that_are_not_json()


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


def refuse_bodies_that_are_not_json() -> None:
    """415 for a write whose body is not JSON: form-encoded, ``text/plain`` or no
    Content-Type at all. Every write takes a JSON body or none; a body the parser
    would ignore must not let a move through (a stale ``expected_version`` unseen)."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.is_json:
        return
    if request.get_data(cache=True):
        raise UnsupportedMediaType("a request body must be JSON (Content-Type: "
                                   "application/json), or empty")


# an OpenAPI security requirement: the ``bearerAuth`` scheme, with no scopes
TOKEN_DOC: dict[str, list[dict[str, list[str]]]] = {"security": [{"bearerAuth": []}]}


def current_services() -> Services:
    services: Services = current_app.extensions["squares"]
    return services


def checked_game_id(game_id: str) -> str:
    """Ids that cannot exist never reach the database."""
    if not GAME_ID.match(game_id):
        raise GameNotFound(english("no game {game_id!r}", game_id=game_id))
    return game_id


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip() or None


def error_responses(*errors: int | str | type[ServiceError]) -> Any:
    """Document the error responses of an endpoint (all share `ErrorSchema`) from the
    one table (`statuses`): a status with all its codes; a service error, or one of
    the API's own codes, with its status and that code only."""
    described: dict[int, list[str]] = {}
    for error in errors:
        if isinstance(error, int):
            described.setdefault(error, []).extend(codes(error))
            continue
        kind = HTTP_ERRORS[error] if isinstance(error, str) else SERVICE_ERRORS[error]
        described.setdefault(kind.status, []).append(kind.code)

    def decorate(view: Any) -> Any:
        for status, listed in described.items():
            view = blp.alt_response(status, schema=ErrorSchema,
                                    description=", ".join(dict.fromkeys(listed)))(view)
        return view
    return decorate
