"""The expert's sampling of the stage-3 pieces (RULES A3, T4): how much the opponent
could take after a candidate stage-2 line and the random pieces, on average over
samples of the pieces drawn with the rules' own generator (`pieces.draw_piece`).
"""

from __future__ import annotations

import random

from .. import pieces
from ..events import Point
from .budget import Budget, Stats
from .compact import Board
from .points import most_points


def sampled(
    board: Board, candidates: list[int], samples: int, rng: random.Random, stats: Stats,
    clock: Budget,
) -> tuple[float, int, int]:
    """(mean opponent best chain, slot, positions simulated) of the best candidate.

    Each sample is a seed; every candidate is judged on the same samples (the
    pieces come from the same draws). Different candidates and samples often end
    on the same board; its figure is searched once and its search counted in
    `stats` each time, as if it had run again. Once the budget is spent the
    candidates not yet judged on every sample are dropped (the first one always
    counts).
    """
    drawn = [_Sample(board, rng.getrandbits(32)) for _ in range(samples)]
    best: tuple[float, int] | None = None
    known: dict[bytes, tuple[int, int, int]] = {}  # lines -> (points, nodes, leaves)
    judged = 0
    for slot in candidates:
        if best is not None and clock.out:
            break
        total = 0
        for sample in drawn:
            key, after = sample.with_line(board, slot)
            found = known.get(key)
            if found is None:  # `stage1.best_points`, on the sample's board plus `slot`
                work = Stats()
                points = most_points(after or sample.after, work, min(2_000, max(clock.left, 8)),
                                     clock=clock, extra=None if after else slot)
                assert points is not None  # its starts are the three-sided boxes
                found = known[key] = (points, work.nodes, work.leaves)
            total += found[0]
            stats.nodes += found[1]
            stats.leaves += found[2]
        judged += 1
        mean = total / samples
        if best is None or mean < best[0]:
            best = (mean, slot)
    assert best is not None
    return best[0], best[1], judged * samples


class _Sample:
    """One sample's stage-3 pieces, drawn once on the board without a candidate line.

    The pieces after a candidate line `slot` are drawn from the same numbers on a
    field with one more line, `slot`. A try that fails here fails there too, and
    the numbers a try draws do not depend on the field; so each piece falls there
    as it fell here, unless it fell on `slot` (by induction over the pieces: the
    fields differ in `slot` only). If none fell on `slot`, the board is this one
    plus `slot`, lines and sides alike. If one did, the pieces before it fell alike,
    the try that placed it fails there, and it is drawn again from the next try on,
    then the pieces after it.
    """

    __slots__ = ("draws", "after", "key", "drawn", "hit")

    def __init__(self, board: Board, seed: int) -> None:
        t = board.t
        self.draws = pieces.Draws(random.Random(seed))
        self.after = after = board.copy()
        self.drawn: list[tuple[tuple[Point, ...], list[int], int, int]] = []
        self.hit: dict[int, int] = {}  # slot -> the piece placed on it
        for k, size in enumerate(board.pieces):
            shape, lines, tries = pieces.draw_piece(size, t.height, t.width, after.lines,
                                                    self.draws)
            slots = _draw(after, lines)
            self.drawn.append((shape, slots, tries, self.draws.at))
            self.hit.update(dict.fromkeys(slots, k))
        self.key = bytes(after.lines)

    def with_line(self, board: Board, slot: int) -> tuple[bytes, Board | None]:
        """The lines after `slot` and this sample's pieces on `board`, and the board
        itself when it had to be drawn (else None: it is `after` plus `slot`)."""
        k = self.hit.get(slot)
        if k is None:
            key = self.key
            return key[:slot] + b"\x01" + key[slot + 1:], None  # Board.draw writes 1
        t = board.t
        after = board.copy()
        after.draw(slot)
        for _, slots, _, _ in self.drawn[:k]:
            for s in slots:
                after.draw(s)
        shape, _, tries, at = self.drawn[k]
        draws = self.draws
        draws.at = at
        _draw(after, pieces.place_piece(shape, t.height, t.width, after.lines, draws,
                                        first=tries + 1)[0])
        for size in board.pieces[k + 1:]:
            _draw(after, pieces.draw_piece(size, t.height, t.width, after.lines, draws)[1])
        return bytes(after.lines), after


def _draw(board: Board, lines: tuple[Point, ...]) -> list[int]:
    """Draw a piece's lines on `board`; their slots."""
    w = board.t.width
    slots = [y * w + x for x, y in lines]
    for s in slots:
        board.draw(s)
    return slots


def insert_pieces(board: Board, rng: random.Random) -> None:
    """RULES T4 on the compact board: the game's pieces (a 3-, 2- and 1-line piece
    but on small fields) drawn with the rules' own generator (`pieces.draw_piece`)."""
    t = board.t
    draws = pieces.Draws(rng)
    for size in board.pieces:
        _draw(board, pieces.draw_piece(size, t.height, t.width, board.lines, draws)[1])
