"""The most a player could score in a fresh stage 1: `stage1.exhaustive`'s search,
counting points only (the expert's stage 2 runs it for every sampled position).

It visits the same paths in the same order, prunes by the same bound and stops at
the same budget or `enough`, so the points, the lines drawn (nodes) and the paths
completed (leaves) are those of ``exhaustive(board, None, ...)`` with the same
arguments (tests/unit/test_fast_paths.py compares them); the budget's units too.
What it leaves out is the paths' bookkeeping (slots, directions, ties, `touched`),
and it leans on what holds when every start has three sides:

- a target always has three sides (starts do; a next target is a neighbour with
  three), so its missing side forms it: it loses its third side from the bound;
- the target is always regular (RULES T2): it is a neighbour of the previous
  target, which was regular. Only the box across the line, when that one forms
  too, needs the check: it is regular on the first line, and later when it is a
  neighbour of the previous line's second regular box (two neighbours of one box
  are never neighbours of each other).
"""

from __future__ import annotations

from itertools import compress

from .budget import Budget, Stats
from .compact import Board

START = -2  # `came` on the first line: the box across it scores as it forms
NONE = -1  # `came`: the previous line formed no second regular box
# How n2 + 2 * n3 (`exhaustive`'s bound) changes when a box with so many sides gets one
# more: 0 -> 1 none, 1 -> 2 one more two-sided, 2 -> 3 one two-sided box less and one
# three-sided more, 3 -> 4 one three-sided less.
BOUND_CHANGE = (0, 1, 1, -2)


class _Stop(Exception):
    pass


def most_points(board: Board, stats: Stats, budget: int, enough: int | None = None,
                only: list[int] | None = None, clock: Budget | None = None,
                extra: int | None = None) -> int | None:
    """``exhaustive(board, None, stats, budget, enough, only=only, clock=clock)
    .best.points``, with the same `stats` and `clock` spent; None (nothing spent)
    when a start in `only` has other than three sides: call `exhaustive` then.
    `extra`: an empty slot to search as if it were drawn (`board` stays as it is)."""
    t = board.t
    lines, sides = list(board.lines), list(board.sides)  # lists index faster
    if extra is not None:
        lines[extra] = 1
        for b in t.boxes_of[extra]:
            sides[b] += 1
    values = t.box_sides(sides)
    n2, n3 = values.count(2), values.count(3)
    if only is None:  # `starts`: the three-sided boxes, in order
        found = list(compress(t.boxes, map((3).__eq__, values))) if n3 else []
    elif all(sides[b] == 3 for b in only):
        found = only
    else:
        return None
    edges, around, adjacent = t.edges, t.around, t.adjacent
    top = nodes = leaves = 0

    def go(target: int, came: int, points: int, bound: int) -> None:
        # `bound`: n2 + 2 * n3 on the board as it is before this line
        nonlocal top, nodes, leaves
        nodes += 1
        if nodes > budget or (clock is not None and not nodes & 255 and clock.late()):
            raise _Stop
        for s, other in edges[target]:  # noqa: B007 (both are read after the break)
            if not lines[s]:
                break
        lines[s] = 1
        sides[target] = 4
        points += 1
        bound -= 2
        second = NONE
        if other >= 0:
            old = sides[other]
            sides[other] = old + 1
            bound += BOUND_CHANGE[old]
            if old == 3 and (came == START or (came >= 0 and other - came in adjacent)):
                points += 1
                second = other
        leaf = True
        for nb in around[target]:  # RULES A1: only from the box aimed at
            if sides[nb] == 3:
                leaf = False
                if points + bound < top + 1:
                    break
                go(nb, second, points, bound)
        if leaf:
            leaves += 1
            if points > top:
                top = points
                if enough is not None and points >= enough:
                    raise _Stop
        lines[s] = 0
        sides[target] = 3
        if other >= 0:
            sides[other] = old

    try:
        bound = n2 + 2 * n3
        for b in found:
            if top >= bound:
                break
            go(b, START, 0, bound)
    except (_Stop, RecursionError):
        pass
    used = min(nodes, budget)
    stats.nodes += used
    stats.leaves += leaves
    if clock is not None:
        clock.spend(used + len(t.boxes) // 8)
    return top
