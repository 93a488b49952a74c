"""Stage-3 random pieces (RULES T4, T8).

A piece of k lines is grown at random inside a 5 × 5 character box (3 × 3
dots), each new line sharing a dot with the piece so far; it is shifted by even
steps to the upper-left; then up to 100 random offsets on the field are tried.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .events import Point

PIECE_BOX = 5
MAX_TRIES = 100

# The 12 line slots of the 5 × 5 box.
BOX_SLOTS: tuple[Point, ...] = tuple(
    (x, y) for y in range(PIECE_BOX) for x in range(PIECE_BOX) if (x + y) % 2 == 1
)


def line_dots(x: int, y: int) -> tuple[Point, Point]:
    """The two dots a line slot joins."""
    if x % 2 == 1:  # horizontal
        return (x - 1, y), (x + 1, y)
    return (x, y - 1), (x, y + 1)


def piece_dots(lines: tuple[Point, ...]) -> set[Point]:
    return {dot for x, y in lines for dot in line_dots(x, y)}


_TOUCHING: dict[tuple[Point, ...], tuple[Point, ...]] = {}


def _touching(lines: tuple[Point, ...]) -> tuple[Point, ...]:
    """The box slots that could be added to `lines` (in BOX_SLOTS order; cached)."""
    found = _TOUCHING.get(lines)
    if found is None:
        dots = piece_dots(lines)
        found = tuple(s for s in BOX_SLOTS if s not in lines and dots.intersection(line_dots(*s)))
        _TOUCHING[lines] = found
    return found


def generate_shape(size: int, rng: random.Random) -> tuple[Point, ...]:
    """A connected piece of `size` lines in the 5 × 5 box, not yet shifted."""
    lines: tuple[Point, ...] = (rng.choice(BOX_SLOTS),)
    while len(lines) < size:
        lines += (rng.choice(_touching(lines)),)
    return tuple(sorted(lines, key=lambda p: (p[1], p[0])))


def shift_upper_left(lines: tuple[Point, ...]) -> tuple[Point, ...]:
    """Move a piece up and left by even steps until it touches the top-left dots."""
    dots = piece_dots(lines)
    dx = min(x for x, _ in dots)
    dy = min(y for _, y in dots)
    return tuple(sorted(((x - dx, y - dy) for x, y in lines), key=lambda p: (p[1], p[0])))


def place_piece(
    shape: tuple[Point, ...],
    height: int,
    width: int,
    is_empty: Callable[[int, int], bool],
    rng: random.Random,
) -> tuple[tuple[Point, ...], int]:
    """Try up to 100 random even offsets; return (lines on the field, tries used).

    The lines are empty when every try failed (the piece is skipped).
    """
    # The offsets are ``rng.randrange(0, width, 2)`` and ``rng.randrange(0, height,
    # 2)``, drawn as 2 * randrange(n): the same numbers from the same draws, cheaper.
    # A shape's lines are at x, y >= 0 (`shift_upper_left`), so only its far edge
    # can leave the field; that is checked before any line is looked at.
    x_offsets, y_offsets = (width + 1) // 2, (height + 1) // 2
    x_room = width - max(x for x, _ in shape)
    y_room = height - max(y for _, y in shape)
    randrange = rng.randrange
    for tries in range(1, MAX_TRIES + 1):
        ox = 2 * randrange(x_offsets)
        oy = 2 * randrange(y_offsets)
        if ox < x_room and oy < y_room and all(is_empty(x + ox, y + oy) for x, y in shape):
            return tuple((x + ox, y + oy) for x, y in shape), tries
    return (), MAX_TRIES


def draw_piece(
    size: int,
    height: int,
    width: int,
    is_empty: Callable[[int, int], bool],
    rng: random.Random,
) -> tuple[tuple[Point, ...], tuple[Point, ...], int]:
    """RULES T4 for one piece: (its shape, its lines on the field, tries used).

    The one piece generator: the rules insert the stage-3 pieces with it, and the
    computer player samples the pieces it expects with it.
    """
    shape = shift_upper_left(generate_shape(size, rng))
    lines, tries = place_piece(shape, height, width, is_empty, rng)
    return shape, lines, tries


def piece_problem(
    size: int,
    shape: tuple[Point, ...],
    lines: tuple[Point, ...],
    tries: int,
    skipped: bool,
) -> str | None:
    """Why a stored piece breaks RULES T4/T8, or None when it could have been drawn.

    Emptiness of the slots is the projection's check; this is about the piece.
    """
    if len(shape) != size or len(set(shape)) != size or not set(shape) <= set(BOX_SLOTS):
        return f"the shape is not {size} lines of the 5 x 5 box"
    if len(piece_dots(shape)) != size + 1:
        return "the shape is not connected"
    if set(shift_upper_left(shape)) != set(shape):
        return "the shape is not shifted to the upper left"
    if skipped:
        return None if not lines and tries == MAX_TRIES else "a skipped piece after other than 100 tries"
    if not 1 <= tries <= MAX_TRIES or len(lines) != size:
        return "a placed piece needs its lines and 1 to 100 tries"
    ox, oy = lines[0][0] - shape[0][0], lines[0][1] - shape[0][1]
    if ox % 2 or oy % 2 or tuple(lines) != tuple((x + ox, y + oy) for x, y in shape):
        return "the lines are not the shape moved by an even offset"
    return None
