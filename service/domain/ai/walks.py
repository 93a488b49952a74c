"""RULES A1's random walks (easy, moderate and hard; the expert's fallback).

From a box one line forms, a walk draws that line, then repeatedly picks at
random one of the directions whose neighbour box can now be formed with one line
(from the box it aimed at, never from a second box the same line formed), until
none is left. `random_search` keeps the best of n walks per start.

Budget (`budget.Budget`): `random_search` walks every start once, then the
forked starts' other walks, until the units are spent, keeping the best walk
found.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import repeat

from .budget import Budget, Stats
from .compact import Board, Chain, starts
from .stage1 import NO_PATH, Path, Search


def walk(board: Board, start: int, chain: Chain, rng: random.Random) -> tuple[Path, bool]:
    """One A1 walk from `start`; also whether it met a fork (a random choice).

    The walk draws on `board` itself and undoes its lines before returning.
    """
    points, slots, directions, forked = _walk(board, start, chain, rng)
    return Path(points, start, tuple(directions), tuple(slots)), forked


def _walk(board: Board, start: int, chain: Chain,
          rng: random.Random) -> tuple[int, list[int], list[int], bool]:
    """`walk`'s points, slots, directions and fork, without building its `Path`."""
    t = board.t
    lines, sides = board.lines, board.sides
    sides_of, boxes_of, nbrs, adjacent = t.sides_of, t.boxes_of, t.nbrs, t.adjacent
    getrandbits = rng.getrandbits
    target = start
    points = 0
    slots: list[int] = []
    directions: list[int] = []
    forked = False
    try:
        while True:
            for s in sides_of[target]:
                if not lines[s]:
                    break
            lines[s] = 1
            slots.append(s)
            formed = []
            for b in boxes_of[s]:
                count = sides[b] + 1
                sides[b] = count
                if count == 4:
                    if chain is None:
                        formed.append(b)
                        continue
                    for c in chain:  # RULES T2: regular next to the previous line's
                        if b - c in adjacent:
                            formed.append(b)
                            break
            points += len(formed)
            chain = formed
            # RULES A1: the walk steps from the box it aimed at, never from a
            # second box the same line formed (that one only scores).
            options = []
            for option in nbrs[target]:
                if sides[option[1]] == 3:
                    options.append(option)
            if not options:
                return points, slots, directions, forked
            if len(options) == 1:
                d, target = options[0]
            else:
                forked = True
                # rng.randrange(n) as CPython draws it (getrandbits until below n)
                n = len(options)
                k = n.bit_length()
                r = getrandbits(k)
                while r >= n:
                    r = getrandbits(k)
                d, target = options[r]
            directions.append(d)
    finally:
        for s in slots:
            lines[s] = 0
            for b in boxes_of[s]:
                sides[b] -= 1


def random_search(board: Board, chain: Chain, n: int, rng: random.Random, stats: Stats,
                  budget: Budget | None = None) -> Search:
    """A1: `n` walks from every start; the best path (ties: the first found).

    A walk that meets no fork is the only walk its start has, so the other n - 1
    trials of that start would repeat it exactly; they are counted, not re-run.

    Budget: every start is walked once first (in order), then the starts that
    forked get their other n - 1 walks, start by start. Each walk costs its lines
    plus one unit; when `budget` is spent the search stops and keeps the best path
    found so far (``complete`` is then False).
    """
    found = starts(board, chain)
    forked: list[int] = []

    def order() -> Iterator[int]:
        yield from found  # every start once first
        for b in forked:  # then the forked starts' other walks
            yield from repeat(b, n - 1)

    best = NO_PATH
    for i, b in enumerate(order()):
        if budget is not None and budget.out:
            return Search(best, len(found), len(found) * n, False)
        points, slots, directions, forks = _walk(board, b, chain, rng)
        stats.walks += 1
        if budget is not None:
            budget.spend(len(slots) + 1)
        if points > best.points:
            best = Path(points, b, tuple(directions), tuple(slots))
        if forks and i < len(found):
            forked.append(b)
    return Search(best, len(found), len(found) * n, True)
