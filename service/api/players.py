"""``GET /api/players/<name>``: a player's page as JSON (their games, best scores,
average accuracy and online record), with its schemas and its view.

The name is one path segment of any text (`protocol.name_paths`: ``/`` and ``?``
percent-encoded); any way of writing it finds the same player
(`domain.names.name_key`). A name no player can have is a 400 ``invalid_request``, a
name no game has a 404 ``player_not_found``.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, url_for
from marshmallow import Schema, fields, validate

from ..domain.commands import RuleViolation
from ..domain.ranking import TABLES
from ..domain.start import MODES
from ..errors import PlayerNotFound
from ..protocol.event_json import timestamp
from ..protocol.name_paths import NAME_MAX_IN_PATH
from ..protocol.paths import INT32_MAX
from ..services import PlayerPage
from ..services.players import PAGE_MAX, PlayedGame, TableBest, human_seats, result_of
from .blueprint import blp, current_services, error_responses
from .errors import api_error
from .schema_fields import query_int, strict_int


class PlayerQuerySchema(Schema):
    limit = query_int(load_default=20, validate=validate.Range(1, PAGE_MAX),
                      metadata={"description": "games on this page"})
    offset = query_int(load_default=0, validate=validate.Range(0, INT32_MAX),
                       metadata={"description": "games skipped, newest first"})


class PlayerSeatSchema(Schema):
    seat = strict_int(required=True)
    name = fields.String(required=True, metadata={
        "description": "empty: an online game's seat nobody has claimed yet"})
    kind = fields.String(required=True, validate=validate.OneOf(("human", "computer")))
    player_url = fields.String(required=True, allow_none=True, metadata={
        "description": "the page of this seat's player; null for a computer or an open "
                       "seat"})


class PlayerGameSchema(Schema):
    game_id = fields.String(required=True)
    mode = fields.String(required=True, metadata={"enum": list(MODES)})
    height = strict_int(required=True)
    width = strict_int(required=True)
    level = fields.String(required=True, allow_none=True, metadata={
        "description": "the computer's level against the computer; null between humans"})
    seat = strict_int(required=True, metadata={
        "description": "the player's seat (1 when they had both)"})
    seats = fields.List(fields.Nested(PlayerSeatSchema), required=True)
    scores = fields.List(strict_int(), required=True)
    status = fields.String(required=True, validate=validate.OneOf(
        ("active", "finished", "abandoned")))
    result = fields.String(required=True, allow_none=True, metadata={
        "enum": ["won", "lost", "drawn", None],
        "description": "from the player's seat; null until the game is finished"})
    accuracy = strict_int(required=True, allow_none=True, metadata={
        "description": "the player's stage-1 accuracy in % from the game's review; "
                       "null until it is reviewed (or without a whole turn)"})
    ranked = fields.Boolean(required=True)
    assisted = fields.Boolean(required=True)
    created_at = fields.String(required=True)
    finished_at = fields.String(required=True, allow_none=True)


class BestScoreSchema(Schema):
    mode = fields.String(required=True, metadata={"enum": list(TABLES),
                                                  "description": "the table"})
    height = strict_int(required=True)
    width = strict_int(required=True)
    score = strict_int(required=True, metadata={"description": "the player's best there"})
    entries = strict_int(required=True, metadata={
        "description": "the player's entries in that table"})


class RecordSchema(Schema):
    wins = strict_int(required=True)
    losses = strict_int(required=True)
    draws = strict_int(required=True)


class PlayerSchema(Schema):
    name = fields.String(required=True, metadata={
        "description": "as the player's newest game writes it"})
    claimed = fields.Boolean(required=True, metadata={
        "description": "whether someone holds this name; always false for now: every "
                       "player is a guest"})
    url = fields.String(required=True, metadata={"description": "the player's page"})
    games = fields.List(fields.Nested(PlayerGameSchema), required=True)
    total = strict_int(required=True, metadata={"description": "the player's games"})
    limit = strict_int(required=True)
    offset = strict_int(required=True)
    best_scores = fields.List(fields.Nested(BestScoreSchema), required=True, metadata={
        "description": "the best score in each high score table (mode and field size) "
                       "the player entered, the main table first"})
    accuracy = strict_int(required=True, allow_none=True, metadata={
        "description": "the average of the player's accuracy over their reviewed "
                       "games, in %; null without one"})
    reviewed = strict_int(required=True, metadata={
        "description": "the reviewed games that average counts"})
    online = fields.Nested(RecordSchema, required=True, metadata={
        "description": "the player's finished online games"})


def player_url(name: str) -> str:
    """The page of the player named `name` (percent-encoded: `name_paths`)."""
    return url_for("web.player", name=name)


def _game_view(played: PlayedGame) -> dict[str, Any]:
    g = played.summary
    humans = human_seats(g.mode)
    seats = [{"seat": seat, "name": name, "kind": "human" if human else "computer",
              "player_url": player_url(name) if human and name else None}
             for seat, name, human in ((1, g.player_name, humans[0]),
                                       (2, g.second_name, humans[1]))]
    return {
        "game_id": g.game_id, "mode": g.mode, "height": g.height, "width": g.width,
        "level": g.difficulty if g.mode == "vs_computer" else None,
        "seat": played.seat, "seats": seats, "scores": [g.score1, g.score2],
        "status": g.status, "result": result_of(g, played.seat),
        "accuracy": played.accuracy, "ranked": g.ranked, "assisted": g.assisted,
        "created_at": timestamp(g.created_at),
        "finished_at": None if g.finished_at is None else timestamp(g.finished_at),
    }


def _best_view(best: TableBest) -> dict[str, Any]:
    return {"mode": best.mode, "height": best.height, "width": best.width,
            "score": best.score, "entries": best.entries}


def player_view(page: PlayerPage, limit: int, offset: int) -> dict[str, Any]:
    totals = page.totals
    return {
        "name": page.name, "claimed": page.claimed, "url": player_url(page.name),
        "games": [_game_view(g) for g in page.games],
        "total": totals.games, "limit": limit, "offset": offset,
        "best_scores": [_best_view(b) for b in page.best],
        "accuracy": None if totals.accuracy is None else round(totals.accuracy),
        "reviewed": totals.reviewed,
        "online": {"wins": totals.wins, "losses": totals.losses, "draws": totals.draws},
    }


@blp.route("/players/<name:name>", methods=["GET"], merge_slashes=False)
@blp.arguments(PlayerQuerySchema(), location="query")
@blp.response(200, PlayerSchema)
@error_responses("invalid_request", PlayerNotFound)
def player(query: dict[str, Any], name: str) -> Response:
    """A player: the games where a human seat has this name (any way of writing it:
    case, spacing, accents and look-alike letters aside), newest first, a page at a
    time; their best score in each high score table, their average review accuracy
    and their record online. Every player is a guest for now (``claimed: false``).
    400 ``invalid_request`` for a name no player can have, 404 ``player_not_found``
    for a name no game has."""
    if len(name) > NAME_MAX_IN_PATH:
        return _bad_name(f"a name has at most {NAME_MAX_IN_PATH} characters here")
    try:
        found = current_services().players.page(name, limit=query["limit"],
                                                offset=query["offset"])
    except RuleViolation as exc:  # clean_name's refusal: no player can have it
        return _bad_name(exc.message)
    return jsonify(player_view(found, query["limit"], query["offset"]))


def _bad_name(message: str) -> Response:
    return api_error("invalid_request", message, {"fields": {"path": {"name": [message]}}})
