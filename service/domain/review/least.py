"""The safest stage-2 line: the least any line leaves the next player for their stage 1
(`search.best_stage1` after it), with the units it spends counted as `search` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ai.compact import Board, Tables
from .search import Best, search

STAGE2_NODES = 200_000  # lines drawn by all the searches behind one stage-2 line


@dataclass(frozen=True)
class Least:
    """The stage-2 line that leaves the next player the least for their stage 1."""

    points: int  # what the next player could then take (`best_stage1` after it)
    slot: int
    exact: bool  # False: the node budget ran out (`points` is an upper bound)
    nodes: int


def least_giving(board: Board, played: int, gives: Best, nodes: int = STAGE2_NODES) -> Least:
    """The least any empty slot gives, given what the line `played` gives (`gives`).

    A slot gives nothing when afterwards no box has three sides, so with no box at
    three sides now, a slot between boxes of at most one side ends the search. Else
    every slot is tried, the ones that make fewer three-sided boxes first (they
    tend to give less). A slot is passed over when a known sequence (a witness:
    the best sequences found so far) still takes at least the least found so far
    after it; otherwise it is searched with ``enough`` at that least, which stops
    the search as soon as it cannot lower it. `board` is left as it is: the slots
    are drawn on a copy as lists (`search.search`)."""
    t = board.t
    boxes_of = t.boxes_of
    lines, sides = list(board.lines), list(board.sides)
    by_threes: tuple[list[int], list[int], list[int]] = ([], [], [])
    for s in t.slots:  # the empty slots by the three-sided boxes they make, in order
        if not lines[s]:
            n = 0
            for b in boxes_of[s]:
                if sides[b] >= 2:
                    n += 1
            by_threes[n].append(s)
    if 3 not in t.box_sides(sides) and by_threes[0]:
        return Least(0, by_threes[0][0], True, 0)
    least, where = gives.points, played
    witnesses: list[_Witness] = [_Witness(t, lines, sides, gives.lines)] if gives.lines else []
    drawn_by_all = sum(len(w.lines) for w in witnesses)
    spent = 0
    for s in by_threes[0] + by_threes[1] + by_threes[2]:
        if least == 0:
            break
        if s == played:
            continue
        if spent + 1 + drawn_by_all > nodes:  # the most this slot's check draws
            return Least(least, where, False, spent)
        lines[s] = 1
        for b in boxes_of[s]:
            sides[b] += 1
        # a witness counts its lines as drawn (units), even when its figure without
        # `s` still holds (`s` is away from it)
        drawn = 0
        covered = False
        for w in witnesses:
            drawn += len(w.lines)
            if (takes(t, lines, sides, w.lines) if s in w.near else w.takes) >= least:
                covered = True
                break
        spent += 1 + drawn
        if not covered:
            found = search(t, lines, sides, None, nodes - spent, least)
        lines[s] = 0
        for b in boxes_of[s]:
            sides[b] -= 1
        if covered:
            continue
        spent += found.nodes
        if not found.exact:
            return Least(least, where, False, spent)
        if found.points < least:
            least, where = found.points, s
        else:
            witnesses.insert(0, _Witness(t, lines, sides, found.lines))
            del witnesses[WITNESSES:]
            drawn_by_all = sum(len(w.lines) for w in witnesses)
    return Least(least, where, True, spent)


WITNESSES = 8


class _Witness:
    """A known stage-1 sequence, what it `takes` on the board `least_giving` tries its
    slots from, and the slots `near` it: the only ones whose line can change that
    (its own lines, and the sides of the boxes they border)."""

    __slots__ = ("lines", "takes", "near")

    def __init__(self, t: Tables, lines: list[int], sides: list[int],
                 sequence: tuple[int, ...]) -> None:
        sides_of, boxes_of = t.sides_of, t.boxes_of
        self.lines = sequence
        self.takes = takes(t, lines, sides, sequence)
        self.near = frozenset(x for s in sequence for b in boxes_of[s] for x in sides_of[b])


def takes(t: Tables, lines: list[int], sides: list[int], sequence: tuple[int, ...]) -> int:
    """What the stage-1 `sequence` takes on the board of `lines` and `sides`, up to its
    first line that is drawn already or forms no regular square (RULES T1/T2). The
    lists are left as they were."""
    boxes_of, adjacent = t.boxes_of, t.adjacent
    last: list[int] | None = None  # the previous line's regular squares
    points = 0
    drawn: list[int] = []
    for s in sequence:
        if lines[s]:
            break
        lines[s] = 1
        drawn.append(s)
        formed = []
        for b in boxes_of[s]:
            sides[b] += 1
            if sides[b] == 4 and (last is None or any(b - c in adjacent for c in last)):
                formed.append(b)
        if not formed:
            break
        points += len(formed)
        last = formed
    for s in drawn:
        lines[s] = 0
        for b in boxes_of[s]:
            sides[b] -= 1
    return points
