"""The use cases: the one way into the game service for the API, the CLI and the pages.

Split by who needs them: `play` (the game page and the API's moves; new games and
rematches from `creation`, invitations and claims from `online`), `queries`
(reading games, replays, listings), `players` (a player's page), `daily` (the daily
challenge), `ratings` (the ratings table, a player's rating), `admin` (the CLI's data management),
`retention` (abandoning and pruning the games nobody finishes), `reviews` (the
analyst's reviews of ended games), `accounts` (passkeys, sessions, recovery codes). Each runs
in units of work of the `store`; none touches a table or a connection, and none
computes squares or scores itself.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

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
    PlayerNotFound,
    RematchExists,
    ServiceError,
    StepOutOfRange,
    TokenInvalid,
    TokenMissing,
    TooManyGames,
    VersionConflict,
)
from ..ops.settings import Settings
from ..store import REQUEST, EventStore, GameSummary, HighScore, Patience, StoredEvent
from .admin import AdminService

if TYPE_CHECKING:
    from .accounts import AccountService
from .base import OnCore, ServiceCore
from .daily import DailyService
from .play import PlayService
from .players import PlayerPage, PlayerService
from .queries import QueryService
from .ratings import RatingService
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


class Services(OnCore):
    """Every use case on one store (`Services.from_url(url)` or `Services(store)`), by
    who needs them: ``play``, ``queries``, ``players``, ``admin``, ``retention``,
    ``reviews``, ``accounts``, ``daily``, ``ratings``, each on the one `ServiceCore` they share (the store, the settings,
    the hint cache, the clock)."""

    def __init__(self, store: EventStore, settings: Settings | None = None, *,
                 core: ServiceCore | None = None) -> None:
        self.core = core if core is not None else ServiceCore(store, settings)
        self.play = PlayService(self.core)
        self.queries = QueryService(self.core)
        self.players = PlayerService(self.core)
        self.admin = AdminService(self.core)
        self.retention = RetentionService(self.core)
        self.reviews = ReviewService(self.core)
        self.daily = DailyService(self.core)
        self.ratings = RatingService(self.core)

    @functools.cached_property
    def accounts(self) -> AccountService:
        """Passkeys and sessions. Made when first asked for: WebAuthn's libraries
        (cryptography, CBOR) cost the CLI's commands memory they never use."""
        from .accounts import AccountService

        return AccountService(self.core)

    @classmethod
    def from_url(cls, url: str | None = None, patience: Patience = REQUEST,
                 settings: Settings | None = None) -> Services:
        """Services on `url` (None: the settings' ``DATABASE_URL``). `patience`: how
        long the database may keep a caller waiting (`ADMIN` for the CLI's commands);
        `settings`: default, the environment's."""
        core = cls.core_from_url(url, patience, settings)
        return cls(core.store, core=core)


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
    "PlayerNotFound",
    "PlayerPage",
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
]
