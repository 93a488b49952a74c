"""How each level judges what a stage-2 line gives away (RULES A3), where A3 leaves
the measure open: "give away as little as possible (the shortest chain that the human
could then square)". A rule choice (issue 25), pinned by `RULES_A3` tests:

- hard and expert (``exact``): the most the opponent could take in its next stage 1,
  by exhaustive search (`stage2.least_give_away`);
- moderate (``squares``): the squares the opponent could form at once, i.e. the boxes
  left with three sides;
- easy (``opened``): the chain the line itself opens: each box it brings to three
  sides, with the chain of two-sided boxes behind it; what was open before the line
  does not count.

Every level takes a safe line where one exists (A3's preference), the lower ones and
hard at random, expert by sampling the stage-3 pieces (`stage2.choose`). The measured
ladder is in docs/levels.md.
"""

from __future__ import annotations

import random

from .compact import Board
from .stage2 import Extra, safe_lines, two_sided_chains

MEASURES = {"easy": "opened", "moderate": "squares", "hard": "exact", "expert": "exact"}


def squares_left(board: Board, slot: int, three_sided: int) -> int:
    """``squares``: the boxes with three sides once `slot` is drawn (`three_sided`:
    how many have three now)."""
    change = 0
    for b in board.t.boxes_of[slot]:
        side_count = board.sides[b]
        change += 1 if side_count == 2 else -1 if side_count == 3 else 0
    return three_sided + change


def chain_opened(board: Board, slot: int,
                 chains: tuple[dict[int, int], dict[int, int]]) -> int:
    """``opened``: the boxes `slot` brings to three sides, each with its chain."""
    chain, size = chains
    sides = board.sides
    opened = 0
    for b in board.t.boxes_of[slot]:
        if sides[b] == 2:
            opened += size[chain[b]]
    return opened


def least_by(board: Board, measure: str) -> tuple[int, list[int]]:
    """(the least figure, the empty slots that have it) by the naive `measure`."""
    if measure == "squares":
        now = len(board.three_sided())
        figures = {s: squares_left(board, s, now) for s in board.empty_slots()}
    elif measure == "opened":
        chains = two_sided_chains(board)
        figures = {s: chain_opened(board, s, chains) for s in board.empty_slots()}
    else:
        raise ValueError(f"no naive measure {measure!r}")
    least = min(figures.values())
    return least, [s for s, figure in figures.items() if figure == least]


def choose(board: Board, rng: random.Random, measure: str) -> Extra:
    """The stage-2 line of a level with a naive `measure`: a safe line at random, else
    one at random of those the measure judges to give the least."""
    empty = board.empty_slots()
    safe = safe_lines(board)
    if safe:
        return Extra(safe[rng.randrange(len(safe))], 0, len(empty), 0,
                     f"safe line: no box is left with three sides ({len(safe)} safe lines)")
    least, best = least_by(board, measure)
    what = ("squares left to form at once" if measure == "squares"
            else "squares in the chain it opens")
    return Extra(best[rng.randrange(len(best))], least, len(empty), len(empty),
                 f"no safe line: the fewest {what}, {least}")
