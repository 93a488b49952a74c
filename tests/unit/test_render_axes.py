"""Axis labels on the text board (issue 14, item 6): the coordinates of RULES F2, the
same numbers as the web board, the hints and the captions."""

import re

from service.domain.render import axis_header, column_offsets, render, render_board

from .helpers import Game

ANSI = re.compile(r"\033\[[0-9;]*m")


def test_axes_number_every_column_and_row_of_a_small_board():
    game = Game.at([(2, 1), (4, 1), (2, 5)], size=(7, 7))
    game.line(2, 1)
    assert render_board(game.state, axes=True) == "\n".join(
        [
            "   0 1 2 3 4 5 6",
            " 0 +---+---+---+",
            " 1 | P |       |",
            " 2 +---+---+---+",
            " 3 | : | : | : |",
            " 4 +---+---+---+",
            " 5 |       | : |",
            " 6 +---+---+---+",
        ]
    )
    # without axes the board is the assignment's, unchanged
    assert render_board(game.state) == "\n".join(
        line[3:] for line in render_board(game.state, axes=True).splitlines()[1:])


def test_each_digit_stands_over_the_middle_of_its_column_on_the_default_field():
    game = Game.at(size=(19, 33), drawn=[(1, 2), (31, 16)], seed=1)
    lines = render_board(game.state, axes=True).splitlines()
    tens, units, rows = lines[0], lines[1], lines[2:]
    assert len(rows) == 19
    assert [row[:3] for row in rows] == [f"{y:>2} " for y in range(19)]
    offsets = column_offsets(33)
    for x, at in enumerate(offsets):
        middle = 3 + at + x % 2
        label = (tens[middle] if middle < len(tens) else " ") + units[middle]
        assert label.strip() == str(x), (x, label)
        # the board character under a dot column is a dot or a vertical line
        assert rows[0][middle] in "+-"
    # (1, 2) is drawn: the "---" right of the first dot of row 2, under column 1
    assert rows[2][3 + offsets[1]: 3 + offsets[1] + 3] == "---"


def test_axes_and_colour_together_and_in_the_whole_render():
    game = Game.at([(2, 1)], size=(7, 7))
    coloured = render(game.state, color=True, axes=True)
    assert ANSI.sub("", coloured) == render(game.state, axes=True)
    assert render(game.state, axes=True).startswith("   0 1 2 3 4 5 6\n 0 +---")


def test_the_header_has_one_line_below_ten_columns():
    assert axis_header(9) == ["   0 1 2 3 4 5 6 7 8"]
    assert len(axis_header(11)) == 2
