"""Stage 2 (RULES A3): the extra line.

Prefer a safe line (afterwards no box has exactly three sides). Without one,
give away as little as possible: the fewest squares the opponent could chain
in its next stage 1. The expert also draws the stage-3 random pieces many
times (with `pieces`, as the rules do) and keeps the line after which the
opponent's best chain is smallest on average.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .. import pieces
from .compact import Board
from .stage1 import Stats, best_points, exhaustive

SHORTLIST = 6  # expert: candidate lines that get sampled
SAMPLES = 6  # expert: stage-3 piece sets per candidate (the same sets for each)


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


def least_give_away(board: Board, stats: Stats) -> tuple[list[tuple[int, int]], int]:
    """(give, slot) for every empty slot, in slot order, and how many were searched.

    A figure is exact when it is at most the least give-away found so far, and a
    lower bound of a worse line otherwise. Each start is searched once on this
    board, noting the boxes its search looked at; a line that touches none of
    them leaves that start's best chain as it was, so per line only the starts it
    touches (and the boxes it brings to three sides) are searched again.
    """
    sides, boxes_of = board.sides, board.t.boxes_of
    value: dict[int, int] = {}
    by_box: dict[int, list[int]] = {}
    always: list[int] = []  # starts whose search ran out of budget
    for b in board.three_sided():
        seen: set[int] = set()
        found = exhaustive(board, None, stats, 4_000, only=[b], touched=seen)
        value[b] = found.best.points
        if not found.complete:
            always.append(b)
        for box in seen:
            by_box.setdefault(box, []).append(b)
    ranked = sorted(value, key=value.__getitem__, reverse=True)

    results: list[tuple[int, int]] = []
    least: int | None = None
    searched = 0
    for s in board.empty_slots():
        near = boxes_of[s]
        affected = set(always)
        for box in near:
            affected.update(by_box.get(box, ()))
        kept = next((value[b] for b in ranked if b not in affected), 0)
        give = kept
        if least is None or kept <= least:
            redo = [b for b in affected if sides[b] == 3 and b not in near]
            redo += [b for b in near if sides[b] == 2]  # three-sided after the line
            if redo:
                searched += 1
                board.draw(s)
                enough = None if least is None else least + 1
                found = exhaustive(board, None, stats, 4_000, enough, only=redo)
                board.undo(s)
                give = max(kept, found.best.points)
        results.append((give, s))
        if least is None or give < least:
            least = give
    return results, searched


def choose(board: Board, rng: random.Random, stats: Stats, sample: bool) -> Extra:
    empty = board.empty_slots()
    safe = safe_lines(board)
    if safe:
        least, best, why = 0, safe, f"safe line: no box is left with three sides ({len(safe)} safe lines)"
        simulated = 0
    else:
        ranked, simulated = least_give_away(board, stats)
        least = min(give for give, _ in ranked)
        best = [s for give, s in ranked if give == least]
        why = f"no safe line: gives away the least, {least} square(s)"
    if not sample:
        slot = best[rng.randrange(len(best))]
        return Extra(slot, least, len(empty), simulated, why)
    # Expert: fewer boxes brought to two sides keep chains short; ties in random
    # order; then the stage-3 pieces are sampled for a shortlist.
    rng.shuffle(best)
    sides, boxes_of = board.sides, board.t.boxes_of
    best.sort(key=lambda s: sum(1 for b in boxes_of[s] if sides[b] == 1))
    mean, slot, trials = _sampled(board, best[:SHORTLIST], rng, stats)
    return Extra(slot, least, len(empty), simulated + trials,
                 f"{why}; opponent expects {mean:.1f} after {SAMPLES} samples of the "
                 f"stage-3 pieces")


def _sampled(
    board: Board, candidates: list[int], rng: random.Random, stats: Stats
) -> tuple[float, int, int]:
    """(mean opponent best chain, slot, positions simulated) of the best candidate."""
    seeds = [rng.getrandbits(32) for _ in range(SAMPLES)]
    best: tuple[float, int] | None = None
    for slot in candidates:
        total = 0
        for seed in seeds:
            after = board.copy()
            after.draw(slot)
            _insert_pieces(after, random.Random(seed))
            total += best_points(after, stats, budget=2_000)
        mean = total / SAMPLES
        if best is None or mean < best[0]:
            best = (mean, slot)
    assert best is not None
    return best[0], best[1], len(candidates) * SAMPLES


def _insert_pieces(board: Board, rng: random.Random) -> None:
    """RULES T4 on the compact board: a 3-, 2- and 1-line piece at random."""
    t = board.t
    w = t.width
    lines = board.lines
    for size in pieces.PIECE_SIZES:
        shape = pieces.shift_upper_left(pieces.generate_shape(size, rng))
        placed, _ = pieces.place_piece(
            shape, t.height, w, lambda x, y: not lines[y * w + x], rng
        )
        for x, y in placed:
            board.draw(y * w + x)
