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
- Edition 3 (a rule choice, see docs/rules.md): edition 2's lines, and then, while no
  box has three sides (nothing the first player could close: their first stage 1 would
  be a press of "Next stage" and nothing else), more lines in a random order of the
  other inner slots, never more in all than edition 1 draws. The default field and
  large ones keep edition 2's start unless it leaves no square to close (unseen on the
  default field); 7 × 9 gets 1 to 6 lines instead of none. So that small games still
  last, a stage 3's pieces have at most one line per 6 inner slots (7 × 9: 1, was
  2 + 1; 9 × 11: 2 + 1, was 3 + 2 + 1).
"""

from __future__ import annotations

import random
from functools import lru_cache

from .board import DEFAULT_HEIGHT, DEFAULT_WIDTH, Geometry, geometry

RULES_EDITION = 3  # what new games are played by
EDITIONS = (1, 2, 3)

PIECE_SIZES = (3, 2, 1)  # RULES T4: the pieces of a stage 3, in this order
# A stage 3's piece lines at most one per so many inner slots (edition 3: fewer, as its
# start draws more on small fields)
INNER_SLOTS_PER_PIECE_LINE = {2: 5, 3: 6}
DEFAULT_INITIAL_LINES = 90  # RULES I2, on the default field


def check_edition(edition: int) -> int:
    if edition not in EDITIONS:
        raise ValueError(f"no rules edition {edition} (known: {', '.join(map(str, EDITIONS))})")
    return edition


def initial_line_count(g: Geometry, edition: int = RULES_EDITION) -> int:
    """RULES I2: 90 lines on the default field, scaled by inner-slot count; from
    edition 2 never more than keep the share of drawn slots of the default field.
    The fewest initial lines of a game: edition 3 may draw more (`most_initial_lines`)."""
    return _initial_line_count(g.height, g.width, check_edition(edition))


def most_initial_lines(g: Geometry, edition: int = RULES_EDITION) -> int:
    """The most initial lines a game of this edition draws: edition 3's draw for a square
    to close stops at edition 1's count."""
    return initial_line_count(g, 1 if check_edition(edition) == 3 else edition)


def draw_initial_lines(g: Geometry, rng: random.Random, edition: int = RULES_EDITION) -> list[int]:
    """The slots of a new game's initial lines (RULES I2), drawn with `rng`: a sample
    of `initial_line_count` inner slots, and in edition 3, while no box has three sides
    drawn, one more from a random order of the others, up to `most_initial_lines`."""
    chosen = rng.sample(g.inner_slots, initial_line_count(g, edition))
    if check_edition(edition) < 3:
        return chosen
    taken = set(chosen)
    rest = [s for s in g.inner_slots if s not in taken]
    more = rng.sample(rest, most_initial_lines(g, edition) - len(chosen))
    sides = {b: 0 for b in g.boxes}
    for s in (*g.wall_slots, *chosen):
        for b in g.boxes_of_slot[s]:
            sides[b] += 1
    for s in more:
        if 3 in sides.values():
            break
        chosen.append(s)
        for b in g.boxes_of_slot[s]:
            sides[b] += 1
    return chosen


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
    room = len(geometry(height, width).inner_slots) / INNER_SLOTS_PER_PIECE_LINE[edition]
    sizes: tuple[int, ...] = PIECE_SIZES
    while len(sizes) > 1 and sum(sizes) > room:
        sizes = sizes[1:]
    return sizes
