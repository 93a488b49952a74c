"""RULES A1 (amended): the walk steps from the box its previous step named, so
`BestDirection` followed from (`BestX`, `BestY`) names, in order, the box each
stage-1 line of the computer is aimed at -- also when one line forms two boxes.
"""

from __future__ import annotations

import random

import pytest

from service.domain.ai import strategy_for
from service.domain.commands import Advance, NewGame, PlaceLine
from service.domain.events import LinePlaced, MoveExplained
from service.domain.fold import apply_all, fold
from service.domain.players import play_turn
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import GameState
from squares_testing.play import play_out

from .ai_support import game_positions, random_open_position

LEVELS = ("easy", "moderate", "hard", "expert")
STEP = {1: (2, 0), 2: (0, -2), 3: (-2, 0), 4: (0, 2)}  # RULES F3


def aimed_boxes(explained: MoveExplained) -> list[tuple[int, int]]:
    """The boxes (BestX, BestY) + BestDirection names, in order."""
    if explained.best_x is None:
        assert explained.best_direction == ()
        return []
    boxes = [(explained.best_x, explained.best_y)]
    for d in explained.best_direction:
        dx, dy = STEP[d]
        boxes.append((boxes[-1][0] + dx, boxes[-1][1] + dy))
    return boxes


def check_stage1_turn(state: GameState, events: list) -> int:
    """The stage-1 lines of the computer's turn are exactly the walk its
    explanation names: line i is a side of box i and forms it. Returns how many
    of its lines formed two boxes."""
    explained = [e for e in events if isinstance(e, MoveExplained) and e.stage == 1]
    assert len(explained) == 1
    lines = [e for e in events if isinstance(e, LinePlaced) and e.stage == 1]
    boxes = aimed_boxes(explained[0])
    assert len(lines) == len(boxes), (explained[0], lines)
    assert explained[0].best_point == sum(
        1 for e in lines for _, _, owner in e.squares if owner != ":")
    doubles = 0
    for line, (bx, by) in zip(lines, boxes, strict=True):
        assert (line.x, line.y) in ((bx, by - 1), (bx, by + 1), (bx - 1, by), (bx + 1, by))
        formed = [(x, y) for x, y, _ in line.squares]
        assert (bx, by) in formed, (explained[0], lines)
        doubles += len(formed) == 2
    return doubles


def _positions() -> list[GameState]:
    found = game_positions(range(40), size=(9, 13))
    found += game_positions(range(100, 110), size=(11, 15), level="moderate")
    rng = random.Random(16)
    for _ in range(30):
        state, _ = random_open_position(rng, size=(9, 11), open_count=rng.randint(10, 22),
                                        mode="computer_vs_computer")
        found.append(state)
    return found


POSITIONS = _positions()


@pytest.mark.parametrize("level", LEVELS)
def test_rule_A1_best_direction_replays_the_lines_played_at_every_level(level):
    doubles = 0
    for state in POSITIONS:
        doubles += check_stage1_turn(state, play_turn(state, strategy_for(level)))
    assert len(POSITIONS) > 150, len(POSITIONS)
    assert doubles >= 20  # the case the amendment is about does occur


def _issue_game() -> tuple[GameState, list]:
    # the issue's game, played by rules edition 1 (as then: 11 initial lines on 9 x 11)
    events = start_game(NewGame(seed=7, player_name="Cem", difficulty="hard",
                                mode="vs_computer", height=9, width=11, rules_edition=1))
    state = fold(events)
    commands = [PlaceLine(1, x, y) for x, y in ((1, 6), (4, 7), (6, 7), (7, 6), (9, 6), (8, 5))]
    commands += [Advance(1), PlaceLine(1, 8, 1), Advance(1), Advance(1)]
    for command in commands:
        decided = decide(state, command)
        events += decided
        state = apply_all(state, decided)
    return state, events


def test_rule_A1_the_walk_does_not_continue_from_the_second_box_of_a_line():
    """The issue's example: the line (6, 5) forms (5, 5) and (7, 5). The walk that
    goes on up to (7, 3) is a walk from (7, 5); it used to be explained as
    starting at (5, 5)."""
    state, _ = _issue_game()
    assert (state.turn, state.stage) == (2, 1)
    turn = play_turn(state, strategy_for("hard"))
    explained = next(e for e in turn if isinstance(e, MoveExplained))
    lines = [e for e in turn if isinstance(e, LinePlaced) and e.stage == 1]
    assert (lines[0].x, lines[0].y) == (6, 5)
    assert {(x, y) for x, y, _ in lines[0].squares} == {(5, 5), (7, 5)}
    assert (lines[1].x, lines[1].y) == (6, 3)  # forms (7, 3): up from (7, 5)
    assert (explained.best_x, explained.best_y) == (7, 5)
    assert explained.best_direction == (2, 3, 2, 3, 4, 4)
    assert explained.best_point == 8
    check_stage1_turn(state, turn)


def test_rule_A1_computer_vs_computer_hard_seed_4_replays_its_walks():
    turns: list[list] = []

    def check(state: GameState, turn: list) -> None:
        check_stage1_turn(state, turn)
        turns.append(turn)

    play_out(NewGame(seed=4, player_name="t", difficulty="hard", second_level="hard",
                     mode="computer_vs_computer", height=9, width=11),
             strategy_for("hard"), on_turn=check)
    assert len(turns) >= 3
