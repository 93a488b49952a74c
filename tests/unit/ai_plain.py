"""`stage1.exhaustive` as it was before the speed-ups (branch ai-speed), word for
word: the plain search test_fast_paths holds the fast one to."""

from __future__ import annotations

from service.domain.ai.budget import Budget, Stats
from service.domain.ai.compact import Board, Chain, starts
from service.domain.ai.stage1 import NO_PATH, Path, Search


class _Stop(Exception):
    pass


def plain_exhaustive(
    board: Board,
    chain: Chain,
    stats: Stats,
    budget: int = 20_000,
    enough: int | None = None,
    ties: int = 0,
    only: list[int] | None = None,
    touched: set[int] | None = None,
    clock: Budget | None = None,
) -> Search:
    """Every path, depth first, with a bound; stops at `budget` lines drawn or as
    soon as a path scores `enough`. Keeps up to `ties` more paths that score as
    much as the best one and end on a different board. `only` limits the starts;
    `touched` (given: no pruning) collects every box whose sides the search read
    or changed, so a line away from them cannot change the result. `clock`: the
    decision's budget; its last-resort time limit is checked every 256 lines
    and the lines drawn are spent from it.

    Bound: a line forms its target and adds a side to at most one other box, and
    every line forms a box, so the boxes a path forms satisfy
    sum(2 - sides_before) <= 0: each box that starts with fewer than two sides
    must be paid for by a 3-sided one. Hence the squares still to come are at
    most n2 + 2 * n3 (unformed boxes with 2 and 3 sides now).
    """
    t = board.t
    work = board.copy()
    lines, sides = work.lines, work.sides
    sides_of, boxes_of, nbrs, adjacent = t.sides_of, t.boxes_of, t.nbrs, t.adjacent
    n2 = n3 = 0
    if touched is None:  # the bound (no pruning when `touched` is collected)
        for b in t.boxes:
            if sides[b] == 2:
                n2 += 1
            elif sides[b] == 3:
                n3 += 1
    best = NO_PATH
    equal: list[Path] = []
    seen: set[frozenset[int]] = set()
    nodes = leaves = 0
    slots: list[int] = []
    directions: list[int] = []
    start = -1

    def go(target: int, chain: Chain, points: int) -> None:
        # The hot loop of the expert: plain loops instead of any()/generators.
        nonlocal n2, n3, best, equal, seen, nodes, leaves
        nodes += 1
        if nodes > budget or (deadline and not nodes & 255 and clock.late()):
            raise _Stop
        for s in sides_of[target]:
            if not lines[s]:
                break
        lines[s] = 1
        near = boxes_of[s]
        if touched is not None:
            touched.update(near)
            for c in near:
                for _, nb in nbrs[c]:
                    touched.add(nb)
        formed = []
        for b in near:
            old = sides[b]
            sides[b] = old + 1
            if old == 3:
                n3 -= 1
                formed.append(b)
            elif old == 2:
                n2 -= 1
                n3 += 1
            elif old == 1:
                n2 += 1
        if chain is not None and formed:
            regular = []
            for b in formed:
                for c in chain:
                    if b - c in adjacent:
                        regular.append(b)
                        break
            formed = regular
        points += len(formed)
        slots.append(s)
        try:
            options = []
            for option in nbrs[target]:  # RULES A1: only from the box aimed at
                if sides[option[1]] == 3:
                    options.append(option)
            if not options:
                leaves += 1
                if points > best.points:
                    best = Path(points, start, tuple(directions), tuple(slots))
                    equal, seen = [], {frozenset(slots)}
                    if enough is not None and points >= enough:
                        raise _Stop
                elif (ties and points == best.points and len(equal) < ties
                      and frozenset(slots) not in seen):
                    seen.add(frozenset(slots))
                    equal.append(Path(points, start, tuple(directions), tuple(slots)))
                return
            slack = 0 if ties else 1
            for d, nb in options:
                if touched is None and points + n2 + 2 * n3 < best.points + slack:
                    break
                directions.append(d)
                go(nb, formed, points)
                directions.pop()
        finally:
            slots.pop()
            lines[s] = 0
            for b in near:
                old = sides[b]
                sides[b] = old - 1
                if old == 4:
                    n3 += 1
                elif old == 3:
                    n3 -= 1
                    n2 += 1
                elif old == 2:
                    n2 -= 1

    found = starts(board, chain) if only is None else only
    deadline = clock is not None
    complete = True
    try:
        for b in found:
            if touched is None and best.points >= n2 + 2 * n3:
                break
            start = b
            go(b, chain, 0)
    except _Stop:
        complete = nodes <= budget and not (deadline and clock.late())
    except RecursionError:  # a path longer than Python's stack: let the caller fall back
        complete = False
    used = min(nodes, budget)
    stats.nodes += used
    stats.leaves += leaves
    if clock is not None:
        # collecting `touched` costs as much again; the bound's scan and the copy
        # of the board cost about a unit per 8 boxes
        clock.spend((used if touched is None else 2 * used) + len(t.boxes) // 8)
    return Search(best, len(found), leaves, complete, tuple(equal), used)
