"""marshmallow schemas of every request and response; the OpenAPI document comes from these."""

from __future__ import annotations

import typing
from collections.abc import Callable
from datetime import datetime
from typing import Any

from marshmallow import Schema, fields, validate

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE
from ..domain.names import NAME_MAX
from ..domain.ranking import ORIGINS, TABLES
from ..domain.start import LEVELS, MODES
from ..protocol.paths import INT32_MAX, ascii_int
from ..services import GameSummary

SEED_MAX = 2**63 - 1
NO_CONTROL_CHARACTERS = validate.Regexp(r"^[^\x00-\x1f\x7f]*$",
                                        error="must not contain control characters")


def _int(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


class AsciiInteger(fields.Integer):
    """An integer written as text (a query string), read by `ascii_int`: ASCII digits
    with an optional leading ``-`` (the field's range then refuses a negative with
    its own message). int() alone would read ``"١٢"`` or ``"１２"`` as 12 and take
    ``"+5"``, ``" 5"`` and ``"5_0"``; here each is a 400 ``invalid_request``."""

    def _validated(self, value: Any) -> int:
        if isinstance(value, str):
            number = ascii_int(value, signed=True)
            if number is None:
                raise self.make_error("invalid", input=value)
            value = number
        return super()._validated(value)


def _query_int(**kwargs: Any) -> fields.Integer:
    """An integer in the query string: text, so not strict (``"5"`` is 5, ``"5.5"`` is
    not), in ASCII digits (`AsciiInteger`)."""
    return AsciiInteger(**kwargs)


def _point() -> fields.List:
    return fields.List(_int(), validate=validate.Length(equal=2))


# -- requests ----------------------------------------------------------------


class NewGameSchema(Schema):
    """Types are checked here (400 ``invalid_request``); values by the rules (422:
    ``invalid_name``, ``invalid_level``, ``invalid_mode``, ``invalid_field_size``), so
    the enums and ranges below are documented, not validated, by the schema."""

    player_name = fields.String(
        required=True,
        metadata={"description": f"1-{NAME_MAX} characters after trimming, no control "
                                 "characters"},
    )
    difficulty = fields.String(load_default="moderate", metadata={"enum": list(LEVELS)})
    mode = fields.String(load_default="vs_computer", metadata={"enum": list(MODES)})
    seed = _int(load_default=None, allow_none=True, validate=validate.Range(0, SEED_MAX),
                metadata={"description": "a chosen seed makes a practice game (same seed, "
                                         "same random lines and pieces; never in the high "
                                         "scores); none: a ranked game with a secret seed"})
    hints = fields.Boolean(load_default=None, allow_none=True, metadata={
        "description": "may the seat to move ask for hints? (default: yes, except online)"})
    height = _int(load_default=DEFAULT_HEIGHT,
                  metadata={"description": f"odd, {MIN_SIZE}..{MAX_HEIGHT} (RULES F1)",
                            "minimum": MIN_SIZE, "maximum": MAX_HEIGHT})
    width = _int(load_default=DEFAULT_WIDTH,
                 metadata={"description": f"odd, {MIN_SIZE}..{MAX_WIDTH} (RULES F1)",
                           "minimum": MIN_SIZE, "maximum": MAX_WIDTH})
    second_name = fields.String(load_default=None, allow_none=True,
                                metadata={"description": "the second player (two_players)"})
    second_level = fields.String(load_default=None, allow_none=True,
                                 metadata={"description": "seat 2's level (computer_vs_computer)",
                                           "enum": [*LEVELS, None]})


class VersionSchema(Schema):
    expected_version = _int(
        load_default=None, allow_none=True, validate=validate.Range(1, INT32_MAX),
        metadata={"description": "the version the move was chosen at; 409 when stale"},
    )


class LineSchema(VersionSchema):
    x = _int(required=True)
    y = _int(required=True)


class ListGamesQuerySchema(Schema):
    status = fields.String(load_default=None,
                           validate=validate.OneOf(("active", "finished", "abandoned")))
    player = fields.String(load_default=None,
                           validate=[validate.Length(1, 64), NO_CONTROL_CHARACTERS])
    limit = _query_int(load_default=20, validate=validate.Range(1, 100))
    offset = _query_int(load_default=0, validate=validate.Range(0, INT32_MAX))


class EventsQuerySchema(Schema):
    after = _query_int(load_default=0, validate=validate.Range(0, INT32_MAX))
    limit = _query_int(load_default=None, validate=validate.Range(1, 10_000))


# -- responses ---------------------------------------------------------------


class ErrorBodySchema(Schema):
    code = fields.String(required=True, metadata={"description": "stable, machine-readable"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema, required=True)


class SeatSchema(Schema):
    seat = _int(required=True)
    name = fields.String(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(("human", "computer")))
    level = fields.String(required=True, allow_none=True)
    letter = fields.String(required=True)


class DrawnLineSchema(Schema):
    x = _int(required=True)
    y = _int(required=True)
    by = fields.String(required=True, validate=validate.OneOf(("P", "C", "R")),
                       metadata={"description": "P seat 1, C seat 2, R walls/random lines"})


class BoxSchema(Schema):
    x = _int(required=True)
    y = _int(required=True)
    owner = fields.String(required=True, validate=validate.OneOf(("P", "C", ":")))


class TurnSchema(Schema):
    seat = _int(required=True)
    lines = fields.List(_point(), required=True)
    squares = fields.List(_point(), required=True)


class PieceSchema(Schema):
    seat = _int(required=True)
    size = _int(required=True)
    shape = fields.List(_point(), required=True)
    lines = fields.List(_point(), required=True)
    tries = _int(required=True)
    skipped = fields.Boolean(required=True)
    squares = fields.List(_point(), required=True)


class ExplanationSchema(Schema):
    seat = _int(required=True)
    stage = _int(required=True)
    level = fields.String(required=True)
    best_point = _int(required=True)
    best_x = _int(required=True, allow_none=True)
    best_y = _int(required=True, allow_none=True)
    best_direction = fields.List(_int(), required=True)
    starts = _int(required=True)
    trials = _int(required=True)
    reason = fields.String(required=True)


class LegalSchema(Schema):
    seat = _int(required=True, allow_none=True)
    lines = fields.List(_point(), required=True)
    can_advance = fields.Boolean(required=True)


class StateSchema(Schema):
    game_id = fields.String(required=True)
    version = _int(required=True, metadata={"description": "number of events so far"})
    mode = fields.String(required=True)
    difficulty = fields.String(required=True)
    seed = fields.String(required=True, allow_none=True, metadata={
        "description": "a practice game's seed, or a ranked game's once it has ended; "
                       "null while a ranked game runs (its seed is secret)"})
    seed_commitment = fields.String(required=True, metadata={
        "description": "SHA-256 hex of the seed's text: check a revealed seed against it"})
    ranked = fields.Boolean(required=True, metadata={
        "description": "false: a practice game (a chosen seed), never in the high scores"})
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
    first_seat = _int(required=True, metadata={
        "description": "who moved first (an online game's is drawn from the seed)"})
    height = _int(required=True)
    width = _int(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    open_seat = _int(required=True, allow_none=True, metadata={
        "description": "online games: the invited seat until a friend claims it "
                       "(nobody moves until then); else null"})
    round = _int(required=True)
    turn = _int(required=True)
    stage = _int(required=True)
    over = fields.Boolean(required=True, metadata={
        "description": "the game has ended: a full board, or abandoned"})
    winner = _int(required=True, allow_none=True,
                  metadata={"description": "0: a draw; null while playing or abandoned"})
    abandoned = fields.String(required=True, allow_none=True, metadata={
        "description": "why the game was abandoned (idle, invite_expired), else null",
        "enum": ["idle", "invite_expired", None]})
    scores = fields.List(_int(), required=True)
    squares = fields.List(_int(), required=True)
    penalties = fields.List(_int(), required=True)
    ownerless = _int(required=True)
    lines = fields.List(fields.Nested(DrawnLineSchema), required=True)
    boxes = fields.List(fields.Nested(BoxSchema), required=True)
    current_turn = fields.Nested(TurnSchema, required=True)
    last_turn = fields.Nested(TurnSchema, required=True, allow_none=True)
    last_pieces = fields.List(fields.Nested(PieceSchema), required=True)
    explanations = fields.List(fields.Nested(ExplanationSchema), required=True)
    legal = fields.Nested(LegalSchema, required=True)


class EventSchema(Schema):
    seq = _int(required=True, metadata={"description": "1-based position in the stream"})
    type = fields.String(required=True)
    v = _int(required=True, metadata={"description": "the event's schema version"})
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
        int: _int, str: fields.String, datetime: fields.String, bool: fields.Boolean}
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


class ClaimSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(1, 200))
    name = fields.String(required=True, metadata={
        "description": f"the friend's name, 1-{NAME_MAX} characters after trimming"})


class ClaimedSchema(Schema):
    game_id = fields.String(required=True)
    seat = _int(required=True)
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
    accuracy = fields.List(_int(allow_none=True), required=True, allow_none=True, metadata={
        "description": "each seat's stage-1 accuracy in % from the game's review; null "
                       "until it is reviewed"})


class GameListSchema(Schema):
    games = fields.List(fields.Nested(ListedGameSchema), required=True)
    total = _int(required=True)
    limit = _int(required=True)
    offset = _int(required=True)


class EventListSchema(Schema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    version = _int(required=True)


class ReplaySchema(Schema):
    step = _int(required=True)
    version = _int(required=True)
    state = fields.Nested(StateSchema, required=True)
    event = fields.Nested(EventSchema, required=True)


class HintSchema(Schema):
    seat = _int(required=True)
    action = fields.String(required=True, validate=validate.OneOf(("line", "advance")))
    x = _int()
    y = _int()
    version = _int(required=True, metadata={
        "description": "the game's version after the hint: the first hint of a human seat "
                       "appends hint_used (one more); a move may name this version or "
                       "the one before the hint as expected_version"})
    assisted = fields.Boolean(required=True, metadata={
        "description": "true from the first hint on: the game enters no high score table"})


class HealthSchema(Schema):
    status = fields.String(required=True)
