"""marshmallow schemas of the API's requests (their bodies and query strings); the
OpenAPI document comes from these and the responses' (`response_schemas`)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE
from ..domain.names import NAME_MAX
from ..domain.start import LEVELS, MODES
from ..protocol.paths import INT32_MAX
from .schema_fields import query_int, strict_int

SEED_MAX = 2**63 - 1
NO_CONTROL_CHARACTERS = validate.Regexp(r"^[^\x00-\x1f\x7f]*$",
                                        error="must not contain control characters")


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
    seed = strict_int(load_default=None, allow_none=True, validate=validate.Range(0, SEED_MAX),
                      metadata={"description": "a chosen seed makes a practice game (same seed, "
                                               "same random lines and pieces; never in the high "
                                               "scores); none: a ranked game with a secret seed"})
    hints = fields.Boolean(load_default=None, allow_none=True, metadata={
        "description": "may the seat to move ask for hints? (default: yes, except online)"})
    rated = fields.Boolean(load_default=False, metadata={
        "description": "online only: the result moves both players' ratings; the creator "
                       "must be signed in and play under their own name (409 "
                       "rated_needs_sign_in), the friend too (docs/rules.md, Ratings)"})
    height = strict_int(load_default=DEFAULT_HEIGHT,
                        metadata={"description": f"odd, {MIN_SIZE}..{MAX_HEIGHT} (RULES F1)",
                                  "minimum": MIN_SIZE, "maximum": MAX_HEIGHT})
    width = strict_int(load_default=DEFAULT_WIDTH,
                       metadata={"description": f"odd, {MIN_SIZE}..{MAX_WIDTH} (RULES F1)",
                                 "minimum": MIN_SIZE, "maximum": MAX_WIDTH})
    second_name = fields.String(load_default=None, allow_none=True,
                                metadata={"description": "the second player (two_players)"})
    second_level = fields.String(load_default=None, allow_none=True,
                                 metadata={"description": "seat 2's level (computer_vs_computer)",
                                           "enum": [*LEVELS, None]})
    daily = fields.Boolean(load_default=False, metadata={
        "description": "today's daily challenge (docs/rules.md): its settings are the "
                       "date's, so no other field but player_name may be given (400); "
                       "a signed-in player plays under their own name, their first daily "
                       "game of the date being their ranked attempt"})


class VersionSchema(Schema):
    expected_version = strict_int(
        load_default=None, allow_none=True, validate=validate.Range(1, INT32_MAX),
        metadata={"description": "the version the move was chosen at; 409 when stale"},
    )


class LineSchema(VersionSchema):
    x = strict_int(required=True)
    y = strict_int(required=True)


class ListGamesQuerySchema(Schema):
    status = fields.String(load_default=None,
                           validate=validate.OneOf(("active", "finished", "abandoned",
                                                     "aborted")))
    player = fields.String(load_default=None,
                           validate=[validate.Length(1, 64), NO_CONTROL_CHARACTERS])
    limit = query_int(load_default=20, validate=validate.Range(1, 100))
    offset = query_int(load_default=0, validate=validate.Range(0, INT32_MAX))


class EventsQuerySchema(Schema):
    after = query_int(load_default=0, validate=validate.Range(0, INT32_MAX))
    limit = query_int(load_default=None, validate=validate.Range(1, 10_000))


class ClaimSchema(Schema):
    code = fields.String(required=True, validate=validate.Length(1, 200))
    name = fields.String(required=True, metadata={
        "description": f"the friend's name, 1-{NAME_MAX} characters after trimming"})
