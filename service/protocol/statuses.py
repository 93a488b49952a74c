"""The one table of the API's errors: each code, its HTTP status and what it means.

The error handlers (`errors`) answer by it and the OpenAPI document reads it (each
documented error status lists its codes, `blueprint.error_responses`; its ``info``
carries the whole table as ``x-error-codes``), so a status is written down once.

- `SERVICE_ERRORS`: every `service.errors.ServiceError`, by class (its ``code`` is
  the class's own);
- `RULE_ERRORS`: the rules' refusals (`RuleViolation` codes): 422 for a value no
  game accepts, 409 for what the game's state forbids now (any code not listed is
  one of those);
- `HTTP_ERRORS`: what the API itself refuses (bodies, routes, limits, streams, an
  unavailable database, a bug), and what the server refuses before the app sees
  the request (`service.serve`).
"""

from __future__ import annotations

from typing import NamedTuple

from .. import errors as e
from ..domain.texts import english
from ..errors import ServiceError


class ErrorKind(NamedTuple):
    code: str
    status: int
    meaning: str


SERVICE_ERRORS: dict[type[ServiceError], ErrorKind] = {
    error: ErrorKind(error.code, status, meaning)
    for error, status, meaning in (
        (e.InvalidStream, 400, english("an event stream that cannot be stored (the line and why)")),
        (e.PasskeyHost, 400, english("passkeys need a host name: open the page at localhost "
                             "(or the public URL), not an IP address")),
        (e.NotSignedIn, 401, english("this needs a signed-in player (the session cookie)")),
        (e.PasskeyRefused, 403, english("the passkey's answer does not verify (details.reason)")),
        (e.PasskeyUnknown, 403, english("no player has this passkey")),
        (e.CounterWentBack, 403, english("the passkey's signature counter went back (a copy?)")),
        (e.RecoveryCodeInvalid, 403, english("not one of this name's unspent recovery codes")),
        (e.CrossSite, 403, english("a write with the session cookie from another site's page")),
        (e.TokenMissing, 401, english("this game needs its token (Authorization: Bearer)")),
        (e.TokenInvalid, 403, english("the token is not this game's (or not the seat's)")),
        (e.InviteInvalid, 403, english("the invitation code is wrong")),
        (e.HintsOff, 403, english("the creator of this online game turned hints off")),
        (e.DailyNoHints, 403, english("no hints in a ranked attempt at the daily challenge "
                              "(its practice games have them)")),
        (e.GameNotFound, 404, english("no such game")),
        (e.StepOutOfRange, 404, english("a replay step outside 1..version")),
        (e.HighScoreNotFound, 404, english("no such high score")),
        (e.PlayerNotFound, 404, english("no game has a player of this name")),
        (e.DailyNotYet, 404, english("the daily challenge of a date that has not begun")),
        (e.VersionConflict, 409, english("another move came first: expected_version is stale")),
        (e.NotComputerTurn, 409, english("no computer seat is to move")),
        (e.NotOnline, 409, english("the game has no invitation (not an online game)")),
        (e.InviteClaimed, 409, english("the invited seat is taken already")),
        (e.NoRematch, 409, english("no rematch: the online game is not over, or nobody joined it")),
        (e.RematchExists, 409, english("this player made the rematch already (details.game_id)")),
        (e.NameClaimed, 409, english("a player holds this name (or one that matches it): sign in "
                             "or choose another")),
        (e.RatedNeedsSignIn, 409, english("a rated game is for signed-in players, each under "
                                  "their own name")),
        (e.RatedAgainstSelf, 409, english("a player cannot play a rated game against their own "
                                  "name")),
        (e.NameReserved, 409, english("a name of the original high score table: nobody claims it")),
        (e.LastPasskey, 409, english("a player's only passkey cannot be removed")),
        (e.CeremonyUsed, 409, english("this passkey challenge was answered already (or never "
                              "given): start again")),
        (e.GameRunning, 409, english("no review while the game is played")),
        (e.GameExists, 409, english("this game (or this stream) is stored already")),
        (e.InviteExpired, 410, english("the invitation has expired")),
        (e.CeremonyExpired, 410, english("the passkey challenge is over 5 minutes old: start again")),
        (e.TooManyGames, 429, english("this address has its most active games")),
        (e.BadSetting, 500, english("a server setting cannot be used (the log says which)")),
        (e.DatabaseUnavailable, 503, english("the database is not available (see Retry-After)")),
    )
}

# Rule violations no game state could make valid: 422. The rest depend on the state
# of the game (whose turn, which stage, what is drawn): 409.
_NEVER_VALID = ("out_of_field", "not_a_line_slot", "invalid_name", "invalid_level",
                "invalid_mode", "invalid_field_size", "unknown_command")
_NOT_NOW = ("not_your_turn", "wrong_stage", "slot_taken", "stage1_needs_square",
            "stage2_line_done", "stage2_line_missing", "game_over", "game_abandoned",
            "waiting_for_opponent", "seat_taken", "not_waiting", "not_a_computer",
            "name_confusable", "invalid_reason", "invalid_score", "not_a_human",
            "abort_too_late", "abort_online_only")
RULE_ERRORS: dict[str, ErrorKind] = {
    **{code: ErrorKind(code, 422, english("a value no game accepts")) for code in _NEVER_VALID},
    **{code: ErrorKind(code, 409, english("a rule the game's state forbids now"))
       for code in _NOT_NOW},
}

HTTP_ERRORS: dict[str, ErrorKind] = {kind.code: kind for kind in (
    ErrorKind("malformed_json", 400, english("the request body is not valid JSON")),
    ErrorKind("invalid_request", 400, english("the request does not match its schema")),
    ErrorKind("bad_request", 400, english("another bad request")),
    ErrorKind("not_found", 404, english("no such route")),
    ErrorKind("request_timeout", 408, english("the request's headers came too slowly (the server's)")),
    ErrorKind("method_not_allowed", 405, english("the route does not take this method (see Allow)")),
    ErrorKind("body_too_large", 413, english("the request body is over the limit")),
    ErrorKind("unsupported_media_type", 415, english("a request body that is not JSON")),
    ErrorKind("headers_too_large", 431, english("the request's headers are over the limit (the "
                                        "server's)")),
    ErrorKind("rate_limited", 429, english("too many requests from this address (see Retry-After)")),
    ErrorKind("too_many_streams", 429, english("this address has its most open live streams")),
    ErrorKind("internal_error", 500, english("a bug on the server's side (logged)")),
    ErrorKind("streams_full", 503, english("this server holds no more live streams, or restarts")),
    ErrorKind("not_ready", 503, english("the database or its schema is not ready")),
)}

# A database outage's answer (503 ``unavailable``): its message, and how long clients
# back off (a constant: a little, then they try again).
UNAVAILABLE_MESSAGE = english("the database is not available; try again shortly")
OUTAGE_RETRY_AFTER_S = 2

# The code of a plain HTTP error (werkzeug's, e.g. an unknown route) by its status.
HTTP_CODES = {kind.status: kind.code for kind in HTTP_ERRORS.values()
              if kind.code in ("bad_request", "not_found", "method_not_allowed",
                               "body_too_large", "unsupported_media_type", "rate_limited")}

ALL: tuple[ErrorKind, ...] = tuple(sorted(
    (*SERVICE_ERRORS.values(), *RULE_ERRORS.values(), *HTTP_ERRORS.values()),
    key=lambda kind: (kind.status, kind.code)))

ALL_BY_CODE = {kind.code: kind for kind in ALL}


def service_error(error: ServiceError) -> ErrorKind:
    """The row of `error` (its class, or the nearest listed base class)."""
    for cls in type(error).__mro__:
        kind = SERVICE_ERRORS.get(cls)
        if kind is not None:
            return kind
    return ErrorKind(error.code, 500, "an error this table does not list")


def rule_status(code: str) -> int:
    kind = RULE_ERRORS.get(code)
    return 409 if kind is None else kind.status


def http_error(code: str) -> ErrorKind:
    return HTTP_ERRORS[code]


def codes(status: int) -> list[str]:
    """The codes answered with `status`, for the documents."""
    return [kind.code for kind in ALL if kind.status == status]


def summary() -> str:
    """Each status and its codes, as one sentence ("400: a, b; 401: c; ...")."""
    statuses = sorted({kind.status for kind in ALL})
    return "; ".join(f"{status}: {', '.join(codes(status))}" for status in statuses)


def table() -> list[dict[str, object]]:
    """The whole table, for the OpenAPI document (``info.x-error-codes``)."""
    return [kind._asdict() for kind in ALL]
