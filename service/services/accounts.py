"""Passkey accounts: claiming a name with a passkey, signing in and out, a player's
passkeys and their one-time recovery codes (``services.accounts``).

Each passkey step is two requests: the options (a WebAuthn challenge, kept as a
*ceremony* for five minutes, used once) and the answer, which py_webauthn verifies
against that challenge, the relying party id and the origin (`RelyingParty`, which
the HTTP side works out from ``SQUARES_PUBLIC_URL`` or a request at ``localhost``).
The ceremony is taken (deleted) before the answer is verified, in a transaction of
its own: a refused answer spends it too, and a replayed one finds it gone
(``ceremony_used``).

- claim: a free name (`domain.names.clean_name`; not a name of the original high
  score table; no other player holds its key) → a claimed player record, the
  passkey, 10 recovery codes (shown once: only their salted hashes are stored) and a
  session.
- sign in: a discoverable credential (no name asked); its signature counter must go
  up, unless the authenticator keeps none (both 0).
- a new passkey: for the signed-in player, or after a recovery code (spent at once,
  whether or not a passkey follows).
- a player keeps at least one passkey: removing the last one is refused
  (``last_passkey``); their recovery codes are for a lost device, not a way to live
  without a passkey.
- sessions: the cookie holds a random token; only its SHA-256 is stored, with an
  expiry (``SQUARES_SESSION_LIFETIME``); signing out deletes it, signing out
  everywhere deletes all the player's.

Every refusal is a `ServiceError` with a stable code, and a warning in the log that
names the player's id when there is one (never a name, a token or a code).
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    UserVerificationRequirement,
)

from ..domain.commands import RuleViolation
from ..domain.names import clean_name, name_key
from ..domain.ranking import DEFAULT_HIGH_SCORES
from ..errors import (
    CeremonyExpired,
    CeremonyUsed,
    CounterWentBack,
    LastPasskey,
    NameClaimed,
    NameReserved,
    NotSignedIn,
    PasskeyRefused,
    PasskeyUnknown,
    RecoveryCodeInvalid,
)
from ..store import UnitOfWork
from ..store.credentials import Ceremony, StoredPasskey, Swept
from . import security
from .base import ServiceBase
from .passkey_answers import (
    SELECTION,
    NewPasskey,
    RelyingParty,
    as_dict,
    credential_id,
    reason,
    refused,
    user_handle,
    verify_registration,
)
from .recovery_codes import RECOVERY_CODES, hashed_code, new_recovery_code, normal_code
from .results import Account, Claimed, Passkey, Session, SignedIn, SignedInNow, Started

__all__ = ["RECOVERY_CODES", "Account", "AccountService", "Passkey", "RelyingParty",
           "Session", "Started"]

log = logging.getLogger(__name__)

CEREMONY_TTL = timedelta(minutes=5)
TIMEOUT_MS = 5 * 60 * 1000  # what the browser is told: the ceremony's own time
LABEL_MAX = 64
RESERVED_KEYS = frozenset(name_key(name) for name, _ in DEFAULT_HIGH_SCORES)
"""The names of the original high score table (`domain.ranking`): they belong to the
game's history, so nobody claims them."""


def token_hash(token: str) -> str:
    """How a session is stored: the SHA-256 of its token (a token is 256 random bits,
    so no salt or slow hash is needed)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class AccountService(ServiceBase):
    # claiming a name ------------------------------------------------------------
    def claim_options(self, name: object, rp: RelyingParty) -> Started:
        """Begin claiming `name`: `RuleViolation` ``invalid_name``, `NameReserved`,
        `NameClaimed`, or the options for a new passkey."""
        cleaned = clean_name(name, field="name")
        key = name_key(cleaned)
        if key in RESERVED_KEYS:
            raise refused(NameReserved(
                "this name belongs to the original high score table: choose another",
                field="name"))
        now = self.clock()
        with self.store.unit_of_work(write=False) as uow:
            if uow.player_records.holder(key, now) is not None:
                raise refused(NameClaimed(
                    "this name (or one written like it) belongs to a player already: "
                    "sign in, or choose another", field="name", name=cleaned))
        options = generate_registration_options(
            rp_id=rp.id, rp_name=rp.name, user_name=cleaned, user_id=user_handle(key),
            timeout=TIMEOUT_MS, authenticator_selection=SELECTION)
        return self._begin("claim", options, None, cleaned)

    def claim(self, ceremony_id: str, credential: object, rp: RelyingParty,
              label: str = "") -> Claimed:
        """Finish a claim: the passkey verified, the claimed record, the passkey, 10
        recovery codes and a session, in one transaction."""
        ceremony = self._take(ceremony_id, "claim")
        assert ceremony.name is not None
        verified = verify_registration(ceremony.challenge, credential, rp, None)
        codes = tuple(new_recovery_code() for _ in range(RECOVERY_CODES))
        now = self.clock()
        with self.store.unit_of_work() as uow:
            try:
                player_id = uow.player_records.claim(ceremony.name, now)
            except NameClaimed as exc:
                raise refused(exc) from None
            self._store_passkey(uow, verified, player_id, label, now)
            uow.credentials.add_codes(player_id, [hashed_code(code) for code in codes])
            session = self._new_session(uow, player_id, now)
        log.info("player %d claimed a name with a passkey", player_id)
        return Claimed(SignedIn(player_id, ceremony.name), session, codes)

    # signing in -----------------------------------------------------------------
    def sign_in_options(self, rp: RelyingParty) -> Started:
        """Begin signing in with a discoverable credential (no name asked)."""
        options = generate_authentication_options(
            rp_id=rp.id, timeout=TIMEOUT_MS,
            user_verification=UserVerificationRequirement.REQUIRED)
        return self._begin("sign_in", options, None, None)

    def sign_in(self, ceremony_id: str, credential: object, rp: RelyingParty) -> SignedInNow:
        """Finish signing in: the assertion verified, the counter moved on, a new
        session (a new token at every sign-in)."""
        ceremony = self._take(ceremony_id, "sign_in")
        answered = credential_id(credential)
        now = self.clock()
        with self.store.unit_of_work(write=False) as uow:
            stored = uow.credentials.passkey(answered)
            record = uow.player_records.get(stored.player_id) if stored else None
        if stored is None or record is None or record.name is None:
            raise refused(PasskeyUnknown("no player has this passkey: it was removed, "
                                         "or never registered here"))
        try:
            verified = verify_authentication_response(
                credential=as_dict(credential),
                expected_challenge=base64url_to_bytes(ceremony.challenge),
                expected_rp_id=rp.id, expected_origin=rp.origin,
                credential_public_key=stored.public_key,
                credential_current_sign_count=0,  # compared below, to say so
                require_user_verification=True)
        except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
            raise refused(PasskeyRefused("the passkey's answer does not verify",
                                         reason=reason(exc)), stored.player_id) from None
        new_count = verified.new_sign_count
        if (new_count or stored.sign_count) and new_count <= stored.sign_count:
            raise refused(CounterWentBack(
                "this passkey's signature counter went back: was it copied?",
                seen=stored.sign_count, given=new_count), stored.player_id)
        with self.store.unit_of_work() as uow:
            if not uow.credentials.used_passkey(answered, stored.sign_count,
                                                new_count, now):
                raise refused(CounterWentBack(
                    "another sign-in used this passkey's counter first",
                    seen=stored.sign_count, given=new_count), stored.player_id)
            session = self._new_session(uow, stored.player_id, now)
        return SignedInNow(SignedIn(stored.player_id, record.name), session)

    def signed_in(self, token: str) -> SignedIn | None:
        """The player a session cookie's token signs in; None for an unknown or
        expired session, or a forgotten player."""
        if not token or len(token) > 200:
            return None
        with self.store.unit_of_work(write=False) as uow:
            found = uow.credentials.session_player(token_hash(token), self.clock())
        return SignedIn(*found) if found is not None else None

    def open_session(self, player_id: int) -> Session:
        """A new session of a player whose sign-in was proven elsewhere (a tool, a
        benchmark): the same record a passkey sign-in writes, in a transaction of its
        own (the sign-ins write theirs in the transaction that proves them)."""
        with self.store.unit_of_work() as uow:
            return self._new_session(uow, player_id, self.clock())

    def sign_out(self, token: str) -> None:
        """End this session (its record deleted: the token signs in nobody again)."""
        with self.store.unit_of_work() as uow:
            uow.credentials.end_session(token_hash(token))

    def sign_out_everywhere(self, player_id: int) -> int:
        """End every session of the player: how many there were."""
        with self.store.unit_of_work() as uow:
            ended = uow.credentials.end_sessions(player_id)
        log.info("player %d signed out everywhere (%d sessions)", player_id, ended)
        return ended

    # the account and its passkeys -------------------------------------------------
    def account(self, player_id: int) -> Account:
        with self.store.unit_of_work(write=False) as uow:
            record = uow.player_records.get(player_id)
            if record is None or record.name is None:
                raise NotSignedIn("no such player: sign in again")
            passkeys = tuple(_public(p) for p in uow.credentials.passkeys(player_id))
            left = uow.credentials.count_unspent(player_id)
        return Account(player_id, record.name, passkeys, left)

    def add_passkey_options(self, player_id: int, rp: RelyingParty) -> Started:
        """Begin adding a passkey to the (signed-in) player's."""
        with self.store.unit_of_work(write=False) as uow:
            record = uow.player_records.get(player_id)
            existing = uow.credentials.passkeys(player_id)
        if record is None or record.name is None or record.name_key is None:
            raise NotSignedIn("no such player: sign in again")
        options = generate_registration_options(
            rp_id=rp.id, rp_name=rp.name, user_name=record.name,
            user_id=user_handle(record.name_key), timeout=TIMEOUT_MS,
            authenticator_selection=SELECTION,
            exclude_credentials=[PublicKeyCredentialDescriptor(
                id=base64url_to_bytes(p.credential_id),
                transports=[AuthenticatorTransport(t) for t in p.transports])
                for p in existing])
        return self._begin("add_passkey", options, player_id, None)

    def recover(self, name: object, code: str, rp: RelyingParty) -> Started:
        """Spend one of the player's recovery codes (whether or not a passkey
        follows) and begin adding a passkey for them. A wrong code and an unknown
        name are the same refusal, so it tells nobody which names are claimed."""
        invalid = RecoveryCodeInvalid("this is not one of the name's unspent recovery codes")
        try:
            key = name_key(clean_name(name, field="name"))
        except RuleViolation:  # no player has such a name
            raise refused(invalid) from None
        typed = normal_code(code)
        now = self.clock()
        with self.store.unit_of_work() as uow:
            record = uow.player_records.holder(key, now)
            if record is None or not record.claimed or record.name is None:
                raise refused(invalid)
            match = next((c for c in uow.credentials.unspent_codes(record.id)
                          if security.token_matches(typed, c.code_salt, c.code_hash)), None)
            if match is None or not uow.credentials.spend_code(match.id, now):
                raise refused(invalid, record.id)
        log.info("player %d spent a recovery code", record.id)
        return self.add_passkey_options(record.id, rp)

    def add_passkey(self, ceremony_id: str, credential: object, rp: RelyingParty,
                    signed_in: SignedIn | None, label: str = "") -> tuple[Passkey, SignedInNow]:
        """Finish adding a passkey (begun by `add_passkey_options` or `recover`): the
        passkey, and a new session unless the browser is signed in as the player."""
        ceremony = self._take(ceremony_id, "add_passkey")
        assert ceremony.player_id is not None
        player_id = ceremony.player_id
        verified = verify_registration(ceremony.challenge, credential, rp, player_id)
        now = self.clock()
        with self.store.unit_of_work() as uow:
            record = uow.player_records.get(player_id)
            if record is None or record.name is None:
                raise refused(NotSignedIn("this player was forgotten"), player_id)
            passkey = self._store_passkey(uow, verified, player_id, label, now)
            session = (None if signed_in is not None and signed_in.player_id == player_id
                       else self._new_session(uow, player_id, now))
        log.info("player %d added a passkey", player_id)
        return _public(passkey), SignedInNow(SignedIn(player_id, record.name), session)

    def remove_passkey(self, player_id: int, credential_id: str) -> None:
        """Remove one of the player's passkeys; never the last (`LastPasskey`)."""
        with self.store.unit_of_work() as uow:
            if uow.credentials.passkey(credential_id) is None or all(
                    p.credential_id != credential_id
                    for p in uow.credentials.passkeys(player_id)):
                raise refused(PasskeyUnknown("you have no passkey of this id"), player_id)
            if uow.credentials.count_passkeys(player_id) <= 1:
                raise refused(LastPasskey(
                    "this is your only passkey: add another before you remove it"),
                    player_id)
            uow.credentials.remove_passkey(player_id, credential_id)

    def drop_credentials(self, player_id: int) -> None:
        """Delete the player's passkeys, recovery codes and sessions (once they are
        forgotten: nothing of theirs signs in again)."""
        with self.store.unit_of_work() as uow:
            uow.credentials.drop_player(player_id)
        log.info("player %d: passkeys, recovery codes and sessions deleted", player_id)

    def sweep(self, now: datetime | None = None) -> Swept:
        """Delete the ceremonies and sessions that ran out (the sweeper's)."""
        with self.store.unit_of_work() as uow:
            return uow.credentials.sweep(now or self.clock())

    # the steps every ceremony shares ----------------------------------------------
    def _begin(self, kind: str, options: Any, player_id: int | None,
               name: str | None) -> Started:
        now = self.clock()
        ceremony = Ceremony(secrets.token_urlsafe(32), kind,
                            bytes_to_base64url(options.challenge), player_id, name, now,
                            now + CEREMONY_TTL)
        with self.store.unit_of_work() as uow:
            uow.credentials.add_ceremony(ceremony)
        return Started(ceremony.id, json.loads(options_to_json(options)))

    def _take(self, ceremony_id: str, kind: str) -> Ceremony:
        """The ceremony, taken for good in a transaction of its own (a refused answer
        spends it too)."""
        with self.store.unit_of_work() as uow:
            taken = uow.credentials.take_ceremony(ceremony_id[:64], kind, self.clock())
        if taken == "expired":
            raise refused(CeremonyExpired("this passkey step took over 5 minutes: "
                                           "start again"))
        if isinstance(taken, str):
            raise refused(CeremonyUsed("this passkey step was answered already: "
                                        "start again"))
        return taken

    def _store_passkey(self, uow: UnitOfWork, new: NewPasskey, player_id: int,
                       label: str, now: datetime) -> StoredPasskey:
        label = label.strip()[:LABEL_MAX] or (
            f"Passkey {uow.credentials.count_passkeys(player_id) + 1}")
        passkey = StoredPasskey(new.credential_id, player_id, new.public_key,
                                new.sign_count, new.transports, label, now, None)
        if not uow.credentials.add_passkey(passkey):
            raise refused(PasskeyRefused("this passkey is registered already",
                                          reason="credential_exists"), player_id)
        return passkey

    def _new_session(self, uow: UnitOfWork, player_id: int, now: datetime) -> Session:
        token = security.new_token()
        expires_at = now + self.settings.session_lifetime
        uow.credentials.add_session(token_hash(token), player_id, now, expires_at)
        return Session(token, expires_at)


def _public(passkey: StoredPasskey) -> Passkey:
    return Passkey(passkey.credential_id, passkey.label, passkey.created_at, passkey.used_at)
