"""The stage-3 piece generator draws its numbers with `random.Random.getrandbits` the way
CPython's ``randrange`` and ``choice`` do (RULES I5: a game's random outcomes follow
from its seed). If a Python version draws them differently, these tests fail, rather
than games quietly changing."""

from __future__ import annotations

import random

import pytest

from service.domain import pieces
from service.domain.events import Point

SIZES = list(range(1, 130)) + [255, 256, 257, 1000, 2**16, 2**31 - 1, 2**31, 2**32 - 1, 2**32]


@pytest.mark.parametrize("seed", range(40))
def test_randbelow_is_randrange(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in SIZES * 3:
        assert pieces.randbelow(ours.getrandbits, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(40))
def test_randbelow_is_choice_and_even_randrange(seed):
    ours, theirs = random.Random(f"choice {seed}"), random.Random(f"choice {seed}")
    for n in SIZES[:60] * 3:
        seq = range(n)
        assert seq[pieces.randbelow(ours.getrandbits, n)] == theirs.choice(seq)
        # the offsets of RULES T4: randrange(0, width, 2) is 2 * randrange((width + 1) // 2)
        assert 2 * pieces.randbelow(ours.getrandbits, (n + 1) // 2) == theirs.randrange(0, n, 2)
    assert ours.getstate() == theirs.getstate()


def _reference_shape(size: int, rng: random.Random) -> tuple[Point, ...]:
    """RULES T4/T8 with `random`'s own ``choice``."""
    grown = [rng.choice(pieces.BOX_SLOTS)]
    while len(grown) < size:
        dots = pieces.piece_dots(tuple(grown))
        grown.append(rng.choice([s for s in pieces.BOX_SLOTS if s not in grown
                                 and dots.intersection(pieces.line_dots(*s))]))
    return tuple(sorted(grown, key=lambda p: (p[1], p[0])))


def _reference_place(shape: tuple[Point, ...], height: int, width: int, lines: bytearray,
                     rng: random.Random) -> tuple[tuple[Point, ...], int]:
    """RULES T4's tries with `random`'s own ``randrange``."""
    for tries in range(1, pieces.MAX_TRIES + 1):
        ox, oy = rng.randrange(0, width, 2), rng.randrange(0, height, 2)
        placed = tuple((x + ox, y + oy) for x, y in shape)
        if all(x < width and y < height and not lines[y * width + x] for x, y in placed):
            return placed, tries
    return (), pieces.MAX_TRIES


def _field(meta: random.Random) -> tuple[int, int, bytearray]:
    height, width = meta.choice([(7, 7), (7, 9), (9, 13), (11, 15), (19, 33), (41, 81)])
    fill = meta.random()
    lines = bytearray(meta.choice((1, 2, 3)) if (x + y) % 2 and meta.random() < fill else 0
                      for y in range(height) for x in range(width))
    return height, width, lines


@pytest.mark.parametrize("seed", range(10))
def test_draw_piece_draws_as_randrange_and_choice_would(seed):
    meta = random.Random(seed)
    for _ in range(200):
        height, width, lines = _field(meta)
        size, draws = meta.choice((1, 2, 3)), meta.getrandbits(32)
        ours, theirs = random.Random(draws), random.Random(draws)
        shape, placed, tries = pieces.draw_piece(size, height, width, lines, ours)
        expected = pieces.shift_upper_left(_reference_shape(size, theirs))
        assert shape == expected
        assert (placed, tries) == _reference_place(expected, height, width, lines, theirs)
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("seed", range(5))
def test_a_slot_the_draws_did_not_read_does_not_change_the_piece(seed):
    meta = random.Random(seed)
    for _ in range(40):
        height, width, lines = _field(meta)
        size, draws = meta.choice((1, 2, 3)), meta.getrandbits(32)
        read: set[int] = set()
        drawn = pieces.draw_piece(size, height, width, lines, random.Random(draws), read)
        assert all(y * width + x in read for x, y in drawn[1])
        for slot in range(len(lines)):
            if slot not in read and not lines[slot]:
                other = bytearray(lines)
                other[slot] = 1
                assert pieces.draw_piece(size, height, width, other, random.Random(draws)) == drawn
