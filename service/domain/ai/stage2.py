"""Stage 2 (RULES A3): the extra line.

Prefer a safe line (afterwards no box has exactly three sides). Without one,
give away as little as possible: the fewest squares the opponent could chain
in its next stage 1. The expert also draws the stage-3 random pieces many
times (`sampling`, with `pieces.draw_piece`, the rules' own generator) and keeps
the line after which the opponent's best chain is smallest on average.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import budget
from .budget import Budget, Stats
from .compact import Board
from .points import most_points
from .sampling import sampled
from .stage1 import exhaustive

SHORTLIST = 24  # expert: candidate lines that get sampled (issue 25: was 6)
SAMPLES = 12  # expert: stage-3 piece sets per candidate, the same for each (was 6)


@dataclass(frozen=True)
class Extra:
    slot: int
    give: int  # squares the opponent could chain right after this line
    considered: int  # candidate lines looked at
    trials: int  # positions simulated
    reason: str


def safe_lines(board: Board) -> list[int]:
    sides, boxes_of = board.sides, board.t.boxes_of
    n3 = len(board.three_sided())
    safe = []
    for s in board.empty_slots():
        near = [sides[b] for b in boxes_of[s]]
        if 2 not in near and near.count(3) == n3:
            safe.append(s)
    return safe


def two_sided_chains(board: Board) -> tuple[dict[int, int], dict[int, int]]:
    """The chains of two-sided boxes: (box -> chain id, chain id -> boxes in it).

    Two two-sided boxes are in one chain when an empty line joins them: a line
    that gives one of them its third side lets the opponent take the whole
    chain, box after box (RULES A1 walks through the line each box lacks).
    """
    t = board.t
    sides, lines, sides_of, boxes_of = board.sides, board.lines, t.sides_of, t.boxes_of
    parent: dict[int, int] = {b: b for b in t.boxes if sides[b] == 2}

    def root(b: int) -> int:
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        return b

    for b in parent:
        for s in sides_of[b]:
            if not lines[s]:
                for other in boxes_of[s]:
                    if other != b and other in parent:
                        ra, rb = root(b), root(other)
                        if ra != rb:
                            parent[ra] = rb
    chain = {b: root(b) for b in parent}
    size: dict[int, int] = {}
    for r in chain.values():
        size[r] = size.get(r, 0) + 1
    return chain, size


def danger_added(board: Board, chains: tuple[dict[int, int], dict[int, int]], slot: int) -> int:
    """How much a safe line adds to the sum of squared chain lengths (a box it
    brings to two sides joins the chains its empty sides lead to)."""
    chain, size = chains
    t = board.t
    sides, lines = board.sides, board.lines
    added = 0
    for b in t.boxes_of[slot]:
        if sides[b] != 1:
            continue
        joined: set[int] = set()
        for s in t.sides_of[b]:
            if s != slot and not lines[s]:
                for other in t.boxes_of[s]:
                    if other != b and other in chain:
                        joined.add(chain[other])
        total = 1 + sum(size[c] for c in joined)
        added += total * total - sum(size[c] * size[c] for c in joined)
    return added


def least_give_away(
    board: Board, stats: Stats, clock: Budget | None = None
) -> tuple[list[tuple[int, int]], int, bool]:
    """(give, slot) for the empty slots, in slot order; how many were searched;
    whether every slot got its figure.

    A figure is exact when it is at most the least give-away found so far, and a
    lower bound of a worse line otherwise. Each start is searched once on this
    board, noting the boxes its search looked at; a line that touches none of
    them leaves that start's best chain as it was, so per line only the starts it
    touches (and the boxes it brings to three sides) are searched again.

    Budget (`clock`): each start's own search gets an equal share of a third of
    what is left (at most 4,000 lines); once the budget is spent, every line
    not judged yet gets a rough figure instead (one more than the best
    chain on the board, plus two per box it brings to three sides), so judged
    lines are preferred and among the rest those making no new three-sided box;
    ``complete`` is then False. Without a `clock` the budget is unlimited.
    """
    clock = clock if clock is not None else budget.unlimited()
    sides, boxes_of = board.sides, board.t.boxes_of
    value: dict[int, int] = {}
    by_box: dict[int, list[int]] = {}
    always: list[int] = []  # starts whose search ran out of budget
    three = board.three_sided()
    for i, b in enumerate(three):
        if clock.out:  # not searched: at least the box itself, judged roughly
            value[b] = 1
            always.append(b)
            continue
        seen: set[int] = set()
        share = max(8, min(4_000, clock.left // (3 * (len(three) - i))))
        found = exhaustive(board, None, stats, share, only=[b], touched=seen, clock=clock)
        value[b] = found.best.points
        if not found.complete:
            always.append(b)
        for box in seen:
            by_box.setdefault(box, []).append(b)
    ranked = sorted(value, key=value.__getitem__, reverse=True)
    rough = 1 + max(value.values(), default=0)

    results: list[tuple[int, int]] = []
    least: int | None = None
    searched = 0
    complete = True
    for s in board.empty_slots():
        near = boxes_of[s]
        if clock.out:  # not judged: a rough figure, worse than the judged ones
            complete = False
            results.append((rough + 2 * sum(1 for b in near if sides[b] == 2), s))
            continue
        affected = set(always)
        for box in near:
            affected.update(by_box.get(box, ()))
        if always:
            clock.spend(len(affected) // 16)  # the sets of a line are work too
        kept = next((value[b] for b in ranked if b not in affected), 0)
        give = kept
        if least is None or kept <= least:
            redo = [b for b in affected if sides[b] == 3 and b not in near]
            redo += [b for b in near if sides[b] == 2]  # three-sided after the line
            if redo:
                searched += 1
                board.draw(s)
                enough = None if least is None else least + 1
                units = min(4_000, max(clock.left, 8))
                points = most_points(board, stats, units, enough, only=redo, clock=clock)
                if points is None:
                    points = exhaustive(board, None, stats, units, enough, only=redo,
                                        clock=clock).best.points
                board.undo(s)
                give = max(kept, points)
        results.append((give, s))
        if least is None or give < least:
            least = give
    return results, searched, complete


def choose(board: Board, rng: random.Random, stats: Stats, sample: bool,
           clock: Budget | None = None) -> Extra:
    clock = clock if clock is not None else budget.unlimited()
    empty = board.empty_slots()
    safe = safe_lines(board)
    if safe:
        least, best, why = 0, safe, f"safe line: no box is left with three sides ({len(safe)} safe lines)"
        simulated = 0
    else:
        ranked, simulated, complete = least_give_away(board, stats, clock)
        least = min(give for give, _ in ranked)
        best = [s for give, s in ranked if give == least]
        why = f"no safe line: gives away the least, {least} square(s)"
        if not complete:
            why += " (search budget reached: some lines judged roughly)"
    if not sample:
        slot = best[rng.randrange(len(best))]
        return Extra(slot, least, len(empty), simulated, why)
    # Expert: lines that lengthen the chains of two-sided boxes least first (ties
    # in random order); then the stage-3 pieces are sampled for a shortlist.
    rng.shuffle(best)
    chains = two_sided_chains(board)
    best.sort(key=lambda s: danger_added(board, chains, s))
    mean, slot, trials = sampled(board, best[:SHORTLIST], SAMPLES, rng, stats, clock)
    return Extra(slot, least, len(empty), simulated + trials,
                 f"{why}; opponent expects {mean:.1f} after {SAMPLES} samples of the "
                 f"stage-3 pieces")
