"""One-time recovery codes (`accounts`): made, written in one form, stored hashed."""

from __future__ import annotations

import secrets

from . import security

RECOVERY_CODES = 10
CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read from paper
CODE_GROUPS, CODE_GROUP_LEN = 3, 4  # "abcd-efgh-jkmn": about 59 bits


def new_recovery_code() -> str:
    groups = ("".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_GROUP_LEN))
              for _ in range(CODE_GROUPS))
    return "-".join(groups)


def normal_code(code: str) -> str:
    """A code as typed (any case, spaces or dashes) in its one written form."""
    kept = "".join(c for c in code.lower() if c.isalnum())
    return "-".join(kept[i:i + CODE_GROUP_LEN] for i in range(0, len(kept), CODE_GROUP_LEN))


def hashed_code(code: str) -> tuple[str, str]:
    """How a code is stored: (its salted hash, the salt)."""
    salt = security.new_salt()
    return security.hash_token(normal_code(code), salt), salt
