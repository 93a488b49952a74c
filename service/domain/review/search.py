"""The best stage 1 from a position: the review's exact search (`least` builds on it).

Unlike the computer's walks (RULES A1), a player's stage 1 may be any sequence of
lines that each form at least one regular square (RULES T1/T2): the first line any
box with three sides, every later one a box next to one of the regular squares the
previous line formed. A line that forms only irregular squares costs 5 and ends the
stage, so it is never part of a best sequence; stopping is always allowed, so the
best is at least 0.

`best_stage1` searches every such sequence depth first. The value of a position
depends only on its lines and on the previous line's regular squares, so positions
reached twice (chains taken in another order) are looked up, not searched again.
The work is bounded by a count of work units (lines drawn; `least_giving` also counts
the slots it tries and the witness lines it draws), never by time, so a review is the
same on any machine; a search that runs out says so (``exact`` False) and keeps the
best it has found. `budget` and `passes` share a whole review's units among them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ..ai.compact import Board, Chain, Tables

STAGE1_NODES = 100_000  # lines drawn by one best-stage-1 search

# One random 64-bit key per cell: a position's key is the XOR over its drawn lines.
_KEYS = random.Random(20261125).getrandbits
_ZOBRIST: list[int] = []


def _zobrist(cells: int) -> list[int]:
    while len(_ZOBRIST) < cells:
        _ZOBRIST.append(_KEYS(64))
    return _ZOBRIST


class Best(NamedTuple):  # (a tuple: made by the thousand, it is made fast)
    """The most points a stage 1 could take from a position, and one way to take them."""

    points: int
    lines: tuple[int, ...]  # slot indices, in the order they are drawn
    exact: bool  # False: the node budget ran out (`points` is a lower bound)
    nodes: int


NOTHING = Best(0, (), True, 0)  # nothing to take: no line forms a square


class _OutOfNodes(Exception):
    pass


class _Enough(Exception):
    pass


def best_stage1(board: Board, chain: Chain = None, nodes: int = STAGE1_NODES,
                enough: int | None = None) -> Best:
    """The best legal stage-1 sequence from `board` (RULES T1/T2), `chain` being the
    previous line's regular squares (None: the stage has formed nothing yet).
    `enough`: stop as soon as a sequence takes that many points (the answer is then
    "at least that", still ``exact``). `board` is left as it was."""
    t = board.t
    cands = (firsts(t, board.lines, board.sides) if chain is None
             else following(t, board.lines, board.sides, chain))
    if not cands:
        return NOTHING
    return search(t, list(board.lines), list(board.sides), chain, nodes, enough, cands)


def search(t: Tables, lines: list[int], sides: list[int], chain: Chain, nodes: int,
           enough: int | None, cands: list[int]) -> Best:
    """`best_stage1` on a board's lines and side counts as lists (lists index faster),
    which it draws on and leaves as they were; `cands`: the lines that form a regular
    square now (`firsts`, `following`)."""
    if not cands:
        return NOTHING
    return _explore(t, lines, sides, chain, nodes, enough, cands)


def _explore(t: Tables, lines: list[int], sides: list[int], chain: Chain, nodes: int,
             enough: int | None, cands: list[int]) -> Best:
    """`search` from a position with something to take."""
    boxes_of, sides_of, around, adjacent = t.boxes_of, t.sides_of, t.around, t.adjacent
    keys = _shifted_keys(len(lines))
    # (points to come, first line) per position: its lines' key, shifted, | its chain's code
    memo: dict[int, tuple[int, int]] = {}
    path: list[int] = []
    # the best points so far along any path, and that path (`note` records them)
    best_points = 0
    best_path: tuple[int, ...] = ()
    count = 0

    def go(here: int, chain: Chain, points: int, cands: list[int]) -> int:
        """The most points still to come from the position `here` (not in the memo),
        whose candidate lines are `cands` (at least one); records the best path
        (`note`). A position without candidates is never memoised: it is worth 0
        whenever it is reached again."""
        nonlocal count
        value, first = 0, -1
        key = here & _LINES
        for s in cands:
            count += 1
            if count > nodes:
                raise _OutOfNodes
            lines[s] = 1
            formed = []
            code = 0  # `_code(formed)`
            for b in boxes_of[s]:
                n = sides[b] + 1
                sides[b] = n
                if n == 4:
                    if chain is None:
                        formed.append(b)
                        code = code << 13 | b + 1
                    else:  # RULES T2: next to a regular square of the last line
                        for c in chain:
                            if b - c in adjacent:
                                formed.append(b)
                                code = code << 13 | b + 1
                                break
            after = points + len(formed)
            path.append(s)
            there = key ^ keys[s] | code
            known = memo.get(there)
            if known is not None:
                if after + known[0] > best_points:
                    note(after + known[0], _follow(Board(t, bytearray(lines), bytearray(sides)),
                                                   memo, keys, there))
                after += known[0]
            else:
                nxt: list[int] = []  # the candidates after `s`
                for c in formed:
                    for nb in around[c]:
                        if sides[nb] == 3:
                            for x in sides_of[nb]:
                                if not lines[x]:
                                    break
                            if x not in nxt:
                                nxt.append(x)
                if nxt:
                    after += go(there, formed, after, nxt)
                elif after > best_points:
                    note(after, ())
            path.pop()
            lines[s] = 0
            for b in boxes_of[s]:
                sides[b] -= 1
            if after - points > value:
                value, first = after - points, s
        memo[here] = (value, first)
        return value

    def note(total: int, rest: tuple[int, ...]) -> None:
        nonlocal best_points, best_path
        best_points, best_path = total, (*path, *rest)
        if enough is not None and total >= enough:
            raise _Enough

    exact = True
    try:
        go(_code(chain), chain, 0, cands)
    except (_OutOfNodes, _Enough) as stop:
        exact = not isinstance(stop, _OutOfNodes)
        for s in path:  # the lines drawn when it stopped
            lines[s] = 0
            for b in boxes_of[s]:
                sides[b] -= 1
    return Best(best_points, best_path, exact, min(count, nodes))


# A position's memo key: the XOR of its lines' keys shifted left by `_SHIFT`, with the
# code of its chain (`_code`) in the low bits: one int, the same as the pair.
_SHIFT = 26
_LINES = ~((1 << _SHIFT) - 1)
_SHIFTED: list[int] = []


def _shifted_keys(cells: int) -> list[int]:
    if len(_SHIFTED) < cells:
        _SHIFTED[:] = [k << _SHIFT for k in _zobrist(cells)]
    return _SHIFTED


def _code(chain: Chain) -> int:
    """A chain (None, or the one or two boxes a line formed) as an int below 2 ** 26:
    13 bits per box, each box + 1 (cells are fewer than 2 ** 13 - 1: 41 x 81 at most)."""
    code = 0
    for b in chain or ():
        code = code << 13 | b + 1
    return code


def firsts(t: Tables, lines: bytearray | list[int], sides: bytearray) -> list[int]:
    """The distinct lines that form a square now (a stage 1's first line), in the order
    of their boxes. `sides` as a bytearray: its three-sided boxes are found by `find`
    (only boxes have sides)."""
    out: list[int] = []
    sides_of = t.sides_of
    find = sides.find
    b = find(3)
    while b >= 0:
        for s in sides_of[b]:
            if not lines[s]:
                if s not in out:
                    out.append(s)
                break
        b = find(3, b + 1)
    return out


def following(t: Tables, lines: bytearray | list[int], sides: bytearray | list[int],
              chain: Sequence[int]) -> list[int]:
    """The distinct lines that form a square next to the `chain` (RULES T2)."""
    out: list[int] = []
    sides_of = t.sides_of
    for b in [nb for c in chain for nb in t.around[c] if sides[nb] == 3]:
        for s in sides_of[b]:
            if not lines[s]:
                if s not in out:
                    out.append(s)
                break
    return out


def _follow(board: Board, memo: dict[int, tuple[int, int]], keys: list[int],
            here: int) -> tuple[int, ...]:
    """Replay the memo's best first lines from the position `here` on `board` (a
    scratch copy)."""
    out: list[int] = []
    adjacent = board.t.adjacent
    while True:
        known = memo.get(here)
        if known is None or known[1] < 0:
            return tuple(out)
        s = known[1]
        formed = board.draw(s)
        chain = here & ~_LINES
        if chain:
            chain_boxes = _decode(chain)
            formed = [b for b in formed if any(b - c in adjacent for c in chain_boxes)]
        here = ((here & _LINES) ^ keys[s]) | _code(formed)
        out.append(s)


def _decode(code: int) -> tuple[int, ...]:
    first, second = code >> 13, code & 8191
    return (second - 1,) if not first else (first - 1, second - 1)
