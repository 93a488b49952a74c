"""``GET /api/games/<id>/analysis``: the review of an ended game, with its schemas."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify
from marshmallow import Schema, fields, validate

from ..errors import GameNotFound, GameRunning
from ..protocol.event_json import timestamp
from ..services import Analysis
from .blueprint import blp, checked_game_id, current_services, error_responses
from .schema_fields import strict_int


def _lines(**kwargs: Any) -> fields.List:
    return fields.List(fields.List(strict_int(), validate=validate.Length(2, 2)), **kwargs)


class Stage1ReviewSchema(Schema):
    played = _lines(required=True, metadata={"description": "the lines drawn, as [x, y]"})
    gained = strict_int(required=True, metadata={"description": "what the stage changed the "
                                                                "score by (a penalty counts)"})
    best = strict_int(required=True, metadata={
        "description": "the most any legal stage 1 (RULES T1/T2) could take from there"})
    best_lines = _lines(required=True, metadata={"description": "one way to take `best`"})
    exact = fields.Boolean(required=True, metadata={
        "description": "false where the search ran out of its budget: `best` is then "
                       "the best it found"})


class Stage2ReviewSchema(Schema):
    x = strict_int(required=True)
    y = strict_int(required=True)
    gives = strict_int(required=True, metadata={
        "description": "what the opponent could take in their next stage 1 after it"})
    least_gives = strict_int(required=True, metadata={"description": "the least any line gave"})
    better = fields.List(strict_int(), required=True, metadata={
        "description": "[x, y] of a line that gives `least_gives`"})
    exact = fields.Boolean(required=True, metadata={
        "description": "false where a search ran out of its budget: `least_gives` is "
                       "then the least found"})


class PiecesReviewSchema(Schema):
    points = strict_int(required=True, metadata={
        "description": "how much the turn's random pieces changed what the next player "
                       "could take (negative: they took it away)"})


class TurnReviewSchema(Schema):
    turn = strict_int(required=True, metadata={"description": "1-based count of turns"})
    round = strict_int(required=True)
    seat = strict_int(required=True)
    start_seq = strict_int(required=True, metadata={
        "description": "the last event before the turn's first decision: "
                       "/replay/{start_seq} is the position the player faced"})
    stage1 = fields.Nested(Stage1ReviewSchema, required=True)
    stage2 = fields.Nested(Stage2ReviewSchema, required=True, allow_none=True)
    pieces = fields.Nested(PiecesReviewSchema, required=True, allow_none=True)
    lost = strict_int(required=True, metadata={"description": "stage-1 and stage-2 points lost"})
    exact = fields.Boolean(required=True, metadata={
        "description": "false: the turn is approximate (a search stopped at the review's "
                       "work budget, so its figures are the best found)"})


class MistakeSchema(Schema):
    turn = strict_int(required=True)
    round = strict_int(required=True)
    start_seq = strict_int(required=True)
    stage = strict_int(required=True)
    lost = strict_int(required=True)
    played = _lines(required=True)
    better = _lines(required=True, metadata={
        "description": "the best stage-1 lines, or the stage-2 line to prefer"})


class SeatReviewSchema(Schema):
    seat = strict_int(required=True)
    gained = strict_int(required=True)
    best = strict_int(required=True)
    accuracy = strict_int(required=True, allow_none=True, metadata={
        "description": "stage 1's: 100 * gained / best, 0..100, and 100 exactly when no "
                       "stage-1 point was lost (nothing there to take and nothing lost: "
                       "100); null when the seat played no whole turn"})
    given_away = strict_int(required=True)
    luck = strict_int(required=True, metadata={
        "description": "what the random lines (start, pieces) put within reach"})
    mistakes = fields.List(fields.Nested(MistakeSchema), required=True,
                           metadata={"description": "the three largest"})


class AnalysisSchema(Schema):
    status = fields.String(required=True, validate=validate.OneOf(
        ("ready", "pending", "failed")), metadata={
        "description": "failed: the analyst could not review this game (`message`)"})
    game_id = fields.String(required=True)
    message = fields.String()
    algorithm = strict_int()
    exact = fields.Boolean(metadata={"description": "false: some turns are approximate"})
    reviewed_at = fields.String()
    turns = fields.List(fields.Nested(TurnReviewSchema))
    seats = fields.List(fields.Nested(SeatReviewSchema))


@blp.route("/games/<game_id>/analysis", methods=["GET"])
@blp.response(200, AnalysisSchema, description="the review")
@blp.alt_response(202, schema=AnalysisSchema,
                  description='{"status": "pending"}: the game has ended; its review '
                              "is on its way (the analyst follows the games that end)")
@error_responses(GameNotFound, GameRunning)
def analysis(game_id: str) -> Response:
    """An ended game's review: per turn, the best stage 1 against what was played, what
    the stage-2 line gave the opponent against the least possible, and what the
    random pieces changed; per seat, accuracy, points given away, luck and the
    three largest mistakes. 409 ``game_running`` while the game is played."""
    return analysis_response(game_id, current_services().reviews.analysis(checked_game_id(game_id)))


def analysis_response(game_id: str, found: Analysis) -> Response:
    if found.review is None:
        response = jsonify(status="pending", game_id=game_id)
        response.status_code = 202
        return response
    review = found.review
    if found.status == "failed":
        return jsonify(status="failed", game_id=game_id, message=review.body["error"])
    return jsonify(status="ready", game_id=game_id, reviewed_at=timestamp(review.reviewed_at),
                   **review.body)
