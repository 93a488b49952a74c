"""The safest stage-2 line: the least any line leaves the next player for their stage 1
(`search.best_stage1` after it), with the units it spends counted as `search` says.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ai.compact import Board, Chain
from .search import Best, best_stage1

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
    the search as soon as it cannot lower it."""
    t = board.t
    sides = board.sides
    empty = board.empty_slots()

    def new_threes(s: int) -> int:
        return sum(1 for b in t.boxes_of[s] if sides[b] >= 2)

    if not any(sides[b] == 3 for b in t.boxes):
        for s in empty:
            if new_threes(s) == 0:
                return Least(0, s, True, 0)
    least, where = gives.points, played
    witnesses: list[_Witness] = [_Witness(board, gives.lines)] if gives.lines else []
    drawn_by_all = sum(len(w.lines) for w in witnesses)
    spent = 0
    for s in sorted(empty, key=new_threes):
        if least == 0:
            break
        if s == played:
            continue
        if spent + 1 + drawn_by_all > nodes:  # the most this slot's check draws
            return Least(least, where, False, spent)
        on = False  # whether `s` is drawn on `board`
        try:
            # a witness counts its lines as drawn (units), even when its figure
            # without `s` still holds (`s` is away from it)
            drawn = 0
            covered = False
            for w in witnesses:
                drawn += len(w.lines)
                if s in w.near:
                    if not on:
                        board.draw(s)
                        on = True
                    if takes(board, w.lines) >= least:
                        covered = True
                        break
                elif w.takes >= least:
                    covered = True
                    break
            spent += 1 + drawn
            if covered:
                continue
            if not on:
                board.draw(s)
                on = True
            found = best_stage1(board, None, nodes - spent, enough=least)
        finally:
            if on:
                board.undo(s)
        spent += found.nodes
        if not found.exact:
            return Least(least, where, False, spent)
        if found.points < least:
            least, where = found.points, s
        else:
            witnesses.insert(0, _Witness(board, found.lines))
            del witnesses[WITNESSES:]
            drawn_by_all = sum(len(w.lines) for w in witnesses)
    return Least(least, where, True, spent)


WITNESSES = 8


class _Witness:
    """A known stage-1 sequence, what it `takes` on the board `least_giving` tries its
    slots from, and the slots `near` it: the only ones whose line can change that
    (its own lines, and the sides of the boxes they border)."""

    __slots__ = ("lines", "takes", "near")

    def __init__(self, board: Board, lines: tuple[int, ...]) -> None:
        sides_of, boxes_of = board.t.sides_of, board.t.boxes_of
        self.lines = lines
        self.takes = takes(board, lines)
        self.near = frozenset(x for s in lines for b in boxes_of[s] for x in sides_of[b])


def takes(board: Board, lines: tuple[int, ...]) -> int:
    """What the stage-1 sequence `lines` takes on `board`, up to its first line that
    is drawn already or forms no regular square (RULES T1/T2). `board` is left as
    it was."""
    adjacent = board.t.adjacent
    chain: Chain = None
    points = 0
    drawn: list[int] = []
    try:
        for s in lines:
            if board.lines[s]:
                break
            formed = board.draw(s)
            drawn.append(s)
            if chain is not None:
                formed = [b for b in formed if any(b - c in adjacent for c in chain)]
            if not formed:
                break
            points += len(formed)
            chain = tuple(formed)
    finally:
        for s in drawn:
            board.undo(s)
    return points
