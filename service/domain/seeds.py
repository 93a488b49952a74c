"""Committed randomness (RULES I5, issue 23): where every random outcome comes from.

A ranked game's seed is the server's secret: 128 random bits as 32 hex digits.
Its ``game_created`` event carries only the commitment, the SHA-256 of the seed's
UTF-8 text, and the seed itself is revealed in a ``seed_revealed`` event when the game
ends, so anyone can check the commitment and re-derive every random outcome, but
nobody can compute one before it happens. A practice game's seed was chosen by a
player: it is public in ``game_created`` from the start (both players see it).
"""

from __future__ import annotations

import hashlib
import random
import secrets

SEED_BITS = 128


class SeedUnknown(LookupError):
    """A random decision on a state that does not know its game's seed (a ranked game
    read from public events only)."""


def new_seed() -> str:
    """A fresh secret seed: `SEED_BITS` random bits as hex text."""
    return secrets.token_hex(SEED_BITS // 8)


def commitment(seed: str) -> str:
    """The public commitment to `seed`: the SHA-256 hex of its UTF-8 text."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def game_rng(seed: str, version: int, purpose: str) -> random.Random:
    """The random generator for one decision of a game.

    Seeding from (seed, stream position, purpose) keeps `decide` pure and makes a
    game reproducible from its seed. (The text is the one of the integer seeds of
    games before commitments, so their outcomes are unchanged.)
    """
    return random.Random(f"squares:{seed}:{version}:{purpose}")
