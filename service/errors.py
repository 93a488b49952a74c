"""The service layer's errors: each has a stable ``code``, a ``message`` and ``details``.

The domain's `service.domain.commands.RuleViolation` has the same three attributes
and passes through the service layer unchanged. What the API answers for each (its
HTTP status) is written in one place, `service.protocol.statuses`.
"""

from __future__ import annotations

from typing import Any, ClassVar


class ServiceError(Exception):
    code: ClassVar[str] = "service_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = details


class GameNotFound(ServiceError):
    code = "game_not_found"


class GameExists(ServiceError):
    """details: ``game_id``."""

    code = "game_exists"


class VersionConflict(ServiceError):
    """Another writer appended first; details: ``current_version``."""

    code = "version_conflict"


class TokenMissing(ServiceError):
    code = "token_missing"


class TokenInvalid(ServiceError):
    code = "token_invalid"


class StepOutOfRange(ServiceError):
    """details: ``version`` (the game's current version)."""

    code = "step_out_of_range"


class NotComputerTurn(ServiceError):
    code = "not_computer_turn"


class InvalidStream(ServiceError):
    """An import that cannot be stored; details: ``line`` (1-based) and ``reason``."""

    code = "invalid_stream"


class HighScoreNotFound(ServiceError):
    code = "high_score_not_found"


class PlayerNotFound(ServiceError):
    """A name no game's human seat has (no player yet); details: ``name``."""

    code = "player_not_found"


class NotOnline(ServiceError):
    """A claim on a game that has no invitation (not an online game)."""

    code = "not_online"


class InviteInvalid(ServiceError):
    code = "invite_invalid"


class InviteClaimed(ServiceError):
    code = "invite_claimed"


class InviteExpired(ServiceError):
    """details: ``expired_at``."""

    code = "invite_expired"


class BadSetting(ServiceError):
    """A setting from the environment that cannot be used."""

    code = "bad_setting"


class DatabaseUnavailable(ServiceError):
    """The database cannot be reached or used right now (`service.store.outages`); the
    message is the driver's first line, for logs and admins, never for clients. The
    driver's error is its ``__cause__``."""

    code = "unavailable"


class TooManyGames(ServiceError):
    """A client address already has as many active games as it may create; details:
    ``limit``."""

    code = "too_many_games"


class HintsOff(ServiceError):
    """A hint in a game whose creator did not turn hints on (online games)."""

    code = "hints_off"


class GameRunning(ServiceError):
    """A review asked for while the game is still being played (no help during
    play)."""

    code = "game_running"


class NoRematch(ServiceError):
    """A rematch of an online game that is not over, or that the invited friend never
    joined (there is nobody to play again)."""

    code = "no_rematch"


class RematchExists(ServiceError):
    """A rematch asked for again by the player who made it; details: ``game_id``, the
    rematch (this browser keeps its token)."""

    code = "rematch_exists"
