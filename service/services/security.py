"""Per-game secret tokens: shown once, stored only as a salted hash.

Tokens are 256 random bits (`secrets.token_urlsafe`), so a fast keyed hash
(HMAC-SHA-256 with a per-game random salt) is enough: a slow password KDF only
helps against guessable secrets. Comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets

TOKEN_BYTES = 32
SALT_BYTES = 16


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def hash_token(token: str, salt: str) -> str:
    return hmac.new(bytes.fromhex(salt), token.encode("utf-8"), hashlib.sha256).hexdigest()


def token_matches(token: str, salt: str, expected_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token, salt), expected_hash)


def new_token_hash() -> tuple[str, str, str]:
    """A fresh token with its salt and hash: ``(token, salt, hash)``."""
    token = new_token()
    salt = new_salt()
    return token, salt, hash_token(token, salt)


def client_key(address: str, secret: str) -> str:
    """Who created a game, as the cap on active games per address counts it, never
    the address itself: HMAC-SHA-256 of the address keyed with `secret` (one key for
    every instance, so equal addresses give equal keys; without the key the hash
    cannot be turned back into the address). An IPv6 address counts as its /64
    network, which one client typically holds whole."""
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        canonical = address.strip()
    else:
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        if isinstance(ip, ipaddress.IPv6Address):
            canonical = str(ipaddress.IPv6Network((ip, 64), strict=False))
        else:
            canonical = str(ip)
    return hmac.new(secret.encode("utf-8"), canonical.encode("utf-8"),
                    hashlib.sha256).hexdigest()
