"""The expert's sampling of the stage-3 pieces (RULES A3, T4): how much the opponent
could take after a candidate stage-2 line and the random pieces, on average over
samples of the pieces drawn with the rules' own generator (`pieces.draw_piece`).
"""

from __future__ import annotations

import random

from .. import pieces
from .budget import Budget
from .compact import Board
from .stage1 import Stats, best_points


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
            if found is None:
                work = Stats()
                found = known[key] = (
                    best_points(after or sample.plus(slot), work,
                                budget=min(2_000, max(clock.left, 8)), clock=clock),
                    work.nodes, work.leaves)
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

    The pieces on the board with a line `slot` are drawn from the same seed; the
    draws only depend on the board through the slots whose emptiness they read.
    If `slot` is not among the slots read here, every read finds the same on both
    boards (by induction over the reads: the pieces placed so far are equal, and
    none of them is `slot`, since every slot placed was read), so the same draws
    place the same pieces: the board is this one plus `slot` (lines and sides alike,
    whatever the order they were drawn in).
    """

    __slots__ = ("seed", "after", "key", "read")

    def __init__(self, board: Board, seed: int) -> None:
        self.seed = seed
        self.read: set[int] = set()
        self.after = board.copy()
        insert_pieces(self.after, random.Random(seed), self.read)
        self.key = bytes(self.after.lines)

    def with_line(self, board: Board, slot: int) -> tuple[bytes, Board | None]:
        """The lines after `slot` and this sample's pieces on `board`, and the board
        itself when it had to be simulated (else None: `plus` makes it)."""
        if slot in self.read:
            after = board.copy()
            after.draw(slot)
            insert_pieces(after, random.Random(self.seed))
            return bytes(after.lines), after
        key = self.key
        return key[:slot] + b"\x01" + key[slot + 1:], None  # Board.draw writes 1

    def plus(self, slot: int) -> Board:
        after = self.after.copy()
        after.draw(slot)
        return after


def insert_pieces(board: Board, rng: random.Random, read: set[int] | None = None) -> None:
    """RULES T4 on the compact board: the game's pieces (a 3-, 2- and 1-line piece
    but on small fields) drawn with the rules' own generator (`pieces.draw_piece`);
    `read` collects the slots whose emptiness the draws looked at."""
    t = board.t
    w = t.width
    for size in board.pieces:
        _, placed, _ = pieces.draw_piece(size, t.height, w, board.lines, rng, read)
        for x, y in placed:
            board.draw(y * w + x)
