"""Stage 1 (RULES A1): the best squaring path from a position.

A path is the list of lines a player draws in one stage 1; each line forms the
box chosen as the next target (and maybe the box across it, which scores as
T2 says but is never stepped from: amended A1). So the start box plus the
directions name, in order, the box each line is aimed at. Random walks
(`walks`) follow A1 literally; the exhaustive search (expert) tries every such
walk.

Budget (`budget.Budget`): `exhaustive` stops at its node limit (or the last-resort
time limit) and says so (``complete`` False), keeping the best path found.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .budget import Budget, Stats
from .compact import Board, Chain, starts
from .points import BOUND_CHANGE, most_points


@dataclass(frozen=True)
class Path:
    points: int  # regular squares it scores
    start: int | None  # box index of the first target
    directions: tuple[int, ...]  # RULES F3, from a regular square of the previous line
    slots: tuple[int, ...]  # the lines, in order


NO_PATH = Path(0, None, (), ())


@dataclass(frozen=True)
class Search:
    best: Path
    starts: int
    trials: int
    complete: bool = True  # False when the exhaustive search ran out of budget
    ties: tuple[Path, ...] = field(default=())  # other paths as good as `best`
    nodes: int = 0  # lines the exhaustive search drew


class _Stop(Exception):
    pass


def exhaustive(
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
    lines, sides = list(board.lines), list(board.sides)  # the search's copy; lists index faster
    boxes_of, nbrs, adjacent, reach = t.boxes_of, t.nbrs, t.adjacent, t.reach
    edges = t.edges
    prune = touched is None  # (no pruning when `touched` is collected)
    bound = 0
    if prune:  # n2 + 2 * n3, see `points.BOUND_CHANGE`
        values = t.box_sides(board.sides)
        bound = values.count(2) + 2 * values.count(3)
    slack = 0 if ties else 1
    best = NO_PATH
    top = 0  # best.points
    equal: list[Path] = []
    seen: set[frozenset[int]] = set()
    nodes = leaves = 0
    slots: list[int] = []
    directions: list[int] = []
    start = -1

    def go(target: int, chain: Chain, points: int, bound: int) -> None:
        # The hot loop of the expert: plain loops instead of any()/generators.
        # `bound`: n2 + 2 * n3 before this line (the board is a copy: a stop
        # leaves it as it is).
        nonlocal best, top, equal, seen, nodes, leaves
        nodes += 1
        if nodes > budget or (clock is not None and not nodes & 255 and clock.late()):
            raise _Stop
        for s, _ in edges[target]:
            if not lines[s]:
                break
        lines[s] = 1
        near = boxes_of[s]
        if touched is not None:
            touched.update(reach[s])
        formed = []
        for b in near:
            old = sides[b]
            sides[b] = old + 1
            bound += BOUND_CHANGE[old]
            if old == 3:
                formed.append(b)
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
        leaf = True
        for d, nb in nbrs[target]:  # RULES A1: only from the box aimed at
            if sides[nb] == 3:
                leaf = False
                if prune and points + bound < top + slack:
                    break
                directions.append(d)
                go(nb, formed, points, bound)
                directions.pop()
        if leaf:
            leaves += 1
            if points > top:
                best = Path(points, start, tuple(directions), tuple(slots))
                top = points
                if ties:
                    equal, seen = [], {frozenset(slots)}
                if enough is not None and points >= enough:
                    raise _Stop
            elif (ties and points == top and len(equal) < ties
                  and frozenset(slots) not in seen):
                seen.add(frozenset(slots))
                equal.append(Path(points, start, tuple(directions), tuple(slots)))
        slots.pop()
        lines[s] = 0
        for b in near:
            sides[b] -= 1

    found = starts(board, chain) if only is None else only
    complete = True
    try:
        for b in found:
            if prune and top >= bound:
                break
            start = b
            go(b, chain, 0, bound)
    except _Stop:
        complete = nodes <= budget and not (clock is not None and clock.late())
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


def best_points(board: Board, stats: Stats, enough: int | None = None, budget: int = 4_000,
                clock: Budget | None = None) -> int:
    """The most a player could score in a fresh stage 1 here (at least `enough`
    means "that much or more": the search stops there). `exhaustive`'s figure, by
    its count-only twin `points.most_points`."""
    found = most_points(board, stats, budget, enough, clock=clock)
    assert found is not None  # its starts are the three-sided boxes
    return found
