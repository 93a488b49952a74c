"""The use cases: the one way into the game service for the API, the CLI and the pages.

Split by who needs them: `creation` (new games, rematches), `online` (invitations and
claims), `play` (the game page and the API's moves), `queries`
(reading games, replays, listings), `admin` (the CLI's data management),
`retention` (abandoning and pruning the games nobody finishes), `reviews` (the
analyst's reviews of ended games). Each runs
in units of work of the `store`; none touches a table or a connection, and none
computes squares or scores itself.
"""

from __future__ import annotations

from ..domain.commands import RuleViolation
from ..errors import (
    GameExists,
    GameNotFound,
    GameRunning,
    HighScoreNotFound,
    HintsOff,
    InvalidStream,
    InviteClaimed,
    InviteExpired,
    InviteInvalid,
    NoRematch,
    NotComputerTurn,
    NotOnline,
    RematchExists,
    ServiceError,
    StepOutOfRange,
    TokenInvalid,
    TokenMissing,
    TooManyGames,
    VersionConflict,
)
from ..store import EventStore, GameSummary, HighScore, StoredEvent
from .admin import AdminService
from .play import PlayService
from .queries import QueryService
from .results import (
    ClaimedSeat,
    CreatedGame,
    Followed,
    Hint,
    Invite,
    MoveResult,
    Problem,
    Rematch,
    SignatureReport,
    Waiting,
)
from .retention import RetentionService, Sweep
from .reviews import Analysis, ReviewService
from .streams import parse_stream


class Services(PlayService, QueryService, AdminService, RetentionService, ReviewService):
    """Every use case on one store (`Services.from_url(url)` or `Services(store)`)."""

    store: EventStore


__all__ = [
    "Analysis",
    "ClaimedSeat",
    "CreatedGame",
    "Followed",
    "GameExists",
    "GameNotFound",
    "GameRunning",
    "GameSummary",
    "HighScore",
    "HighScoreNotFound",
    "Hint",
    "HintsOff",
    "InvalidStream",
    "Invite",
    "InviteClaimed",
    "InviteExpired",
    "InviteInvalid",
    "MoveResult",
    "NotComputerTurn",
    "NoRematch",
    "NotOnline",
    "Problem",
    "Rematch",
    "RematchExists",
    "RuleViolation",
    "ServiceError",
    "Services",
    "SignatureReport",
    "StepOutOfRange",
    "StoredEvent",
    "Sweep",
    "TokenInvalid",
    "TokenMissing",
    "TooManyGames",
    "VersionConflict",
    "Waiting",
    "parse_stream",
]
