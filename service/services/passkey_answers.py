"""What the passkey ceremonies (`accounts`) share about WebAuthn itself: who the
passkeys are for (`RelyingParty`), the options every new passkey is asked with, a
browser's answer read and a new passkey's verified (py_webauthn), and every refusal
logged as a warning that names the player's id when there is one (never a name, a
token or a code)."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from typing import Any

from webauthn import verify_registration_response
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from ..errors import PasskeyRefused, ServiceError

log = logging.getLogger("service.services.accounts")

SELECTION = AuthenticatorSelectionCriteria(
    resident_key=ResidentKeyRequirement.REQUIRED,
    user_verification=UserVerificationRequirement.REQUIRED)
_TRANSPORTS = frozenset(t.value for t in AuthenticatorTransport)


@dataclass(frozen=True)
class RelyingParty:
    """Who the passkeys are for: the rp id (a host name, never an address) and the
    one origin their answers must come from."""

    id: str
    origin: str
    name: str = "Squares"


@dataclass(frozen=True)
class NewPasskey:
    """A verified new passkey, before it is stored."""

    credential_id: str  # base64url
    public_key: bytes  # COSE
    sign_count: int
    transports: tuple[str, ...]


def refused(error: ServiceError, player_id: int | None = None) -> ServiceError:
    """`error`, logged as a warning (the player's id, never a name or a secret)."""
    why = error.details.get("reason")
    log.warning("account refusal %s%s%s", error.code,
                f" for player {player_id}" if player_id is not None else "",
                f": {why}" if why else "")
    return error


def user_handle(key: str) -> bytes:
    """The WebAuthn user id of the name key `key`: the same for every passkey of a
    player (an authenticator keeps one credential per site and user), and no name."""
    return hashlib.sha256(f"squares-player:{key}".encode()).digest()


def verify_registration(challenge: str, credential: object, rp: RelyingParty,
                        player_id: int | None) -> NewPasskey:
    """The new passkey of a browser's `credential` answering `challenge` (base64url),
    or a refused `PasskeyRefused`."""
    try:
        verified = verify_registration_response(
            credential=as_dict(credential),
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=rp.id, expected_origin=rp.origin,
            require_user_verification=True)
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        raise refused(PasskeyRefused("the new passkey's answer does not verify",
                                     reason=reason(exc)), player_id) from None
    return NewPasskey(bytes_to_base64url(verified.credential_id),
                      verified.credential_public_key, verified.sign_count,
                      transports(credential))


def as_dict(credential: object) -> dict[str, Any]:
    if not isinstance(credential, dict):
        raise PasskeyRefused("a credential is a JSON object", reason="not_an_object")
    return credential


def transports(credential: object) -> tuple[str, ...]:
    """The transports the browser named for a new passkey (kept to hint them later)."""
    response = as_dict(credential).get("response")
    named = response.get("transports") if isinstance(response, dict) else None
    if not isinstance(named, list):
        return ()
    return tuple(dict.fromkeys(t for t in named if isinstance(t, str) and t in _TRANSPORTS))


def credential_id(credential: object) -> str:
    found = as_dict(credential).get("id")
    if not isinstance(found, str) or not found or len(found) > 1400:
        raise refused(PasskeyRefused("the credential has no id", reason="no_id"))
    return found


def reason(exc: Exception) -> str:
    """Why py_webauthn refused an answer, in one short line (its own words: the
    challenge, the origin, the rp id hash, the signature, ...)."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]
