"""Stage-3 random pieces (RULES T4, T8).

A piece of k lines is grown at random inside a 5 × 5 character box (3 × 3
dots), each new line sharing a dot with the piece so far; it is shifted by even
steps to the upper-left; then up to 100 random offsets on the field are tried.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import lru_cache

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


def randbelow(getrandbits: Callable[[int], int], n: int) -> int:
    """``random.Random.randrange(n)`` (n > 0) from the generator's `getrandbits`, as
    CPython 3.11+ draws it (``_randbelow_with_getrandbits``): the same number and the
    same generator state afterwards, without randrange's checks and calls
    (tests/unit/test_pieces_random.py holds it to ``randrange`` and ``choice``)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _grow(size: int, getrandbits: Callable[[int], int]) -> tuple[Point, ...]:
    """The lines of a new piece in the order drawn: each touches the ones before."""
    lines: tuple[Point, ...] = (BOX_SLOTS[randbelow(getrandbits, len(BOX_SLOTS))],)
    while len(lines) < size:
        touching = _touching(lines)
        lines += (touching[randbelow(getrandbits, len(touching))],)
    return lines


def _in_order(lines: tuple[Point, ...]) -> tuple[Point, ...]:
    return tuple(sorted(lines, key=lambda p: (p[1], p[0])))


def generate_shape(size: int, rng: random.Random) -> tuple[Point, ...]:
    """A connected piece of `size` lines in the 5 × 5 box, not yet shifted."""
    return _in_order(_grow(size, rng.getrandbits))


def shift_upper_left(lines: tuple[Point, ...]) -> tuple[Point, ...]:
    """Move a piece up and left by even steps until it touches the top-left dots."""
    dots = piece_dots(lines)
    dx = min(x for x, _ in dots)
    dy = min(y for _, y in dots)
    return tuple(sorted(((x - dx, y - dy) for x, y in lines), key=lambda p: (p[1], p[0])))


@lru_cache(maxsize=4096)  # the pieces grown are few: at most 3 of 12 slots
def _shape(grown: tuple[Point, ...]) -> tuple[Point, ...]:
    return shift_upper_left(_in_order(grown))


@lru_cache(maxsize=4096)
def _layout(shape: tuple[Point, ...], height: int, width: int) -> tuple[tuple[int, ...], int, int]:
    """A shifted shape on a field: its lines' flat indices at offset (0, 0), and how
    many of the even x and y offsets keep it inside the field (the first ones: a
    shape's lines are at x, y >= 0, so only its far edge can leave the field)."""
    flat = tuple(y * width + x for x, y in shape)
    x_room = width - max(x for x, _ in shape)
    y_room = height - max(y for _, y in shape)
    return flat, (x_room + 1) // 2, (y_room + 1) // 2


def place_piece(
    shape: tuple[Point, ...],
    height: int,
    width: int,
    lines: Sequence[int],
    rng: random.Random,
    read: set[int] | None = None,
) -> tuple[tuple[Point, ...], int]:
    """Try up to 100 random even offsets; return (lines on the field, tries used).

    `lines`: the field's line slots, flat (``y * width + x``), 0 where empty (the
    projection's ``lines``, the AI's ``Board.lines``). The lines returned are empty
    when every try failed (the piece is skipped). `read`, when given, collects every
    slot whose emptiness was looked at: on a field that differs only in other slots
    the same draws place the piece alike.
    """
    # The offsets are ``rng.randrange(0, width, 2)`` and ``rng.randrange(0, height,
    # 2)``, i.e. 2 * randrange(n): `randbelow` written out here, the AI's hottest loop.
    flat, x_fits, y_fits = _layout(shape, height, width)
    nx, ny = (width + 1) // 2, (height + 1) // 2
    kx, ky = nx.bit_length(), ny.bit_length()
    getrandbits = rng.getrandbits
    for tries in range(1, MAX_TRIES + 1):
        hx = getrandbits(kx)
        while hx >= nx:
            hx = getrandbits(kx)
        hy = getrandbits(ky)
        while hy >= ny:
            hy = getrandbits(ky)
        if hx < x_fits and hy < y_fits:
            base = 2 * (hy * width + hx)
            if read is None:
                for s in flat:
                    if lines[base + s]:
                        break
                else:
                    return _moved(shape, 2 * hx, 2 * hy), tries
            else:
                for s in flat:
                    read.add(base + s)
                    if lines[base + s]:
                        break
                else:
                    return _moved(shape, 2 * hx, 2 * hy), tries
    return (), MAX_TRIES


def _moved(shape: tuple[Point, ...], ox: int, oy: int) -> tuple[Point, ...]:
    return tuple((x + ox, y + oy) for x, y in shape)


def draw_piece(
    size: int,
    height: int,
    width: int,
    lines: Sequence[int],
    rng: random.Random,
    read: set[int] | None = None,
) -> tuple[tuple[Point, ...], tuple[Point, ...], int]:
    """RULES T4 for one piece: (its shape, its lines on the field, tries used).

    The one piece generator: the rules insert the stage-3 pieces with it, and the
    computer player samples the pieces it expects with it (`place_piece` for
    `lines` and `read`).
    """
    shape = _shape(_grow(size, rng.getrandbits))
    placed, tries = place_piece(shape, height, width, lines, rng, read)
    return shape, placed, tries


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
