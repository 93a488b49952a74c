"""Crafted worst positions for the AI's per-decision budget (`benchmarks/ai.py`
times them, `tests/unit/test_ai_budget.py` checks the work they cost).

Each is the start of a computer-vs-computer game (seat 1 in stage 1) whose
initial lines are chosen, not random:

- ``corridors``: every horizontal inner line drawn, so each row of boxes is one
  long chain with a three-sided box at each end; no line is safe;
- ``dominoes``: the boxes paired up, each pair missing only the line between
  them: every box has three sides and every line forms two boxes;
- ``three_sided``: each box gets three random sides (many three-sided boxes,
  forks and long chains);
- ``dense``: 80 % of the inner lines drawn at random.
"""

from __future__ import annotations

import random

from service.domain.board import geometry
from service.domain.events import GameCreated, Seat
from service.domain.fold import fold
from service.domain.seeds import commitment
from service.domain.state import GameState

KINDS = ("corridors", "dominoes", "three_sided", "dense")


def position(kind: str, height: int, width: int, seed: int = 0,
             levels: tuple[str, str] = ("expert", "expert")) -> GameState:
    g = geometry(height, width)
    rng = random.Random(seed)
    drawn: set[tuple[int, int]] = set()
    inner = [g.xy(i) for i in g.inner_slots]
    if kind == "corridors":
        drawn = {(x, y) for x, y in inner if y % 2 == 0}
    elif kind == "dominoes":
        open_: set[tuple[int, int]] = set()
        for y in range(1, height, 2):
            for x in range(1, width, 4):
                if x + 2 < width - 1:
                    open_.add((x + 1, y))  # the line between (x, y) and (x + 2, y)
                elif y + 2 < height - 1 and (y // 2) % 2 == 0:
                    open_.add((x, y + 1))  # a last column: pair vertically
        drawn = {p for p in inner if p not in open_}
    elif kind == "three_sided":
        for b in g.boxes:
            x, y = g.xy(b)
            sides = [(x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y)]
            sides.remove(rng.choice(sides))
            drawn.update(sides)
        drawn = {p for p in drawn if p in set(inner)}
    elif kind == "dense":
        drawn = {p for p in inner if rng.random() < 0.8}
    else:
        raise ValueError(f"unknown kind {kind!r}; one of {', '.join(KINDS)}")
    seats = (Seat(f"Computer 1 ({levels[0]})", "computer", levels[0]),
             Seat(f"Computer 2 ({levels[1]})", "computer", levels[1]))
    return fold([GameCreated(seed=str(seed), seed_commitment=commitment(str(seed)),
                             ranked=False, first_seat=1, hints=True,
                             height=height, width=width, mode="computer_vs_computer", difficulty=levels[0], seats=seats,
                             initial_lines=tuple(sorted(drawn)))])
