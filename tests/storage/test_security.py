"""Per-game tokens: random, stored as a salted hash, compared in constant time."""

from __future__ import annotations

from service.services import security


def test_tokens_are_random_and_hashes_salted() -> None:
    token, salt, token_hash = security.new_token_hash()
    assert len(token) >= 40 and token not in token_hash
    assert security.token_matches(token, salt, token_hash)
    assert not security.token_matches(token + "x", salt, token_hash)
    other_salt = security.new_salt()
    assert security.hash_token(token, other_salt) != token_hash
    assert len({security.new_token() for _ in range(100)}) == 100
