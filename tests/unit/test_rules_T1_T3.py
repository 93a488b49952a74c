"""RULES T1-T3: a turn's stage 1 (every line forms a square; squares in a chain are
regular and owned, others ownerless or, alone, a penalty that ends the stage; the
chain starts afresh in every stage 1) and its stage 2 (exactly one line, whose
squares are ownerless). The tests start from position A on a 9 x 9 field
(`rules_T_support`)."""

from service.domain.commands import Advance, PlaceLine
from service.domain.events import LinePlaced, StageAdvanced
from service.domain.rules import legal_actions
from service.domain.state import SEAT1, SYSTEM

from .helpers import Game
from .rules_T_support import game_a, refused


def owners(game: Game, *boxes) -> list[int]:
    return [game.state.owner_at(x, y) for x, y in boxes]


# -- T1 ------------------------------------------------------------------------


def test_rule_T1_stage1_refuses_a_line_that_forms_no_square():
    game = game_a()
    assert refused(game, PlaceLine(1, 4, 1)) == "stage1_needs_square"
    assert game.state.stage == 1 and game.state.version == 1
    game.line(2, 1)
    # Now (4, 1) forms (3, 1) and is accepted.
    (event,) = game.line(4, 1)
    assert event.squares == ((3, 1, "P"),)


def test_rule_T1_advance_to_stage2_is_allowed_before_any_square():
    game = game_a()
    assert game.advance() == [StageAdvanced(1, 2, 1, 1, "player")]
    assert game.state.stage == 2 and game.state.scores == [0, 0]


def test_rule_T1_advance_is_allowed_after_squares_too():
    game = game_a()
    game.line(2, 1)
    game.line(4, 1)
    assert game.advance() == [StageAdvanced(1, 2, 1, 1, "player")]
    assert game.state.scores == [2, 0]


# -- T2 ------------------------------------------------------------------------


def test_rule_T2_a_chain_of_neighbouring_squares_is_regular_and_owned():
    game = game_a()
    assert game.line(2, 1)[0].squares == ((1, 1, "P"),)
    assert game.line(4, 1)[0].squares == ((3, 1, "P"),)
    assert owners(game, (1, 1), (3, 1)) == [SEAT1, SEAT1]
    assert game.state.scores == [2, 0] and game.state.squares == [2, 0]
    assert game.state.stage == 1


def test_rule_T2_an_extra_irregular_square_beside_a_regular_one_is_ownerless_without_penalty():
    game = game_a()
    game.line(2, 1)
    game.line(4, 1)
    (event,) = game.line(6, 1)
    assert sorted(event.squares) == [(5, 1, "P"), (7, 1, ":")]
    assert event.penalty == 0
    assert owners(game, (5, 1), (7, 1)) == [SEAT1, SYSTEM]
    assert game.state.scores == [3, 0] and game.state.penalties == [0, 0]
    assert game.state.stage == 1  # the chain goes on


def test_rule_T2_irregular_only_line_costs_five_and_ends_stage1():
    game = game_a()
    game.line(2, 1)  # (1, 1), regular
    decided = game.line(3, 6)  # (3, 5) and (3, 7): neither touches (1, 1)
    line, advanced = decided
    assert isinstance(line, LinePlaced)
    assert sorted(line.squares) == [(3, 5, ":"), (3, 7, ":")]
    assert line.penalty == 5
    assert advanced == StageAdvanced(1, 2, 1, 1, "irregular_square")
    assert owners(game, (3, 5), (3, 7)) == [SYSTEM, SYSTEM]
    assert game.state.stage == 2 and game.state.turn == 1
    assert game.state.penalties == [1, 0]
    assert game.state.scores == [1 - 5, 0]
    assert game.state.squares == [1, 0]


def test_rule_T2_first_line_forming_two_squares_makes_both_regular():
    game = game_a()
    (event,) = game.line(1, 4)
    assert sorted(event.squares) == [(1, 3, "P"), (1, 5, "P")]
    assert game.state.scores == [2, 0]
    # Either of them continues the chain: (3, 5) touches (1, 5); (3, 7) touches neither.
    (event,) = game.line(3, 6)
    assert sorted(event.squares) == [(3, 5, "P"), (3, 7, ":")]
    assert not event.penalty and game.state.scores == [3, 0]


def test_rule_T2_only_the_previous_lines_regular_squares_continue_the_chain():
    game = game_a()
    game.line(2, 1)  # (1, 1)
    # (1, 3) touches (1, 1): regular. (1, 5) touches only (1, 3), formed by the same
    # line, not by the previous one: an extra irregular square.
    (event,) = game.line(1, 4)
    assert sorted(event.squares) == [(1, 3, "P"), (1, 5, ":")]
    assert not event.penalty
    # (3, 1) touches (1, 1), but the previous line's regular square is (1, 3).
    line, advanced = game.line(4, 1)
    assert line.squares == ((3, 1, ":"),) and line.penalty
    assert advanced.reason == "irregular_square"
    assert game.state.scores == [2 - 5, 0]


def test_rule_T2_the_chain_starts_afresh_in_every_stage1():
    game = game_a(seed=4)
    game.line(2, 1)  # seat 1: (1, 1)
    game.to_stage(3)
    game.advance()
    assert game.state.turn == 2 and game.state.stage == 1 and game.state.chain is None
    far = [
        (x, y)
        for x, y in legal_actions(game.state).lines
        if all(abs(bx - 1) + abs(by - 1) > 2 for bx, by in game.state.completing_boxes(x, y))
    ]
    assert far  # a line whose squares do not touch seat 1's square survived stage 3
    (event,) = game.line(*far[0])
    assert event.squares and all(owner == "C" for *_, owner in event.squares)
    assert not event.penalty


# -- T3 ------------------------------------------------------------------------


def test_rule_T3_stage2_refuses_advance_until_its_line_is_placed():
    game = game_a()
    game.advance()
    assert refused(game, Advance(1)) == "stage2_line_missing"
    game.line(4, 1)
    assert isinstance(game.advance()[0], StageAdvanced)
    assert game.state.stage == 3


def test_rule_T3_stage2_allows_exactly_one_line():
    game = game_a()
    game.advance()
    (event,) = game.line(4, 1)  # forms nothing: allowed in stage 2
    assert event.stage == 2 and event.squares == ()
    assert refused(game, PlaceLine(1, 2, 1)) == "stage2_line_done"


def test_rule_T3_stage2_squares_are_ownerless_without_penalty():
    game = game_a()
    game.line(2, 1)  # (1, 1)
    game.advance()
    ownerless = game.state.ownerless
    (event,) = game.line(4, 1)  # (3, 1) touches (1, 1), still ownerless in stage 2
    assert event.squares == ((3, 1, ":"),) and event.penalty == 0
    assert game.state.owner_at(3, 1) == SYSTEM
    assert game.state.scores == [1, 0] and game.state.penalties == [0, 0]
    assert game.state.squares == [1, 0] and game.state.ownerless == ownerless + 1
