"""The stage-3 piece generator draws its numbers with `random.Random.getrandbits` the way
CPython's ``randrange`` and ``choice`` do (RULES I5: a game's random outcomes follow
from its seed). If a Python version draws them differently, these tests fail, rather
than games quietly changing."""

from __future__ import annotations

import random

import pytest

from service.domain import pieces
from service.domain.events import Point

SIZES = range(1, 256)  # `Draws.below`'s: the pieces' numbers are below 42


@pytest.mark.parametrize("seed", range(20))
def test_draws_are_randrange(seed):
    ours, theirs = pieces.Draws(random.Random(seed)), random.Random(seed)
    for n in list(SIZES) * 3:
        assert ours.below(n) == theirs.randrange(n)


@pytest.mark.parametrize("seed", range(20))
def test_draws_are_choice_and_even_randrange(seed):
    ours, theirs = pieces.Draws(random.Random(f"choice {seed}")), random.Random(f"choice {seed}")
    for n in list(SIZES) * 2:
        seq = range(n)
        assert seq[ours.below(n)] == theirs.choice(seq)
        # the offsets of RULES T4: randrange(0, width, 2) is 2 * randrange((width + 1) // 2)
        assert 2 * ours.below((n + 1) // 2) == theirs.randrange(0, n, 2)


def test_draws_can_be_drawn_again_from_any_point():
    draws = pieces.Draws(random.Random(7))
    first = [draws.below(n) for n in list(SIZES) * 4]  # several takes of words
    assert len(draws.tops) > 4 * pieces.Draws.BATCH
    draws.at = 0
    assert [draws.below(n) for n in list(SIZES) * 4] == first
    with pytest.raises(ValueError):
        draws.below(256)


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
    skipped = late = 0
    for _ in range(200):
        height, width, lines = _field(meta)
        size, draws = meta.choice((1, 2, 3)), meta.getrandbits(32)
        ours, theirs = pieces.Draws(random.Random(draws)), random.Random(draws)
        shape, placed, tries = pieces.draw_piece(size, height, width, lines, ours)
        expected = pieces.shift_upper_left(_reference_shape(size, theirs))
        assert shape == expected
        assert (placed, tries) == _reference_place(expected, height, width, lines, theirs)
        assert ours.below(255) == theirs.randrange(255)  # the draws go on alike
        skipped += not placed
        late += tries > pieces.LOOK_AROUND + 1 and bool(placed)
    # also pieces that fit nowhere (their last tries drawn without looking at the
    # field) and pieces placed after the look around the field
    assert skipped > 20 and late > 5


@pytest.mark.parametrize("seed", range(5))
def test_on_a_field_with_more_lines_a_piece_falls_alike_or_from_the_next_try(seed):
    """What the AI's sampling relies on (`sampling._Sample`): with more lines drawn, a
    piece falls where it fell unless one of its lines is drawn; then the try that
    placed it fails, and it falls as drawn from the next try on."""
    meta = random.Random(seed)
    for _ in range(300):
        height, width, lines = _field(meta)
        size, seed_ = meta.choice((1, 2, 3)), meta.getrandbits(32)
        draws = pieces.Draws(random.Random(seed_))
        shape, placed, tries = pieces.draw_piece(size, height, width, lines, draws)
        more = bytearray(lines)
        extra = meta.sample([i for i in range(len(lines)) if not lines[i]],
                            min(meta.randint(1, 3), lines.count(0)))
        if placed and meta.random() < 0.5:
            x, y = meta.choice(placed)
            extra.append(y * width + x)
        for slot in extra:
            more[slot] = 1
        again = pieces.Draws(random.Random(seed_))
        drawn = pieces.draw_piece(size, height, width, more, again)
        if not any(more[y * width + x] for x, y in placed):
            assert drawn == (shape, placed, tries) and again.at == draws.at
            continue
        resumed = pieces.Draws(random.Random(seed_))
        resumed.at = draws.at
        assert (shape, *pieces.place_piece(shape, height, width, more, resumed,
                                           first=tries + 1)) == drawn
        assert resumed.at == again.at
