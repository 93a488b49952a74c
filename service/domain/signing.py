"""Signed exports (RULES E1: an imported game keeps its table only with its signature).

An export's last line signs the stream: HMAC-SHA256, keyed with an instance's secret,
over the canonical text of its events (one `event_to_json` per line), so a stream
re-spaced by a tool keeps its signature and a changed event loses it. A secret is
named by its key id, a hash of it that does not reveal it. `check` tells a signature's
state against the secrets a server knows: its own and those its operator lists.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .event_codec import event_to_json
from .events import Event

ALGORITHM = "HMAC-SHA256"
LINE_TYPE = "signature"
LINE_VERSION = 1
_DOMAIN = b"squares export v1\n"  # so a mac of this kind is never one of another
_KEY_ID = re.compile(r"^[0-9a-f]{16}$")
_MAC = re.compile(r"^[0-9a-f]{64}$")

# The states of a signature (`check`).
VALID = "valid"  # made with one of the known keys over exactly these events
MISSING = "missing"  # the stream carries none
INVALID = "invalid"  # a known key's signature that does not match these events
UNKNOWN_KEY = "unknown_key"  # made with a key this server does not know


class SignatureFormatError(ValueError):
    """A signature line that is not one."""


@dataclass(frozen=True)
class Signature:
    key: str  # the key id of the secret that made it
    mac: str  # hex

    def to_dict(self) -> dict[str, Any]:
        return {"type": LINE_TYPE, "v": LINE_VERSION,
                "data": {"alg": ALGORITHM, "key": self.key, "mac": self.mac}}

    def text(self) -> str:
        """As stored with an imported game: ``<key id>:<mac>``."""
        return f"{self.key}:{self.mac}"

    @classmethod
    def from_text(cls, text: str) -> Signature:
        key, _, mac = text.partition(":")
        return cls(key, mac)


@dataclass(frozen=True)
class SignatureCheck:
    state: str  # VALID | MISSING | INVALID | UNKNOWN_KEY
    key: str | None = None  # the key id it names


def key_id(secret: bytes) -> str:
    """The public name of a secret: 16 hex digits of a hash of it."""
    return hashlib.sha256(b"squares export key id\n" + secret).hexdigest()[:16]


def _mac(events: Sequence[Event], secret: bytes) -> str:
    mac = hmac.new(secret, _DOMAIN, hashlib.sha256)
    for event in events:
        mac.update(event_to_json(event).encode("utf-8") + b"\n")
    return mac.hexdigest()


def sign(events: Sequence[Event], secret: bytes) -> Signature:
    return Signature(key_id(secret), _mac(events, secret))


def check(events: Sequence[Event], signature: Signature | None,
          secrets: Mapping[str, bytes]) -> SignatureCheck:
    """The state of `signature` over `events`, with `secrets` (key id -> secret) the
    keys this server trusts."""
    if signature is None:
        return SignatureCheck(MISSING)
    secret = secrets.get(signature.key)
    if secret is None:
        return SignatureCheck(UNKNOWN_KEY, signature.key)
    good = hmac.compare_digest(_mac(events, secret), signature.mac)
    return SignatureCheck(VALID if good else INVALID, signature.key)


def signature_from_dict(raw: Mapping[str, Any]) -> Signature:
    """The `Signature` of a ``{"type": "signature", "v": 1, "data": ...}`` line;
    `SignatureFormatError` unless it is exactly one."""
    if raw.get("v") != LINE_VERSION or type(raw.get("v")) is not int:
        raise SignatureFormatError(f"a signature of version {raw.get('v')!r} is unknown "
                                   f"(v{LINE_VERSION} is)")
    data = raw.get("data")
    if not isinstance(data, dict) or set(data) != {"alg", "key", "mac"}:
        raise SignatureFormatError("a signature's data is exactly alg, key and mac")
    if data["alg"] != ALGORITHM:
        raise SignatureFormatError(f"a signature's alg is {ALGORITHM}")
    key, mac = data["key"], data["mac"]
    if not (isinstance(key, str) and _KEY_ID.match(key)
            and isinstance(mac, str) and _MAC.match(mac)):
        raise SignatureFormatError("a signature's key is 16 and its mac 64 hex digits")
    return Signature(key, mac)
