"""Old versions of events read as new: each upcaster turns one version's data into
the next version's, and says which fields it adds (a strict decode refuses them at
the older version). The codec (`event_codec`) runs them in turn on read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .events import EventFormatError
from .seeds import commitment


def _line_placed_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 said *whether* the line cost RULES T2's penalty; v2 says how many points."""
    penalty = data["penalty"]
    if type(penalty) is not bool:
        raise EventFormatError(f"line_placed v1: penalty {penalty!r} is not a boolean")
    return {**data, "penalty": 5 if penalty else 0}


def _game_created_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 stored its integer seed in the open: a ranked game whose seed is public from
    the start, the creator's seat first, hints on (as games were then)."""
    seed = data["seed"]
    if type(seed) is not int:
        raise EventFormatError(f"game_created v1: seed {seed!r} is not an integer")
    text = str(seed)
    return {**data, "seed": text, "seed_commitment": commitment(text), "ranked": True,
            "first_seat": 1, "hints": True}


def _game_created_v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Games before version 3 were played by the first edition of the rules."""
    return {**data, "rules_edition": 1}


def _game_created_v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Games before version 4 name their human seats in text (no player records,
    `events.Seat`) and none was rated."""
    return {**data, "rated": False}


def _seat_claimed_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """A friend's seat before version 2 is named in text."""
    return {**data, "player": None}


def _same(data: dict[str, Any]) -> dict[str, Any]:
    """A version that only allows more: what the older one says reads unchanged."""
    return data


# (type, version) -> function turning that version's data into the next version's.
UPCASTERS: dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]] = {
    ("line_placed", 1): _line_placed_v1_to_v2,
    ("game_created", 1): _game_created_v1_to_v2,
    ("game_created", 2): _game_created_v2_to_v3,
    ("game_created", 3): _game_created_v3_to_v4,
    ("seat_claimed", 1): _seat_claimed_v1_to_v2,
    ("high_scores_entered", 1): _same,  # entries may point to player records since v2
}
# The fields each upcaster adds. A stream from outside (strict decoding) may not carry
# them at that version: an event is exactly of the version it names, and an upcaster
# never overwrites what a stream says (a v2 game_created with a rules_edition is no
# v2 game_created).
UPCASTER_ADDS: dict[tuple[str, int], frozenset[str]] = {
    ("line_placed", 1): frozenset(),
    ("game_created", 1): frozenset({"seed_commitment", "ranked", "first_seat", "hints"}),
    ("game_created", 2): frozenset({"rules_edition"}),
    ("game_created", 3): frozenset({"rated"}),
    ("seat_claimed", 1): frozenset({"player"}),
    ("high_scores_entered", 1): frozenset(),
}
