"""Stage-3 random pieces (RULES T4, T8).

A piece of k lines is grown at random inside a 5 × 5 character box (3 × 3
dots), each new line sharing a dot with the piece so far; it is shifted by even
steps to the upper-left; then up to 100 random offsets on the field are tried.
The numbers are those of ``random.Random``'s ``choice`` and ``randrange``, drawn
through `Draws` (so that the AI can draw a piece again from any try).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
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


class Draws:
    """A `random.Random`'s numbers for the pieces, kept so that they can be drawn
    again from any point (`at`, the next word to use).

    CPython draws ``randrange(n)`` and ``choice`` by ``getrandbits(k)`` with
    ``k = n.bit_length()``, again until the number is below n; and for k <= 32,
    ``getrandbits(k)`` is the top k bits of the generator's next 32-bit word. The
    pieces' numbers are below 256 (k <= 8), so each draw is the top byte of one word
    of a single stream: `tops` keeps them, taken from ``getrandbits(32 * count)``,
    which holds `count` words least significant first. The numbers are those
    ``randrange`` and ``choice`` would give (tests/unit/test_pieces_random.py); the
    generator itself may end further on, as nothing draws from it afterwards.
    """

    __slots__ = ("_getrandbits", "tops", "at")

    BATCH = 64

    def __init__(self, rng: random.Random) -> None:
        self._getrandbits = rng.getrandbits
        self.tops = b""
        self.at = 0

    def more(self) -> None:
        """Take more words from the generator: as many as so far, at least `BATCH`."""
        count = max(self.BATCH, len(self.tops))
        if count > 1 << 20:
            raise RuntimeError("the pieces drew a million numbers: a bug")
        self.tops += self._getrandbits(32 * count).to_bytes(4 * count, "little")[3::4]

    def below(self, n: int) -> int:
        """``randrange(n)``, also ``choice``'s index, for 0 < n < 256."""
        if not 0 < n < 256:
            raise ValueError(f"Draws.below({n}): only 0 < n < 256")
        shift = 8 - n.bit_length()
        while True:
            if self.at == len(self.tops):
                self.more()
            r = self.tops[self.at] >> shift
            self.at += 1
            if r < n:
                return r


def _grow(size: int, draws: Draws) -> tuple[Point, ...]:
    """The lines of a new piece in the order drawn: each touches the ones before."""
    lines: tuple[Point, ...] = (BOX_SLOTS[draws.below(len(BOX_SLOTS))],)
    while len(lines) < size:
        touching = _touching(lines)
        lines += (touching[draws.below(len(touching))],)
    return lines


def _in_order(lines: tuple[Point, ...]) -> tuple[Point, ...]:
    return tuple(sorted(lines, key=lambda p: (p[1], p[0])))


def generate_shape(size: int, draws: Draws) -> tuple[Point, ...]:
    """A connected piece of `size` lines in the 5 × 5 box, not yet shifted."""
    return _in_order(_grow(size, draws))


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
    draws: Draws,
    first: int = 1,
) -> tuple[tuple[Point, ...], int]:
    """Try up to 100 random even offsets; return (lines on the field, tries used).

    `lines`: the field's line slots, flat (``y * width + x``), 0 where empty (the
    projection's ``lines``, the AI's ``Board.lines``). The lines returned are empty
    when every try failed (the piece is skipped). `first`: the number of the first
    try (the tries before it were drawn already: the AI draws a piece again from
    the try after one that fails on its field).
    """
    while True:
        try:
            return _place(shape, height, width, lines, draws, first)
        except IndexError:  # a try drew over MOST_PER_TRY numbers (p < 1e-9): again
            draws.more()


LOOK_AROUND = 10  # failed tries after which a piece checks that it fits anywhere
MOST_PER_TRY = 40  # numbers a try may draw before `place_piece` starts it again


def _place(shape: tuple[Point, ...], height: int, width: int, lines: Sequence[int],
           draws: Draws, first: int) -> tuple[tuple[Point, ...], int]:
    # The offsets are ``randrange(0, width, 2)`` and ``randrange(0, height, 2)``,
    # i.e. 2 * randrange(n): `Draws.below` written out, the AI's hottest loop.
    flat, x_fits, y_fits = _layout(shape, height, width)
    nx, ny = (width + 1) // 2, (height + 1) // 2
    sx, sy = 8 - nx.bit_length(), 8 - ny.bit_length()
    tops, at = draws.tops, draws.at
    limit = len(tops) - MOST_PER_TRY
    for tries in range(first, MAX_TRIES + 1):
        if at > limit:
            draws.more()
            tops = draws.tops
            limit = len(tops) - MOST_PER_TRY
        hx = tops[at] >> sx
        at += 1
        while hx >= nx:
            hx = tops[at] >> sx
            at += 1
        hy = tops[at] >> sy
        at += 1
        while hy >= ny:
            hy = tops[at] >> sy
            at += 1
        if hx < x_fits and hy < y_fits:
            base = 2 * (hy * width + hx)
            for s in flat:
                if lines[base + s]:
                    break
            else:
                draws.at = at
                return _moved(shape, 2 * hx, 2 * hy), tries
        if tries == first + LOOK_AROUND and not _fits(flat, x_fits, y_fits, width, lines):
            # every try left fails, whatever it draws: only draw them
            if tries < MAX_TRIES:
                pattern = _tries(nx, ny, MAX_TRIES - tries)
                while (found := pattern.match(tops, at)) is None:
                    draws.more()
                    tops = draws.tops
                at = found.end()
            break
    draws.at = at
    return (), MAX_TRIES


@lru_cache(maxsize=1024)
def _tries(nx: int, ny: int, count: int) -> re.Pattern[bytes]:
    """`count` tries' numbers in `Draws.tops`: each an x offset (numbers until one
    below nx, in its top bits) and then a y offset (likewise below ny)."""
    def one(n: int) -> bytes:
        top = n << (8 - n.bit_length())  # the first top byte that is drawn again
        return b"[%s-\\xff]*[\\x00-%s]" % (re.escape(bytes([top])), re.escape(bytes([top - 1])))
    return re.compile(b"(?:%s%s){%d}" % (one(nx), one(ny), count))


def _fits(flat: tuple[int, ...], x_fits: int, y_fits: int, width: int,
          lines: Sequence[int]) -> bool:
    """Whether some offset inside the field finds all the shape's slots empty."""
    for hy in range(y_fits):
        for hx in range(x_fits):
            base = 2 * (hy * width + hx)
            for s in flat:
                if lines[base + s]:
                    break
            else:
                return True
    return False


def _moved(shape: tuple[Point, ...], ox: int, oy: int) -> tuple[Point, ...]:
    return tuple((x + ox, y + oy) for x, y in shape)


def draw_piece(
    size: int,
    height: int,
    width: int,
    lines: Sequence[int],
    draws: Draws,
) -> tuple[tuple[Point, ...], tuple[Point, ...], int]:
    """RULES T4 for one piece: (its shape, its lines on the field, tries used).

    The one piece generator: the rules insert the stage-3 pieces with it, and the
    computer player samples the pieces it expects with it.
    """
    shape = _shape(_grow(size, draws))
    placed, tries = place_piece(shape, height, width, lines, draws)
    return shape, placed, tries
