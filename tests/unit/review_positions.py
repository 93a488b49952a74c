"""Positions for the review tests: the turn starts of simulated games, dense random
fields, and hand-drawn ones in box coordinates (a snake, a fork, one line forming
two boxes), folded from a `GameCreated` whose initial lines are the ones wanted
(`helpers.position`)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from service.domain import ai
from service.domain.board import geometry
from service.domain.commands import NewGame
from service.domain.events import Point
from service.domain.state import GameState
from squares_testing.play import turn_starts

from .helpers import position

Size = tuple[int, int]


@cache
def game_starts(size: Size, seed: int, level: str) -> tuple[GameState, ...]:
    """The state at the start of every turn of a computer-vs-computer game."""
    command = NewGame(seed=seed, player_name="t", difficulty=level, second_level=level,
                      mode="computer_vs_computer", height=size[0], width=size[1])
    return tuple(turn_starts(command, ai.strategy_for(level)))


def dense(rng: random.Random, size: Size, keep: float) -> GameState:
    """A position where each inner slot is drawn with probability `keep`."""
    g = geometry(*size)
    drawn = [g.xy(i) for i in g.inner_slots if rng.random() < keep]
    return position(drawn=drawn, size=size)[0]


def cell(box: Point) -> Point:
    """The cell of box (column, row) counted in boxes."""
    return 2 * box[0] + 1, 2 * box[1] + 1


def between(a: Point, b: Point) -> Point:
    """The slot shared by the neighbouring boxes `a` and `b` (in box coordinates)."""
    (ax, ay), (bx, by) = cell(a), cell(b)
    assert abs(ax - bx) + abs(ay - by) == 2
    return (ax + bx) // 2, (ay + by) // 2


def open_position(open_slots: Iterable[Point], size: Size) -> GameState:
    """Every inner slot drawn except `open_slots`."""
    return position(list(open_slots), size=size)[0]


def path_slots(boxes: Sequence[Point]) -> list[Point]:
    return [between(a, b) for a, b in zip(boxes, boxes[1:], strict=False)]


SNAKE = [(0, 0), (1, 0), (2, 0), (3, 0), (3, 1), (2, 1), (1, 1), (0, 1),
         (0, 2), (1, 2), (2, 2), (3, 2)]


def snake() -> GameState:
    """One chain through all 12 boxes of a 7 x 9 field: its ends have three sides,
    its inside two. The last line forms the last two boxes at once, and the far one
    is no neighbour of the box before: irregular (RULES T2)."""
    return open_position(path_slots(SNAKE), (7, 9))


def fork() -> GameState:
    """Three chains meeting in box (1, 0) on a 9 x 9 field."""
    arms = path_slots([(0, 0), (1, 0), (2, 0), (3, 0)]) + path_slots(
        [(1, 0), (1, 1), (1, 2), (1, 3)])
    return open_position(arms, (9, 9))


def double_start() -> GameState:
    """Boxes (0, 0) and (1, 0) share their only empty side (one line forms both, both
    regular as the first line: RULES T2), and a chain goes on below (0, 0), whose
    last line forms (2, 2) regular and (2, 1) irregular."""
    return open_position([between((0, 0), (1, 0))] + path_slots(
        [(0, 1), (0, 2), (1, 2), (2, 2), (2, 1)]), (7, 7))
