"""marshmallow schemas of the API's responses; the OpenAPI document comes from these
and the requests' (`request_schemas`)."""

from __future__ import annotations

import typing
from collections.abc import Callable
from datetime import datetime
from typing import Any

from marshmallow import Schema, fields, validate

from ..domain.ranking import ORIGINS, TABLES
from ..services import GameSummary
from .schema_fields import strict_int


def _point() -> fields.List:
    return fields.List(strict_int(), validate=validate.Length(equal=2))


class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable, machine-readable"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)


class SeatSchema(Schema):
    seat = strict_int(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("human", "computer")))
    level = fields.String(required=True, allow_none=True)
    letter = fields.String(required=True)


class DrawnLineSchema(Schema):
    x = strict_int(required=True)
    y = strict_int(required=True)
    by = fields.String(required=True, validate=validate.OneOf(("P", "C", "R")),
                       metadata={"description": "P seat 1, C seat 2, R walls/random lines"})


class BoxSchema(Schema):
    x = strict_int(required=True)
    y = strict_int(required=True)
    owner = fields.String(required=True, validate=validate.OneOf(("P", "C", ":")))


class TurnSchema(Schema):
    seat = strict_int(required=True)
    lines = fields.List(_point(), required=True)
    squares = fields.List(_point(), required=True)


class PieceSchema(Schema):
    seat = strict_int(required=True)
    size = strict_int(required=True)
    shape = fields.List(_point(), required=True)
    lines = fields.List(_point(), required=True)
    tries = strict_int(required=True)
    skipped = fields.Boolean(required=True)
    squares = fields.List(_point(), required=True)


class ExplanationSchema(Schema):
    seat = strict_int(required=True)
    stage = strict_int(required=True)
    level = fields.String(required=True)
    best_point = strict_int(required=True)
    best_x = strict_int(required=True, allow_none=True)
    best_y = strict_int(required=True, allow_none=True)
    best_direction = fields.List(strict_int(), required=True)
    starts = strict_int(required=True)
    trials = strict_int(required=True)
    reason = fields.String(required=True)


class LegalSchema(Schema):
    seat = strict_int(required=True, allow_none=True)
    lines = fields.List(_point(), required=True)
    can_advance = fields.Boolean(required=True)


class StateSchema(Schema):
    game_id = fields.String(required=True)
    version = strict_int(required=True, metadata={"description": "number of events so far"})
    mode = fields.String(required=True)
    difficulty = fields.String(required=True)
    seed = fields.String(required=True, allow_none=True, metadata={
        "description": "a practice game's seed, or a ranked game's once it has ended; "
                       "null while a ranked game runs (its seed is secret)"})
    seed_commitment = fields.String(required=True, metadata={
        "description": "SHA-256 hex of the seed's text: check a revealed seed against it"})
    ranked = fields.Boolean(required=True, metadata={
        "description": "false: a practice game (a chosen seed), never in the high scores"})
    daily = fields.Boolean(required=True, metadata={
        "description": "a game of the daily challenge (its seed revealed once its date is "
                       "over, GET /api/daily/<date>)"})
    practice = fields.Boolean(required=True, metadata={
        "description": "a practice game: a chosen seed's, or a daily game other than its "
                       "player's ranked attempt of the date"})
    assisted = fields.Boolean(required=True, metadata={
        "description": "a human seat asked for a hint (event hint_used): the game enters "
                       "no high score table"})
    table = fields.String(required=True, allow_none=True, metadata={
        "enum": [*TABLES, None],
        "description": "the high score table this game's final scores enter when it ends "
                       "(vs_computer is the main one); null: none (practice, assisted, "
                       "computer against computer)"})
    hints = fields.Boolean(required=True, metadata={
        "description": "whether the seat to move may ask for a hint"})
    rated = fields.Boolean(required=True, metadata={
        "description": "an online game whose result moves both players' ratings "
                       "(docs/rules.md, Ratings)"})
    first_seat = strict_int(required=True, metadata={
        "description": "who moved first (an online game's is drawn from the seed)"})
    height = strict_int(required=True)
    width = strict_int(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    open_seat = strict_int(required=True, allow_none=True, metadata={
        "description": "online games: the invited seat until a friend claims it "
                       "(nobody moves until then); else null"})
    round = strict_int(required=True)
    turn = strict_int(required=True)
    stage = strict_int(required=True)
    over = fields.Boolean(required=True, metadata={
        "description": "the game has ended: a full board, resigned, abandoned or aborted"})
    winner = strict_int(required=True, allow_none=True, metadata={
        "description": "0: a draw; null while playing, abandoned or aborted"})
    abandoned = fields.String(required=True, allow_none=True, metadata={
        "description": "why the game was abandoned (idle, invite_expired, day_over: a "
                       "daily challenge game still running when its date was over), else null",
        "enum": ["idle", "invite_expired", "day_over", None]})
    resigned = strict_int(required=True, allow_none=True, metadata={
        "description": "the seat that resigned (the other won), else null"})
    aborted = strict_int(required=True, allow_none=True, metadata={
        "description": "the seat whose player aborted this online game (no result), "
                       "else null"})
    abortable = fields.Boolean(required=True, metadata={
        "description": "an online game that goes on, before both seats have moved: "
                       "either player may abort it (POST .../abort)"})
    scores = fields.List(strict_int(), required=True)
    squares = fields.List(strict_int(), required=True)
    penalties = fields.List(strict_int(), required=True)
    ownerless = strict_int(required=True)
    lines = fields.List(fields.Nested(DrawnLineSchema), required=True)
    boxes = fields.List(fields.Nested(BoxSchema), required=True)
    current_turn = fields.Nested(TurnSchema, required=True)
    last_turn = fields.Nested(TurnSchema, required=True, allow_none=True)
    last_pieces = fields.List(fields.Nested(PieceSchema), required=True)
    explanations = fields.List(fields.Nested(ExplanationSchema), required=True)
    legal = fields.Nested(LegalSchema, required=True)


class EventSchema(Schema):
    seq = strict_int(required=True, metadata={"description": "1-based position in the stream"})
    type = fields.String(required=True)
    v = strict_int(required=True, metadata={"description": "the event's schema version"})
    data = fields.Dict(required=True)
    recorded_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC"})


# What a few `GameSummary` fields mean, for the document.
_SUMMARY_DOCS: dict[str, dict[str, Any]] = {
    "ranked": {"description": "false: a practice game (a chosen seed)"},
    "assisted": {"description": "a human seat asked for a hint: no high score table"},
    "origin": {"enum": list(ORIGINS), "description": (
        "here: played on this service; signed: imported with a valid signature; "
        "archive: imported without one (its scores enter no table)")},
}


def _summary_field(name: str, hint: Any) -> fields.Field:
    """The JSON field of one `GameSummary` field (datetimes are ISO 8601 text)."""
    optional = type(None) in typing.get_args(hint)
    base = next((a for a in typing.get_args(hint) if a is not type(None)), hint)
    makers: dict[object, Callable[..., fields.Field]] = {
        int: strict_int, str: fields.String, datetime: fields.String, bool: fields.Boolean}
    field = makers[base]
    return field(required=True, allow_none=optional, metadata=_SUMMARY_DOCS.get(name, {}))


# The games read model as the API shows it: one field per `GameSummary` field.
SummarySchema = Schema.from_dict(
    {name: _summary_field(name, hint)
     for name, hint in typing.get_type_hints(GameSummary).items()},
    name="SummarySchema",
)


class InviteSchema(Schema):
    code = fields.String(required=True, metadata={"description": "one-time claim code"})
    url = fields.String(required=True, metadata={
        "description": "the page a friend opens to join; the code rides in its #fragment, "
                       "which browsers never send to a server"})
    expires_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC"})


class CreatedSchema(Schema):
    game_id = fields.String(required=True)
    token = fields.String(required=True, metadata={
        "description": "shown only here; in an online game it moves seat 1 only"})
    state = fields.Nested(StateSchema, required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    invite = fields.Nested(InviteSchema, allow_none=True, metadata={
        "description": "online games only: send `url` to the friend"})


class ClaimedSchema(Schema):
    game_id = fields.String(required=True)
    seat = strict_int(required=True)
    token = fields.String(required=True, metadata={
        "description": "shown only here: it moves this seat only"})
    state = fields.Nested(StateSchema, required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


class MoveResultSchema(Schema):
    game_id = fields.String(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True,
                         metadata={"description": "the move's events, then the computer's"})
    state = fields.Nested(StateSchema, required=True)


class GameSchema(Schema):
    state = fields.Nested(StateSchema, required=True)
    summary = fields.Nested(SummarySchema, required=True)


# SummarySchema is a class built at import time (`Schema.from_dict`), which mypy
# cannot take as a base class
class ListedGameSchema(SummarySchema):  # type: ignore[misc, valid-type]
    accuracy = fields.List(strict_int(allow_none=True), required=True, allow_none=True, metadata={
        "description": "each seat's stage-1 accuracy in % from the game's review; null "
                       "until it is reviewed"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(ListedGameSchema), required=True)
    total = strict_int(required=True)
    limit = strict_int(required=True)
    offset = strict_int(required=True)


class EventListSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    version = strict_int(required=True)


class ReplaySchema(Schema):
    step = strict_int(required=True)
    version = strict_int(required=True)
    state = fields.Nested(StateSchema, required=True)
    event = fields.Nested(EventSchema, required=True)


class HintSchema(Schema):
    seat = strict_int(required=True)
    action = fields.String(required=True, validate=validate.OneOf(("line", "advance")))
    x = strict_int()
    y = strict_int()
    version = strict_int(required=True, metadata={
        "description": "the game's version after the hint: the first hint of a human seat "
                       "appends hint_used (one more); a move may name this version or "
                       "the one before the hint as expected_version"})
    assisted = fields.Boolean(required=True, metadata={
        "description": "true from the first hint on: the game enters no high score table"})


class HealthSchema(Schema):
    status = fields.String(required=True)


class DailyEntrySchema(Schema):
    place = strict_int(required=True)
    name = fields.String(required=True)
    score = strict_int(required=True)
    game_id = fields.String(required=True, metadata={"description": "its replay"})
    ended_at = fields.String(required=True, allow_none=True, metadata={
        "description": "ISO 8601, UTC; null: still running when its date ended (its score "
                       "then counts)"})


class DailySchema(Schema):
    date = fields.String(required=True, metadata={"description": "ISO date (UTC)"})
    commitment = fields.String(required=True, metadata={
        "description": "SHA-256 hex of the date's seed, public from its first second"})
    seed = fields.String(required=True, allow_none=True, metadata={
        "description": "the date's seed once the date is over (check it against the "
                       "commitment), else null"})
    over = fields.Boolean(required=True)
    ranking = fields.List(fields.Nested(DailyEntrySchema), required=True, metadata={
        "description": "ranked attempts by score, ties by the earlier end (the first 100): "
                       "today those whose games ended, a past date all of them"})
    ranked_players = strict_int(required=True)
    practice_games = strict_int(required=True)
    best_game_id = fields.String(required=True, allow_none=True, metadata={
        "description": "the first place's game, for its replay"})


class RatedPlayerSchema(Schema):
    place = strict_int(required=True, metadata={"description": "1 the highest rating"})
    name = fields.String(required=True, metadata={"description": "the player's name as shown"})
    player_url = fields.String(required=True)
    rating = strict_int(required=True, metadata={
        "description": "Glicko-2 rating, rounded (1500: an average player)"})
    deviation = strict_int(required=True, metadata={
        "description": "the rating's deviation (RD), rounded: how uncertain it is (350 "
                       "for a new player)"})
    games = strict_int(required=True, metadata={"description": "rated games counted"})


class RatingsSchema(Schema):
    players = fields.List(fields.Nested(RatedPlayerSchema), required=True, metadata={
        "description": "highest rating first (ties: the earlier record); only signed-in "
                       "players who finished a rated game"})
    total = strict_int(required=True)
    limit = strict_int(required=True)
    offset = strict_int(required=True)


class RatingChangeSchema(Schema):
    game_id = fields.String(required=True, allow_none=True, metadata={
        "description": "the rated game; null once it was deleted (pruned)"})
    opponent = fields.String(required=True)
    opponent_url = fields.String(required=True)
    result = fields.String(required=True, validate=validate.OneOf(("win", "draw", "loss")))
    rating_before = strict_int(required=True)
    rating_after = strict_int(required=True)
    deviation_before = strict_int(required=True)
    deviation_after = strict_int(required=True)
    changed_at = fields.String(required=True, metadata={"description": "ISO 8601, UTC"})


class PlayerRatingSchema(Schema):
    rating = strict_int(required=True, metadata={"description": "rounded"})
    deviation = strict_int(required=True, metadata={"description": "rounded"})
    games = strict_int(required=True, metadata={"description": "rated games counted"})
    history = fields.List(fields.Nested(RatingChangeSchema), required=True, metadata={
        "description": "the newest changes first (the last 20)"})
