"""RULES F: the field, its coordinates, directions, and drawing each slot once."""

import pytest

from service.domain.board import (
    DIRECTIONS,
    FieldSizeError,
    box_sides,
    check_size,
    geometry,
    is_box,
    is_line_slot,
)
from service.domain.commands import NewGame, PlaceLine, RuleViolation
from service.domain.events import LinePlaced
from service.domain.fold import apply, fold
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import SEAT1, SYSTEM, CorruptStream

from .helpers import Game, created, position


def _violation(state, command) -> str:
    with pytest.raises(RuleViolation) as info:
        decide(state, command)
    return info.value.code


# -- F1 ------------------------------------------------------------------------


def test_rule_F1_default_field_is_19_by_33_with_10x17_dots_and_9x16_boxes():
    (game,) = start_game(NewGame(seed=3, player_name="Ada"))
    assert (game.height, game.width) == (19, 33)
    g = geometry()
    dots = [(x, y) for y in range(g.height) for x in range(g.width) if x % 2 == 0 and y % 2 == 0]
    assert len(dots) == 10 * 17
    assert len(g.boxes) == 9 * 16
    assert len(g.slots) == 10 * 16 + 9 * 17


@pytest.mark.parametrize("size", [(7, 7), (9, 9), (7, 81), (41, 7), (41, 81), (21, 35)])
def test_rule_F1_odd_sizes_within_limits_are_allowed(size):
    height, width = size
    (game,) = start_game(NewGame(seed=1, player_name="Ada", height=height, width=width))
    state = fold([game])
    assert (state.height, state.width) == size
    assert len(state.lines) == height * width


@pytest.mark.parametrize(
    "size", [(8, 9), (9, 8), (20, 33), (5, 5), (5, 33), (19, 5), (43, 33), (19, 83), (0, 0), (-7, 7)]
)
def test_rule_F1_even_or_out_of_limit_sizes_are_refused_with_invalid_field_size(size):
    height, width = size
    with pytest.raises(RuleViolation) as info:
        start_game(NewGame(seed=1, player_name="Ada", height=height, width=width))
    assert info.value.code == "invalid_field_size"
    with pytest.raises(FieldSizeError):
        check_size(height, width)


# -- F2 ------------------------------------------------------------------------


def test_rule_F2_cell_kinds_follow_the_parity_of_x_and_y():
    assert not is_line_slot(0, 0) and not is_box(0, 0)  # dot
    assert is_line_slot(1, 0) and not is_box(1, 0)  # horizontal slot
    assert is_line_slot(0, 1) and not is_box(0, 1)  # vertical slot
    assert is_box(1, 1) and not is_line_slot(1, 1)  # box
    assert box_sides(15, 13) == ((15, 12), (15, 14), (14, 13), (16, 13))


def test_rule_F2_x_is_the_column_and_y_the_row():
    # A field 7 rows high and 11 columns wide: x runs to 10, y only to 6.
    state, _ = position([(9, 2)], size=(7, 11))
    assert state.width == 11 and state.height == 7
    assert state.line_at(10, 1) == SYSTEM  # right wall, a vertical slot at column 10
    assert state.line_at(9, 6) == SYSTEM  # bottom wall, a horizontal slot on row 6
    assert _violation(state, PlaceLine(1, 2, 9)) == "out_of_field"
    (line, *_) = decide(state, PlaceLine(1, 9, 2))  # column 9, row 2
    assert isinstance(line, LinePlaced)
    assert sorted(s[:2] for s in line.squares) == [(9, 1), (9, 3)]  # the boxes above and below


@pytest.mark.parametrize("x, y", [(2, 2), (0, 0), (4, 6)])
def test_rule_F2_a_dot_is_not_a_line_slot(x, y):
    state, _ = position(size=(7, 7), drawn=[])
    assert _violation(state, PlaceLine(1, x, y)) == "not_a_line_slot"


@pytest.mark.parametrize("x, y", [(1, 1), (3, 5), (5, 5)])
def test_rule_F2_a_box_is_not_a_line_slot(x, y):
    state, _ = position(size=(7, 7), drawn=[])
    assert _violation(state, PlaceLine(1, x, y)) == "not_a_line_slot"


@pytest.mark.parametrize("x, y", [(-1, 2), (2, -1), (7, 2), (2, 7), (100, 100), (1, -2)])
def test_rule_F2_points_outside_the_field_are_out_of_field(x, y):
    state, _ = position(size=(7, 7), drawn=[])
    assert _violation(state, PlaceLine(1, x, y)) == "out_of_field"


# -- F3 ------------------------------------------------------------------------


def test_rule_F3_directions_are_right_up_left_down_two_cells_apart():
    assert DIRECTIONS == {1: (2, 0), 2: (0, -2), 3: (-2, 0), 4: (0, 2)}


def test_rule_F3_box_neighbours_use_the_directions_and_stay_inside():
    g = geometry(9, 9)
    index = g.index
    assert dict(g.neighbours[index(3, 3)]) == {
        1: index(5, 3),
        2: index(3, 1),
        3: index(1, 3),
        4: index(3, 5),
    }
    assert dict(g.neighbours[index(1, 1)]) == {1: index(3, 1), 4: index(1, 3)}
    assert dict(g.neighbours[index(7, 7)]) == {2: index(7, 5), 3: index(5, 7)}


# -- F4 ------------------------------------------------------------------------


@pytest.mark.parametrize("x, y", [(1, 0), (0, 3), (6, 5), (3, 6)])
def test_rule_F4_a_wall_slot_is_taken(x, y):
    state, _ = position(size=(7, 7), drawn=[])
    assert _violation(state, PlaceLine(1, x, y)) == "slot_taken"


def test_rule_F4_an_initial_or_placed_line_cannot_be_drawn_again():
    game = Game.at([(2, 1), (4, 1)], size=(7, 7))
    assert _violation(game.state, PlaceLine(1, 1, 2)) == "slot_taken"  # initial line
    game.line(2, 1)
    assert game.state.line_at(2, 1) == SEAT1
    assert _violation(game.state, PlaceLine(1, 2, 1)) == "slot_taken"


def test_rule_F4_a_stream_drawing_a_slot_twice_does_not_fold():
    game = Game.at([(2, 1), (4, 1)], size=(7, 7))
    (first,) = game.line(2, 1)
    with pytest.raises(CorruptStream):
        fold([*game.events, first])
    with pytest.raises(CorruptStream):
        fold([created([(2, 1)], size=(7, 7)), LinePlaced(1, 1, 2, 1, (), 0)])


def test_rule_F4_a_box_is_formed_by_its_fourth_side_and_its_owner_never_changes():
    game = Game.at([(2, 1), (4, 1), (2, 5)], size=(7, 7))
    assert game.state.owner_at(1, 1) == 0  # three sides drawn: not formed yet
    game.line(2, 1)
    assert game.state.owner_at(1, 1) == SEAT1
    # The rest of the game (lines in stage 2, random pieces in stage 3, the other seat)
    # never touches that owner again.
    while not game.state.over:
        if game.state.stage == 3:
            game.advance()
        else:
            game.to_stage(3)
        assert game.state.owner_at(1, 1) == SEAT1
    # A stream in which a later line claims the formed box again is refused.
    claim_again = LinePlaced(1, 4, 1, 1, ((1, 1, "P"), (3, 1, "P"), (5, 1, "P")), 0)
    with pytest.raises(CorruptStream):
        apply(fold(game.events[:2]), claim_again)
