"""A software passkey authenticator, so that tests claim and sign in without a
browser: it answers WebAuthn creation and request options (as the API sends them)
with what ``credential.toJSON()`` gives in a browser.

Each credential is an ES256 key (`cryptography`); the attestation is ``none``; the
authenticator data and COSE key are CBOR (`cbor2`), as WebAuthn §6.1 and §6.5 lay
them out. The user is always present and verified. A test may answer for another
origin or relying party id, set a credential's signature counter, or keep none
(``counting=False``: the counter stays 0, as many platform authenticators do).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40  # authenticator data flags: present, verified, attested


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Credential:
    id: bytes
    key: ec.EllipticCurvePrivateKey
    rp_id: str
    user_handle: bytes
    sign_count: int = 0

    @property
    def id_text(self) -> str:
        return b64url(self.id)

    def cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})


class SoftAuthenticator:
    """Resident ES256 credentials for `origin` (``http://localhost`` as Flask's test
    client names itself)."""

    def __init__(self, origin: str = "http://localhost", counting: bool = True) -> None:
        self.origin = origin
        self.counting = counting
        self.credentials: list[Credential] = []

    def create(self, options: dict[str, Any], *, origin: str | None = None,
               rp_id: str | None = None) -> dict[str, Any]:
        """A new credential for `options` (``publicKey`` of the creation options), as
        the registration JSON."""
        rp = rp_id or options["rp"]["id"]
        credential = Credential(os.urandom(32), ec.generate_private_key(ec.SECP256R1()),
                                options["rp"]["id"], unb64url(options["user"]["id"]))
        self.credentials.append(credential)
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attested = (b"\0" * 16 + struct.pack(">H", len(credential.id)) + credential.id
                    + credential.cose_key())
        auth_data = self._auth_data(rp, UP | UV | AT, credential.sign_count) + attested
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": credential.id_text, "rawId": credential.id_text, "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data),
                         "attestationObject": b64url(attestation),
                         "transports": ["internal"]},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }

    def get(self, options: dict[str, Any], *, credential: Credential | None = None,
            origin: str | None = None, rp_id: str | None = None,
            sign_count: int | None = None) -> dict[str, Any]:
        """An assertion for `options` (``publicKey`` of the request options) by
        `credential` (default: the newest for the options' rp id), as its JSON."""
        chosen = credential or next(c for c in reversed(self.credentials)
                                    if c.rp_id == options["rpId"])
        if sign_count is not None:
            chosen.sign_count = sign_count
        elif self.counting:
            chosen.sign_count += 1
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = self._auth_data(rp_id or chosen.rp_id, UP | UV, chosen.sign_count)
        signature = chosen.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                    ec.ECDSA(hashes.SHA256()))
        return {
            "id": chosen.id_text, "rawId": chosen.id_text, "type": "public-key",
            "response": {"clientDataJSON": b64url(client_data),
                         "authenticatorData": b64url(auth_data),
                         "signature": b64url(signature),
                         "userHandle": b64url(chosen.user_handle)},
            "clientExtensionResults": {}, "authenticatorAttachment": "platform",
        }

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge,
                           "origin": origin or self.origin, "crossOrigin": False}).encode()

    @staticmethod
    def _auth_data(rp_id: str, flags: int, sign_count: int) -> bytes:
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(
            ">I", sign_count)
