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


class DailyNoHints(HintsOff):
    """A hint in a player's ranked attempt at the daily challenge (`services.daily`):
    its practice games have them."""

    code = "daily_no_hints"


class DailyNotYet(ServiceError):
    """A daily challenge of a date that has not begun (UTC); details: ``date``."""

    code = "daily_not_yet"


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


class NameClaimed(ServiceError):
    """A name (or one that matches it, `domain.names.name_key`) that a signed-in player
    holds, asked for by someone else; details: ``field``, ``name`` (the holder's)."""

    code = "name_claimed"


class RatedNeedsSignIn(ServiceError):
    """A rated online game asked for, or its seat claimed, by someone who is not signed
    in, or under another name than their own: a rating belongs to a signed-in player."""

    code = "rated_needs_sign_in"


class RatedAgainstSelf(ServiceError):
    """The seat of a rated game claimed by the player who sits in the other one: a
    player cannot move their rating against their own name."""

    code = "rated_against_self"


# Passkeys and sessions (`service.services.accounts`) -------------------------------


class NotSignedIn(ServiceError):
    """An account action without a session (no cookie, or one that expired, was
    signed out, or whose player was forgotten)."""

    code = "not_signed_in"


class CeremonyExpired(ServiceError):
    """A passkey step whose challenge is older than its five minutes: start again."""

    code = "ceremony_expired"


class CeremonyUsed(ServiceError):
    """A passkey step whose challenge was answered already (a replay), or never given."""

    code = "ceremony_used"


class PasskeyUnknown(ServiceError):
    """An assertion by a credential no player has (removed, or never registered here)."""

    code = "passkey_unknown"


class PasskeyRefused(ServiceError):
    """A passkey's answer that does not verify; details: ``reason`` (the challenge,
    the origin, the relying party, the signature, ...)."""

    code = "passkey_refused"


class CounterWentBack(ServiceError):
    """An assertion whose signature counter is not above the one last seen (a cloned
    authenticator, or a replay), unless both are 0 (authenticators that keep none)."""

    code = "counter_went_back"


class RecoveryCodeInvalid(ServiceError):
    """A recovery code that is not one of the name's unspent codes."""

    code = "recovery_code_invalid"


class CrossSite(ServiceError):
    """A state-changing request that carries the session cookie but comes from another
    site (its Origin, else its Referer, is not ours)."""

    code = "cross_site"


class PasskeyHost(ServiceError):
    """Passkeys asked for at a host that cannot be a relying party (an IP address, or
    another name than the public URL's): open the page at ``localhost``."""

    code = "passkey_host"


class LastPasskey(ServiceError):
    """Removing a player's only passkey: they could no longer sign in with one."""

    code = "last_passkey"


class NameReserved(ServiceError):
    """A name of the original high score table, which nobody may claim; details:
    ``field``."""

    code = "name_reserved"
