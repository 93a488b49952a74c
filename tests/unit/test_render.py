"""The plain-text board (assignment style) and RULES T7's colours and highlights."""

import re

from service.domain.commands import Explain
from service.domain.events import MoveExplained
from service.domain.render import render, render_board, render_status

from .helpers import Game

BLUE, RED, GREEN, BOLD, RESET = "\033[34m", "\033[31m", "\033[32m", "\033[1m", "\033[0m"
ANSI = re.compile(r"\033\[[0-9;]*m")


def _game() -> Game:
    return Game.at([(2, 1), (4, 1), (2, 5)], size=(7, 7))


def test_render_draws_dots_lines_and_owner_letters_in_the_assignment_style():
    game = _game()
    game.line(2, 1)
    assert render_board(game.state) == "\n".join(
        [
            "+---+---+---+",
            "| P |       |",
            "+---+---+---+",
            "| : | : | : |",
            "+---+---+---+",
            "|       | : |",
            "+---+---+---+",
        ]
    )


def test_render_status_shows_round_turn_stage_scores_and_squares():
    game = _game()
    game.line(2, 1)
    assert render_status(game.state).splitlines() == [
        "Round: 1  Turn : Ada  Stage: 1",
        "H.Score : 1  C.Score : 0",
        "H.Squares : 1  C.Squares : 0  Ownerless : 4",
    ]
    assert render(game.state) == render_board(game.state) + "\n" + render_status(game.state)


def test_render_status_names_seats_p1_p2_without_a_computer_and_announces_the_end():
    game = Game.at([(2, 1)], size=(7, 7), mode="two_players")
    game.line(2, 1)
    status = render_status(game.state)
    assert "P1.Score : 2  P2.Score : 0" in status
    assert status.splitlines()[-1] == "Game over: Ada 2, Bob 0 - Ada wins"


def _big_game(mode: str = "vs_computer") -> Game:
    """19 x 33 with two inner lines: (2, 1) forms the top-left box, (30, 17) the
    bottom-right one; the rest of the field leaves the random pieces room (with
    this seed they do not take (30, 17); the tests check that first)."""
    return Game.at(size=(19, 33), drawn=[(1, 2), (31, 16)], mode=mode, seed=1)


def _stage2_line(game: Game) -> None:
    free = [p for p in game.state.empty_slot_points() if p[0] in range(10, 20)]
    game.line(*free[0])


def _end_turn(game: Game) -> None:
    if game.state.stage == 1:
        game.advance()
    if game.state.stage == 2:
        _stage2_line(game)
    game.advance()
    game.advance()


def test_render_status_shows_the_computer_ai_explanation_and_random_pieces():
    game = _big_game("computer_vs_computer")
    game.run(Explain(1, "hard", 10, 15, 13, (4, 4, 3), 3, 500, "stage1"))
    assert isinstance(game.events[-1], MoveExplained)
    assert (
        "--- Computer AI --- BestPoint : 10  BestX : 15  BestY : 13  BestDirection : 4, 4, 3"
        in render_status(game.state)
    )
    game.advance()
    _stage2_line(game)
    game.advance()
    reported = [line for line in render_status(game.state).splitlines() if "Random Piece" in line]
    assert [line.split()[3] for line in reported] == ["3", "2", "1"]


def test_rule_T7_colours_human_blue_computer_red_ownerless_green():
    game = _big_game()
    game.line(2, 1)  # Ada: the top-left box
    _end_turn(game)
    assert game.state.turn == 2 and game.state.line_at(30, 17) == 0
    game.line(30, 17)  # the computer: the bottom-right box
    board = render_board(game.state, color=True)
    assert f"{BLUE} P {RESET}" in board and f"{BLUE}|{RESET}" in board
    assert f"{RED} C {RESET}" in board and f"{RED}|{RESET}" in board
    assert f"{GREEN}---{RESET}" in board and f"{GREEN}|{RESET}" in board  # walls, random lines
    assert ANSI.sub("", board) == render_board(game.state)
    assert "\033" not in render_board(game.state)


def test_rule_T7_ownerless_squares_are_green():
    game = Game.at([(2, 1)], size=(7, 7))
    board = render_board(game.state, color=True)
    assert f"{GREEN} : {RESET}" in board


def test_rule_T7_the_lines_and_squares_of_the_last_turn_are_highlighted():
    game = _big_game()
    game.line(2, 1)
    board = render_board(game.state, color=True)
    assert f"{BOLD}{BLUE} P {RESET}" in board and f"{BOLD}{BLUE}|{RESET}" in board
    assert BOLD + GREEN not in board  # walls and initial lines are not recent
    _end_turn(game)  # still the last turn while the computer plays
    board = render_board(game.state, color=True)
    assert f"{BOLD}{BLUE} P {RESET}" in board
    assert BOLD + GREEN in board  # seat 1's random pieces are recent too
    assert game.state.line_at(30, 17) == 0  # the pieces left it for the computer
    game.line(30, 17)
    _end_turn(game)  # now seat 1's first turn is two turns ago
    board = render_board(game.state, color=True)
    assert f"{BLUE} P {RESET}" in board and f"{BOLD}{BLUE} P {RESET}" not in board
    assert f"{BOLD}{RED} C {RESET}" in board
