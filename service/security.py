"""Per-game secret tokens: shown once, stored only as a salted hash.

Tokens are 256 random bits (`secrets.token_urlsafe`), so a fast keyed hash
(HMAC-SHA-256 with a per-game random salt) is enough: a slow password KDF only
helps against guessable secrets. Comparison is constant-time.
"""

from __future__ import annotations

import hashlib
import hmac
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
