"""The safest stage-2 line: the least any line leaves the next player for their stage 1
(`search.best_stage1` after it), with the units it spends counted as `search` says.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from ..ai.compact import Board, Tables, tables
from .search import Best, firsts, search

STAGE2_NODES = 200_000  # lines drawn by all the searches behind one stage-2 line


class Least(NamedTuple):
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
    the search as soon as it cannot lower it. The slots are drawn on copies of
    `board`: lists for the searches (`search.search`), and a bytearray of its side
    counts where the searches' first lines are looked for (`search.firsts`)."""
    t = board.t
    boxes_of = t.boxes_of
    by_threes: tuple[list[int], list[int], list[int]] = ([], [], [])
    two = board.sides.translate(_TWO_OR_MORE)  # 1 at the boxes with two sides or more
    taken = board.lines
    for s, (b, c) in _box_pairs(t.height, t.width):  # the empty slots by the three-sided
        if not taken[s]:  # boxes they make, in order
            by_threes[two[b] + two[c]].append(s)
    counts = bytearray(board.sides)  # to find the three-sided boxes (`firsts`)
    if counts.find(3) < 0 and by_threes[0]:
        return Least(0, by_threes[0][0], True, 0)
    lines, sides = list(board.lines), list(board.sides)
    least, where = gives.points, played
    witnesses = _Witnesses(t, lines, sides)
    if gives.lines:
        witnesses.add(gives.lines, least)
    near, away, size = witnesses.near, witnesses.away, witnesses.size
    spent = 0
    for s in by_threes[0] + by_threes[1] + by_threes[2]:
        if least == 0:
            break
        if s == played:
            continue
        if spent + 1 + size > nodes:  # the most this slot's check draws
            return Least(least, where, False, spent)
        covered, drawn = witnesses.cover(s) if s in near else away
        spent += 1 + drawn
        if covered:
            continue
        lines[s] = 1
        for b in boxes_of[s]:
            sides[b] += 1
            counts[b] += 1
        found = search(t, lines, sides, None, nodes - spent, least, firsts(t, lines, counts))
        lines[s] = 0
        for b in boxes_of[s]:
            sides[b] -= 1
            counts[b] -= 1
        spent += found.nodes
        if not found.exact:
            return Least(least, where, False, spent)
        if found.points < least:
            least, where = found.points, s
            witnesses.aim(least)
        else:
            witnesses.add(found.lines, least)
        near, away, size = witnesses.near, witnesses.away, witnesses.size
    return Least(least, where, True, spent)


_TWO_OR_MORE = bytes(int(count >= 2) for count in range(256))


@cache
def _box_pairs(height: int, width: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every slot with the two boxes it borders (a cell without sides, 0, for a wall's
    missing box)."""
    t = tables(height, width)
    return tuple((s, (*t.boxes_of[s], 0)[:2]) for s in t.slots)


WITNESSES = 8


class _Witnesses:
    """The known stage-1 sequences (witnesses, the last found first, at most
    `WITNESSES`) and whether one still takes at least the least found so far once a
    slot is drawn (`cover`), with the lines that telling draws (the units it costs:
    every witness checked counts its lines).

    What a witness takes on the board the slots are tried from is worked out once;
    a slot can change it only when it is `near` (one of the witness's lines, or a
    side of a box they border). So a slot away from the witnesses up to the first
    that takes enough is covered by that one, and costs what is worked out in `aim`.
    """

    def __init__(self, t: Tables, lines: list[int], sides: list[int]) -> None:
        self.t, self.lines, self.sides = t, lines, sides
        self.found: list[tuple[tuple[int, ...], int, frozenset[int]]] = []  # (lines, takes, near)
        self.size = 0  # the lines of all witnesses
        self.least = 0  # what a witness must take to cover a slot (`aim`)
        self.away: tuple[bool, int] = (False, 0)  # `cover` of a slot away from `near`
        self.near: set[int] = set()

    def add(self, sequence: tuple[int, ...], least: int) -> None:
        sides_of, boxes_of = self.t.sides_of, self.t.boxes_of
        near = frozenset(x for s in sequence for b in boxes_of[s] for x in sides_of[b])
        self.found.insert(0, (sequence, takes(self.t, self.lines, self.sides, sequence), near))
        del self.found[WITNESSES:]
        self.size = sum(len(w[0]) for w in self.found)
        self.aim(least)

    def aim(self, least: int) -> None:
        """Work out `cover` for the slots away from the witnesses, against `least`."""
        self.least = least
        self.near = set()
        drawn = 0
        for sequence, value, near in self.found:
            drawn += len(sequence)
            self.near |= near
            if value >= least:
                self.away = (True, drawn)
                return
        self.away = (False, drawn)

    def cover(self, s: int) -> tuple[bool, int]:
        """Whether a witness takes at least the least once `s` is drawn, and the units."""
        drawn = 0
        for sequence, value, near in self.found:
            drawn += len(sequence)
            if s in near:
                value = takes(self.t, self.lines, self.sides, sequence, s)
            if value >= self.least:
                return True, drawn
        return False, drawn


def takes(t: Tables, lines: list[int], sides: list[int], sequence: tuple[int, ...],
          extra: int | None = None) -> int:
    """What the stage-1 `sequence` takes on the board of `lines` and `sides` (and the
    empty slot `extra` drawn first), up to its first line that is drawn already or
    forms no regular square (RULES T1/T2). The lists are left as they were."""
    boxes_of, adjacent = t.boxes_of, t.adjacent
    last: list[int] | None = None  # the previous line's regular squares
    points = 0
    drawn: list[int] = []
    if extra is not None:
        lines[extra] = 1
        for b in boxes_of[extra]:
            sides[b] += 1
        drawn.append(extra)
    for s in sequence:
        if lines[s]:
            break
        lines[s] = 1
        drawn.append(s)
        formed = []
        for b in boxes_of[s]:
            sides[b] += 1
            if sides[b] == 4:
                if last is None:
                    formed.append(b)
                else:
                    for c in last:
                        if b - c in adjacent:
                            formed.append(b)
                            break
        if not formed:
            break
        points += len(formed)
        last = formed
    for s in drawn:
        lines[s] = 0
        for b in boxes_of[s]:
            sides[b] -= 1
    return points
