"""``GET /api/highscores``: one high score table (RULES E1, E2, M2), with its schemas
and its view: the games of one mode on one field size, best first."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE
from ..domain.ranking import MAIN, TABLES
from ..protocol.event_json import timestamp
from ..services import HighScore
from .blueprint import blp, current_services, error_responses
from .schemas import AsciiInteger


def _int(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


def _query_int(**kwargs: Any) -> fields.Integer:
    return AsciiInteger(**kwargs)  # ASCII digits only, as every query number


class HighScoresQuerySchema(Schema):
    """One table per mode and field size (RULES E1, M2): the main table of the default
    field unless told."""

    limit = _query_int(load_default=10, validate=validate.Range(1, 1000))
    height = _query_int(load_default=None, validate=validate.Range(MIN_SIZE, MAX_HEIGHT),
                        metadata={"description": "the field's height, given with width "
                                                 f"(default: the default field, {DEFAULT_HEIGHT})"})
    width = _query_int(load_default=None, validate=validate.Range(MIN_SIZE, MAX_WIDTH),
                       metadata={"description": "the field's width, given with height "
                                                f"(default: {DEFAULT_WIDTH})"})
    mode = fields.String(load_default=MAIN, validate=validate.OneOf(TABLES), metadata={
        "description": "whose table: games against the computer (the main table), or "
                       "two humans on one screen, or online"})

    @validates_schema
    def _size_given_whole(self, data: dict[str, Any], **_: Any) -> None:
        if (data["height"] is None) != (data["width"] is None):
            raise ValidationError("give height and width together (one table per field "
                                  "size)", field_name="height")

    @post_load
    def _default_field(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        if data["height"] is None:
            data.update(height=DEFAULT_HEIGHT, width=DEFAULT_WIDTH)
        return data


class HighScoreSchema(Schema):
    rank = _int(required=True)
    id = _int(required=True)
    name = fields.String(required=True)
    score = _int(required=True)
    difficulty = fields.String(required=True)
    mode = fields.String(required=True, metadata={"enum": list(TABLES),
                                                  "description": "the table"})
    game_id = fields.String(required=True, allow_none=True, metadata={
        "description": "the game it came from (its replay); null for the default entries, "
                       "entries added by hand and games deleted since"})
    source = fields.String(required=True, metadata={
        "enum": ["game", "original", "manual"],
        "description": "game: played; original: RULES E2's default entries, from the "
                       "original game (no replay); manual: added by an operator"})
    hints_recorded = fields.Boolean(required=True, metadata={
        "description": "false: a game played before hints were recorded (it may have "
                       "been assisted)"})
    created_at = fields.String(required=True)
    height = _int(required=True, metadata={"description": "the field size; the default "
                                                          "entries belong to the default field"})
    width = _int(required=True)
    accuracy = _int(required=True, allow_none=True, metadata={
        "description": "the player's stage-1 accuracy in % (the game's review); null "
                       "without a reviewed game"})


class HighScoreListSchema(Schema):
    high_scores = fields.List(fields.Nested(HighScoreSchema), required=True)


def high_score_view(rank: int, entry: HighScore,
                    accuracies: dict[str, tuple[int | None, int | None]]
                    ) -> dict[str, Any]:
    """`accuracies`: each reviewed game's accuracy per seat."""
    accuracy = accuracies.get(entry.game_id or "")
    return {
        "rank": rank,
        "id": entry.id,
        "name": entry.name,
        "score": entry.score,
        "difficulty": entry.difficulty,
        "mode": entry.ranking,
        "game_id": entry.game_id,
        "source": entry.source,
        "hints_recorded": entry.hints_recorded,
        "created_at": timestamp(entry.created_at),
        "height": entry.height,
        "width": entry.width,
        "accuracy": accuracy[entry.seat - 1] if accuracy and entry.seat else None,
    }


@blp.route("/highscores", methods=["GET"])
@blp.arguments(HighScoresQuerySchema(), location="query")
@blp.response(200, HighScoreListSchema)
@error_responses(400)
def high_scores(query: dict[str, Any]) -> Response:
    """One high score table, best first: the games of one mode (by default against
    the computer, the main table) on one field size (by default the default field,
    whose table holds RULES E2's default entries)."""
    services = current_services()
    entries = services.queries.high_scores(query["limit"], height=query["height"],
                                   width=query["width"], mode=query["mode"])
    accuracies = services.reviews.accuracies(e.game_id for e in entries if e.game_id)
    return jsonify(high_scores=[high_score_view(rank, e, accuracies)
                                for rank, e in enumerate(entries, start=1)])
