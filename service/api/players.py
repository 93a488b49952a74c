"""``GET /api/players/<name>``: a player's page as JSON (their games, best scores,
average accuracy, online record, and a signed-in player's daily challenge history and
streak and their rating with its history), with its schemas and its view.

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
from ..domain.texts import english
from ..errors import PlayerNotFound
from ..protocol.event_json import timestamp
from ..protocol.name_paths import NAME_MAX_IN_PATH
from ..protocol.paths import INT32_MAX
from ..services import PlayerPage
from ..services.daily import DailyHistory
from ..services.players import PAGE_MAX, PlayedGame, TableBest, human_seats, result_of
from ..services.ratings import PlayerRating
from .blueprint import blp, current_services, error_responses
from .errors import api_error
from .response_schemas import PlayerRatingSchema
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


class DailyAttemptSchema(Schema):
    date = fields.String(required=True, metadata={"description": "ISO date (UTC)"})
    game_id = fields.String(required=True)
    score = strict_int(required=True)
    ended = fields.Boolean(required=True)
    place = strict_int(required=True, allow_none=True, metadata={
        "description": "in the date's ranking of ended attempts; null while it runs"})


class DailyHistorySchema(Schema):
    streak = strict_int(required=True, metadata={
        "description": "consecutive dates with a ranked attempt, ending today or yesterday"})
    attempts = fields.List(fields.Nested(DailyAttemptSchema), required=True, metadata={
        "description": "the ranked attempts, newest first (the last 30)"})


class PlayerSchema(Schema):
    name = fields.String(required=True, metadata={
        "description": "as the player's newest game writes it"})
    claimed = fields.Boolean(required=True, metadata={
        "description": "whether a signed-in player holds this name (claimed with a "
                       "passkey); false: a guest's name, anyone's"})
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
    daily = fields.Nested(DailyHistorySchema, allow_none=True, metadata={
        "description": "the daily challenge's ranked attempts and streak of the signed-in "
                       "player who holds this name; null for a guest's name"})
    rating = fields.Nested(PlayerRatingSchema, required=True, allow_none=True, metadata={
        "description": "the Glicko-2 rating of the signed-in player who holds this name, "
                       "with its history; null for a guest's name, or before their first "
                       "rated game ends"})


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
        return _bad_name(english("a name has at most {most} characters here",
                                 most=NAME_MAX_IN_PATH))
    try:
        found = current_services().players.page(name, limit=query["limit"],
                                                offset=query["offset"])
    except RuleViolation as exc:  # clean_name's refusal: no player can have it
        return _bad_name(exc.message)
    view = player_view(found, query["limit"], query["offset"])
    view["daily"] = daily_history_view(current_services().daily.history_of_name(name))
    view["rating"] = player_rating_view(found.rating)
    return jsonify(view)


def player_rating_view(rated: PlayerRating | None) -> dict[str, Any] | None:
    if rated is None:
        return None
    r = rated.rating
    return {
        "rating": round(r.rating), "deviation": round(r.deviation), "games": r.games,
        "history": [{"game_id": c.game_id, "opponent": c.opponent,
                     "opponent_url": player_url(c.opponent), "result": c.result,
                     "rating_before": round(c.rating_before),
                     "rating_after": round(c.rating_after),
                     "deviation_before": round(c.deviation_before),
                     "deviation_after": round(c.deviation_after),
                     "changed_at": timestamp(c.changed_at)}
                    for c in rated.history],
    }


def daily_history_view(history: DailyHistory | None) -> dict[str, Any] | None:
    if history is None:
        return None
    return {"streak": history.streak,
            "attempts": [{"date": a.date.isoformat(), "game_id": a.game_id,
                          "score": a.score, "ended": a.ended, "place": a.place}
                         for a in history.attempts]}


def _bad_name(message: str) -> Response:
    return api_error("invalid_request", message, {"fields": {"path": {"name": [message]}}})
