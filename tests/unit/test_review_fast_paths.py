"""The review's speed-ups must not change a single result: its searches against the
plain code they replace (`review_plain`), on random boards and on the positions the
reviews of whole games search, also when a budget or ``enough`` stops them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from service.domain.ai.compact import Board, Chain, tables
from service.domain.review.game import _gather
from service.domain.review.least import least_giving
from service.domain.review.search import best_stage1
from squares_testing.crafted import nobody_takes
from squares_testing.greedy import Greedy
from squares_testing.play import own_level, play_out

from .review_plain import plain_best_stage1, plain_least_giving
from .test_review_golden import _cvc

SIZES = ((7, 7), (7, 9), (9, 13), (9, 13), (11, 15), (19, 33))


def _random_boards(meta: random.Random, count: int,
                   sizes: tuple[tuple[int, int], ...] = SIZES) -> Iterator[Board]:
    for _ in range(count):
        height, width = meta.choice(sizes)
        t = tables(height, width)
        board = Board(t, bytearray(height * width), bytearray(height * width))
        fill = meta.uniform(0.3, 0.9)
        for s in t.slots:
            if meta.random() < fill:
                board.draw(s)
        yield board


@cache
def _game_positions() -> tuple[tuple[Board, int | None], ...]:
    """The positions reviews search: each turn's start, and the position before its
    stage-2 line with that line."""
    return tuple(_positions())


def _positions() -> Iterator[tuple[Board, int | None]]:
    greedy = Greedy()
    games = [play_out(_cvc(seed, size, "easy", level, 2),
                      lambda state: greedy if state.turn == 1 else own_level(state))[0]
             for seed, size, level in ((1, (9, 13), "easy"), (2, (11, 15), "moderate"),
                                       (3, (19, 33), "easy"))]
    games.append(nobody_takes(11, 15, "threes"))
    for events in games:
        turns, final = _gather(events)
        for t in turns:
            yield t.start, None
            if t.before_stage2 is not None and t.stage2_slot is not None:
                yield t.before_stage2, t.stage2_slot
        yield final, None


def _chain(meta: random.Random, board: Board) -> tuple[Chain, list[int]]:
    """A stage 1 in its middle: a line that forms a square drawn on `board` (the slots
    drawn, to undo), the boxes it formed as the chain; or no chain."""
    three = board.three_sided()
    if not three or meta.random() < 0.4:
        return None, []
    s = board.missing(meta.choice(three))
    return tuple(board.draw(s)), [s]


def _same_best(board: Board, chain: Chain, nodes: int, enough: int | None) -> bool:
    before = bytes(board.lines), bytes(board.sides)
    expected = plain_best_stage1(board, chain, nodes, enough)
    found = best_stage1(board, chain, nodes, enough)
    assert (bytes(board.lines), bytes(board.sides)) == before
    assert found == expected, (chain, nodes, enough)
    return not found.exact


def test_best_stage1_is_the_plain_search() -> None:
    meta = random.Random("best stage 1")
    stopped = 0
    boards = [*_random_boards(meta, 300), *(b for b, _ in _game_positions())]
    for board in boards:
        chain, drawn = _chain(meta, board)
        full = plain_best_stage1(board, chain, 20_000)
        runs = [(20_000, None), (meta.choice([1, 3, 10, 50]), None),
                (max(1, full.nodes // 2), None), (20_000, meta.randint(1, full.points + 1))]
        for nodes, enough in runs:
            stopped += _same_best(board, chain, nodes, enough)
        for s in drawn:
            board.undo(s)
    assert stopped > 100


def test_least_giving_is_the_plain_search() -> None:
    meta = random.Random("least giving")
    stopped = 0
    cases: list[tuple[Board, int | None]] = [
        (b, None) for b in _random_boards(meta, 100, SIZES[:-1])]
    cases += list(_game_positions())
    for board, played in cases:
        empty = board.empty_slots()
        if not empty:
            continue
        if played is None:
            played = meta.choice(empty)
        board.draw(played)
        gives = plain_best_stage1(board, None, 5_000)
        board.undo(played)
        before = bytes(board.lines), bytes(board.sides)
        full = plain_least_giving(board, played, gives, 20_000)
        for nodes in {20_000, max(1, full.nodes // 3), max(1, full.nodes - 1),
                      meta.randint(1, 40)}:
            expected = full if nodes == 20_000 else plain_least_giving(board, played, gives, nodes)
            found = least_giving(board, played, gives, nodes)
            assert (bytes(board.lines), bytes(board.sides)) == before
            assert found == expected, (played, nodes)
            stopped += not found.exact
    assert stopped > 50
