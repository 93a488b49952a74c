"""How many random lines a game draws (RULES I2, T4), by field size and rules edition.

A game keeps the edition it was started under (``game_created``'s ``rules_edition``),
so a stored game goes on, folds and replays by the rules it began with.

- Edition 1, RULES as first written: ``round(90 × inner slots / 263)`` initial lines
  and a 3-, 2- and 1-line piece in every stage 3, on every field.
- Edition 2 (issue 26; a rule choice, see docs/rules.md): the same on the default field
  and on large ones, but on small fields a 7 × 9 game ended in round 1 nearly always,
  because walls already draw a larger share of a small field's slots and six piece
  lines a turn fill it at once. So the initial lines never make the drawn share of all
  slots, walls included, larger than the default field's (140 of 313), and a stage 3
  leaves out its largest pieces until its lines are at most one per
  `INNER_SLOTS_PER_PIECE_LINE` inner slots (3 + 2 + 1 from 30 inner slots on, 2 + 1
  from 15, else 1).
"""

from __future__ import annotations

from functools import lru_cache

from .board import DEFAULT_HEIGHT, DEFAULT_WIDTH, Geometry, geometry

RULES_EDITION = 2  # what new games are played by
EDITIONS = (1, 2)

PIECE_SIZES = (3, 2, 1)  # RULES T4: the pieces of a stage 3, in this order
INNER_SLOTS_PER_PIECE_LINE = 5
DEFAULT_INITIAL_LINES = 90  # RULES I2, on the default field


def check_edition(edition: int) -> int:
    if edition not in EDITIONS:
        raise ValueError(f"no rules edition {edition} (known: {', '.join(map(str, EDITIONS))})")
    return edition


def initial_line_count(g: Geometry, edition: int = RULES_EDITION) -> int:
    """RULES I2: 90 lines on the default field, scaled by inner-slot count; from
    edition 2 never more than keep the share of drawn slots of the default field."""
    return _initial_line_count(g.height, g.width, check_edition(edition))


def piece_sizes(g: Geometry, edition: int = RULES_EDITION) -> tuple[int, ...]:
    """RULES T4: the sizes of the pieces each stage 3 inserts, in order; from edition
    2 without the largest ones on small fields."""
    return _piece_sizes(g.height, g.width, check_edition(edition))


@lru_cache(maxsize=128)
def _initial_line_count(height: int, width: int, edition: int) -> int:
    g, default = geometry(height, width), geometry(DEFAULT_HEIGHT, DEFAULT_WIDTH)
    scaled = round(DEFAULT_INITIAL_LINES * len(g.inner_slots) / len(default.inner_slots))
    if edition == 1:
        return scaled
    default_drawn = len(default.wall_slots) + DEFAULT_INITIAL_LINES  # 140 of 313
    same_share = round(default_drawn * len(g.slots) / len(default.slots)) - len(g.wall_slots)
    return max(0, min(scaled, same_share))


@lru_cache(maxsize=128)
def _piece_sizes(height: int, width: int, edition: int) -> tuple[int, ...]:
    if edition == 1:
        return PIECE_SIZES
    room = len(geometry(height, width).inner_slots) / INNER_SLOTS_PER_PIECE_LINE
    sizes: tuple[int, ...] = PIECE_SIZES
    while len(sizes) > 1 and sum(sizes) > room:
        sizes = sizes[1:]
    return sizes
