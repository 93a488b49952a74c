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
PIECE_SIZES = (3, 2, 1)

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


def generate_shape(size: int, rng: random.Random) -> tuple[Point, ...]:
    """A connected piece of `size` lines in the 5 × 5 box, not yet shifted."""
    lines = [rng.choice(BOX_SLOTS)]
    while len(lines) < size:
        dots = piece_dots(tuple(lines))
        touching = [
            s for s in BOX_SLOTS if s not in lines and dots.intersection(line_dots(*s))
        ]
        lines.append(rng.choice(touching))
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
    for tries in range(1, MAX_TRIES + 1):
        ox = rng.randrange(0, width, 2)
        oy = rng.randrange(0, height, 2)
        placed = tuple((x + ox, y + oy) for x, y in shape)
        if all(0 <= x < width and 0 <= y < height and is_empty(x, y) for x, y in placed):
            return placed, tries
    return (), MAX_TRIES
