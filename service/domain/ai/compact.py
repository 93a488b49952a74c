"""The AI's compact copy of the board (RULES A4): flat arrays and lookup tables.

The projection already keeps ``lines`` and ``sides`` in ``bytearray``s indexed by
``y * W + x``; the AI copies those two arrays and simulates on them. `Tables`
turns the `Geometry` dicts into lists indexed by cell, which are faster to read
in the inner loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from ..board import geometry
from ..random_lines import PIECE_SIZES
from ..state import GameState

# The box indices of the previous line's regular squares (a tuple, or the searches'
# list of what a line just formed); None before a stage 1's first square.
Chain = Sequence[int] | None


@dataclass(frozen=True)
class Tables:
    width: int
    height: int
    boxes: tuple[int, ...]
    slots: tuple[int, ...]
    sides_of: list[tuple[int, ...]]  # cell -> the box's four side slots (empty if no box)
    boxes_of: list[tuple[int, ...]]  # cell -> the boxes a slot borders (empty if no slot)
    nbrs: list[tuple[tuple[int, int], ...]]  # cell -> ((direction, neighbour box), ...)
    adjacent: frozenset[int]  # index differences of 4-neighbouring boxes
    box_sides: Callable[[Sequence[int]], tuple[int, ...]]  # sides -> every box's count, in order
    edges: list[tuple[tuple[int, int], ...]]  # box -> ((side slot, box across it or -1), ...)
    around: list[tuple[int, ...]]  # box -> its neighbour boxes (in `nbrs` order)
    reach: list[tuple[int, ...]]  # slot -> the boxes it borders and their neighbours


@lru_cache(maxsize=16)
def tables(height: int, width: int) -> Tables:
    g = geometry(height, width)
    sides_of: list[tuple[int, ...]] = [()] * g.cells
    boxes_of: list[tuple[int, ...]] = [()] * g.cells
    nbrs: list[tuple[tuple[int, int], ...]] = [()] * g.cells
    for b in g.boxes:
        sides_of[b] = g.sides_of_box[b]
        nbrs[b] = g.neighbours[b]
    for s in g.slots:
        boxes_of[s] = g.boxes_of_slot[s]
    edges: list[tuple[tuple[int, int], ...]] = [()] * g.cells
    around: list[tuple[int, ...]] = [()] * g.cells
    for b in g.boxes:
        edges[b] = tuple((s, next((o for o in boxes_of[s] if o != b), -1)) for s in sides_of[b])
        around[b] = tuple(nb for _, nb in nbrs[b])
    return Tables(
        width=width,
        height=height,
        boxes=g.boxes,
        slots=g.slots,
        sides_of=sides_of,
        boxes_of=boxes_of,
        nbrs=nbrs,
        adjacent=frozenset((2, -2, 2 * width, -2 * width)),
        box_sides=itemgetter(*g.boxes),  # a field has at least 9 boxes: always a tuple
        edges=edges,
        around=around,
        reach=[tuple(sorted({c for b in near for c in (b, *around[b])})) for near in boxes_of],
    )


class Board:
    """Drawn slots and side counts of one position, with draw/undo."""

    __slots__ = ("t", "lines", "sides", "pieces")

    def __init__(self, t: Tables, lines: bytearray, sides: bytearray,
                 pieces: tuple[int, ...] = PIECE_SIZES) -> None:
        self.t = t
        self.lines = lines
        self.sides = sides
        self.pieces = pieces  # the sizes of a stage 3's pieces (`random_lines`)

    @classmethod
    def of(cls, state: GameState) -> Board:
        return cls(tables(state.height, state.width), bytearray(state.lines),
                   bytearray(state.sides), state.piece_sizes)

    def copy(self) -> Board:
        return Board(self.t, bytearray(self.lines), bytearray(self.sides), self.pieces)

    def missing(self, box: int) -> int:
        """The first empty side of `box` (its only one when it has three sides)."""
        lines = self.lines
        for s in self.t.sides_of[box]:
            if not lines[s]:
                return s
        raise ValueError(f"box {box} is already formed")

    def draw(self, slot: int) -> list[int]:
        """Draw `slot`; return the boxes it formed."""
        self.lines[slot] = 1
        sides = self.sides
        formed = []
        for b in self.t.boxes_of[slot]:
            sides[b] += 1
            if sides[b] == 4:
                formed.append(b)
        return formed

    def undo(self, slot: int) -> None:
        self.lines[slot] = 0
        sides = self.sides
        for b in self.t.boxes_of[slot]:
            sides[b] -= 1

    def three_sided(self) -> list[int]:
        sides = self.sides
        return [b for b in self.t.boxes if sides[b] == 3]

    def empty_slots(self) -> list[int]:
        lines = self.lines
        return [s for s in self.t.slots if not lines[s]]

    def xy(self, cell: int) -> tuple[int, int]:
        y, x = divmod(cell, self.t.width)
        return x, y


def regular(formed: list[int], chain: Chain, adjacent: frozenset[int]) -> list[int]:
    """RULES T2 on box indices; `test_ai_simulation` checks it against `rules.regular_squares`."""
    if chain is None:
        return formed
    return [b for b in formed if any(b - c in adjacent for c in chain)]


def starts(board: Board, chain: Chain) -> list[int]:
    """Boxes one line forms as a regular square: every 3-sided box before the first
    square of a stage 1, else the 3-sided neighbours of the chain."""
    if chain is None:
        return board.three_sided()
    sides = board.sides
    found = []
    for c in chain:
        for _, nb in board.t.nbrs[c]:
            if sides[nb] == 3 and nb not in found:
                found.append(nb)
    return found


def chain_of(state: GameState) -> Chain:
    if state.chain is None:
        return None
    w = state.width
    return tuple(y * w + x for x, y in state.chain)
