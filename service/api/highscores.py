"""``GET /api/highscores``: one high score table (RULES E1, E2, M2), with its schemas
and its view: the games of one mode on one field size, best first."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from marshmallow import Schema, ValidationError, fields, post_load, validate, validates_schema

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE
from ..domain.ranking import MAIN, TABLES, ranks, table_levels
from ..domain.start import LEVELS
from ..protocol.event_json import timestamp
from ..services import HighScore
from .blueprint import blp, current_services, error_responses
from .players import player_url
from .schema_fields import query_int, strict_int


class HighScoresQuerySchema(Schema):
    """One table per mode and field size (RULES E1, M2): the main table of the default
    field unless told."""

    limit = query_int(load_default=10, validate=validate.Range(1, 1000))
    height = query_int(load_default=None, validate=validate.Range(MIN_SIZE, MAX_HEIGHT),
                       metadata={"description": "the field's height, given with width "
                                                f"(default: the default field, {DEFAULT_HEIGHT})"})
    width = query_int(load_default=None, validate=validate.Range(MIN_SIZE, MAX_WIDTH),
                      metadata={"description": "the field's width, given with height "
                                               f"(default: {DEFAULT_WIDTH})"})
    mode = fields.String(load_default=MAIN, validate=validate.OneOf(TABLES), metadata={
        "description": "whose table: games against the computer (the main table), or "
                       "two humans on one screen, or online"})
    difficulty = fields.String(load_default=None, validate=validate.OneOf(LEVELS), metadata={
        "description": "only the entries against the computer at this level, ranked "
                       "among themselves (the main table only: two humans' tables "
                       "have no levels); without it every level, the hardest first"})

    @validates_schema
    def _size_given_whole(self, data: dict[str, Any], **_: Any) -> None:
        if (data["height"] is None) != (data["width"] is None):
            raise ValidationError("give height and width together (one table per field "
                                  "size)", field_name="height")

    @validates_schema
    def _level_of_a_table_with_levels(self, data: dict[str, Any], **_: Any) -> None:
        if data["difficulty"] is not None and not table_levels(data["mode"]):
            raise ValidationError("only the table against the computer has levels",
                                  field_name="difficulty")

    @post_load
    def _default_field(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        if data["height"] is None:
            data.update(height=DEFAULT_HEIGHT, width=DEFAULT_WIDTH)
        return data


class HighScoreSchema(Schema):
    rank = strict_int(required=True, metadata={
        "description": "the entry's place among the entries of its level (`difficulty`), "
                       "1 the best: the table lists the levels one after another"})
    id = strict_int(required=True)
    name = fields.String(required=True)
    score = strict_int(required=True)
    difficulty = fields.String(required=True, allow_none=True, metadata={
        "description": "the computer's level (easy, moderate, hard, expert) in the main "
                       "table; the mode in two humans' tables; what the operator gave "
                       "for an entry added by hand; null for RULES E2's default "
                       "entries, which have none"})
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
    guest = fields.Boolean(required=True, metadata={
        "description": "an entry of a game under a name nobody holds (a guest's): "
                       "anyone may have played it; false for a signed-in player's"})
    created_at = fields.String(required=True)
    height = strict_int(required=True, metadata={
        "description": "the field size; the default entries belong to the default field"})
    width = strict_int(required=True)
    accuracy = strict_int(required=True, allow_none=True, metadata={
        "description": "the player's stage-1 accuracy in % (the game's review); null "
                       "without a reviewed game"})
    player_url = fields.String(required=True, allow_none=True, metadata={
        "description": "the page of the entry's player (``/players/{name}``); null for "
                       "an entry without a stored game (the default entries, those added "
                       "by hand, those whose game was deleted)"})


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
        "difficulty": None if entry.source == "original" else entry.difficulty,
        "mode": entry.ranking,
        "game_id": entry.game_id,
        "source": entry.source,
        "hints_recorded": entry.hints_recorded,
        # a game's entry under a name nobody held then or holds now: anyone's
        "guest": entry.source == "game" and not entry.claimed,
        "created_at": timestamp(entry.created_at),
        "height": entry.height,
        "width": entry.width,
        "accuracy": accuracy[entry.seat - 1] if accuracy and entry.seat else None,
        "player_url": player_url(entry.name) if entry.game_id and entry.seat else None,
    }


@blp.route("/highscores", methods=["GET"])
@blp.arguments(HighScoresQuerySchema(), location="query")
@blp.response(200, HighScoreListSchema)
@error_responses(400)
def high_scores(query: dict[str, Any]) -> Response:
    """One high score table, best first: the games of one mode (by default against
    the computer, the main table) on one field size (by default the default field,
    whose table holds RULES E2's default entries). The main table ranks each level of
    the computer apart: its levels one after another, the hardest first, then the
    entries without a level; `difficulty` picks one level."""
    services = current_services()
    entries = services.queries.high_scores(query["limit"], height=query["height"],
                                   width=query["width"], mode=query["mode"],
                                   level=query["difficulty"])
    accuracies = services.reviews.accuracies(e.game_id for e in entries if e.game_id)
    places = ranks(e.level for e in entries)
    return jsonify(high_scores=[high_score_view(rank, e, accuracies)
                                for rank, e in zip(places, entries, strict=True)])
