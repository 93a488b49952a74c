"""RULES T4-T8: stage 3's random pieces (T4: inserted into empty slots, their boxes
ownerless, skipped when they fit nowhere, and the turn and round that follow; T8:
their connected shapes), game over the moment no empty slot remains, whatever the
stage (T5), and the score, which can go negative (T6). T7, the colours, is tested
in test_render.py."""

import itertools
import random

import pytest

from service.domain import pieces
from service.domain.commands import Advance, NewGame, PlaceLine
from service.domain.events import (
    GameOver,
    HighScoresEntered,
    LinePlaced,
    PieceInserted,
    SeedRevealed,
    StageAdvanced,
)
from service.domain.fold import fold
from service.domain.rules import legal_actions
from service.domain.start import start_game
from service.domain.state import EMPTY, SEAT1, SEAT2, SYSTEM

from .helpers import Game, of_type
from .rules_T_support import game_a, refused

# -- T4 ------------------------------------------------------------------------


def _new_game_in_stage3(seed: int) -> tuple[Game, list]:
    events = start_game(NewGame(seed=seed, player_name="Ada"))
    game = Game(fold(events), events)
    game.advance()
    game.line(*legal_actions(game.state).lines[0])
    before = game.state.copy()
    return game, (before, game.advance())


@pytest.mark.parametrize("seed", range(10))
def test_rule_T4_stage3_inserts_pieces_of_3_2_1_lines_into_empty_slots(seed):
    game, (before, decided) = _new_game_in_stage3(seed)
    assert decided[0] == StageAdvanced(1, 3, 1, 1, "player")
    inserted = decided[1:]
    assert [p.size for p in inserted] == [3, 2, 1]
    placed = set()
    for piece in inserted:
        assert isinstance(piece, PieceInserted) and piece.seat == 1
        assert len(piece.shape) == piece.size
        dots = pieces.piece_dots(piece.shape)
        assert min(x for x, _ in dots) == 0 and min(y for _, y in dots) == 0
        if piece.skipped:
            assert piece.lines == () and piece.tries == pieces.MAX_TRIES
            continue
        assert 1 <= piece.tries <= pieces.MAX_TRIES
        (ox, oy) = (piece.lines[0][0] - piece.shape[0][0], piece.lines[0][1] - piece.shape[0][1])
        assert ox % 2 == 0 and oy % 2 == 0
        assert piece.lines == tuple((x + ox, y + oy) for x, y in piece.shape)
        for x, y in piece.lines:
            assert before.line_at(x, y) == EMPTY and (x, y) not in placed
            assert game.state.line_at(x, y) == SYSTEM
            placed.add((x, y))
    assert game.state.empty_slots == before.empty_slots - len(placed)
    assert game.state.stage == 3 and game.state.turn == 1


def test_rule_T4_pieces_are_shifted_to_the_upper_left_by_even_steps():
    assert pieces.shift_upper_left(((3, 2), (3, 4))) == ((1, 0), (1, 2))
    assert pieces.shift_upper_left(((4, 3),)) == ((0, 1),)
    assert pieces.shift_upper_left(((3, 4), (4, 3), (2, 3))) == ((0, 1), (2, 1), (1, 2))
    # Already in the corner: unchanged.
    assert pieces.shift_upper_left(((1, 0), (0, 1))) == ((1, 0), (0, 1))


def test_rule_T4_boxes_formed_by_pieces_are_ownerless():
    found = 0
    for seed in range(40):
        # The top two box rows are open; (2, 5) is the stage-2 line.
        open_slots = [(1, 2), (3, 2), (5, 2), (2, 1), (4, 1), (2, 3), (4, 3), (2, 5)]
        game = Game.at(open_slots, size=(7, 7), seed=seed, rules_edition=1)  # 3 pieces
        game.advance()
        game.line(2, 5)
        decided = game.advance()
        for piece in of_type(decided, PieceInserted):
            for x, y in piece.squares:
                found += 1
                assert game.state.owner_at(x, y) == SYSTEM
        assert game.state.scores == [0, 0] and game.state.squares == [0, 0]
    assert found  # some pieces did form boxes


def test_rule_T4_a_piece_that_fits_nowhere_is_skipped_after_100_tries():
    # Only isolated single slots stay empty: no 3- or 2-line piece can fit (rules
    # edition 1: all three pieces are tried, also on this small field).
    game = Game.at([(1, 2), (5, 2), (3, 6), (7, 6)], size=(9, 9), seed=2, rules_edition=1)
    game.advance()
    game.line(1, 2)
    before = game.state.copy()
    decided = game.advance()
    three, two, one = of_type(decided, PieceInserted)
    for piece in (three, two):
        assert piece.skipped and piece.lines == () and piece.squares == ()
        assert piece.tries == 100
    assert one.size == 1 and (one.skipped or one.lines[0] in [(5, 2), (3, 6), (7, 6)])
    assert game.state.empty_slots == before.empty_slots - len(one.lines)


def test_rule_T4_place_piece_gives_up_after_exactly_100_tries():
    full = bytearray(b"\x01" * (19 * 33))
    draws = pieces.Draws(random.Random(1))
    lines, tries = pieces.place_piece(((1, 0),), 19, 33, full, draws)
    assert (lines, tries) == ((), 100)
    expected = random.Random(1)  # all 100 tries' offsets were drawn
    for _ in range(100):
        expected.randrange(0, 33, 2), expected.randrange(0, 19, 2)
    assert draws.below(255) == expected.randrange(255)


def test_rule_T4_place_piece_uses_only_empty_slots_inside_the_field():
    allowed = {(3, 2), (5, 2), (6, 3)}
    field = bytearray(0 if (x, y) in allowed else 1 for y in range(9) for x in range(9))
    shape = ((1, 0), (3, 0), (4, 1))
    for seed in range(20):
        lines, tries = pieces.place_piece(shape, 9, 9, field, pieces.Draws(random.Random(seed)))
        assert lines in ((), ((3, 2), (5, 2), (6, 3)))
        assert 1 <= tries <= 100


def test_rule_T4_the_turn_ends_with_advance_and_the_round_grows_after_seat_2():
    events = start_game(NewGame(seed=8, player_name="Ada"))
    game = Game(fold(events), events)
    game.to_stage(3)
    assert refused(game, PlaceLine(1, *game.state.empty_slot_points()[0])) == "wrong_stage"
    assert game.advance() == [StageAdvanced(1, 1, 2, 1, "player")]
    assert (game.state.turn, game.state.round, game.state.stage) == (SEAT2, 1, 1)
    assert refused(game, Advance(1)) == "not_your_turn"
    game.to_stage(3)
    assert game.advance() == [StageAdvanced(2, 1, 1, 2, "player")]
    assert (game.state.turn, game.state.round, game.state.stage) == (SEAT1, 2, 1)


# -- T5 ------------------------------------------------------------------------


def _assert_over(game: Game, stage: int) -> None:
    assert game.state.over and game.state.empty_slots == 0
    assert game.state.stage == stage
    assert isinstance(game.events[-3], GameOver)
    assert isinstance(game.events[-2], SeedRevealed)
    assert isinstance(game.events[-1], HighScoresEntered)
    assert legal_actions(game.state).seat is None
    for command in (Advance(1), Advance(2), PlaceLine(1, 1, 2), PlaceLine(game.state.turn, 9, 9)):
        assert refused(game, command) == "game_over"


def test_rule_T5_game_over_in_stage1_the_moment_the_last_slot_is_drawn():
    game = Game.at([(2, 1)], size=(7, 7))
    decided = game.line(2, 1)
    assert [type(e) for e in decided] == [LinePlaced, GameOver, SeedRevealed, HighScoresEntered]
    assert decided[1] == GameOver((2, 0), (2, 0), game.state.ownerless, 1)
    _assert_over(game, stage=1)


def test_rule_T5_game_over_on_a_penalised_last_line_does_not_advance_the_stage():
    game = Game.at([(2, 1), (4, 5)], size=(7, 7))
    game.line(2, 1)  # (1, 1) and (3, 1)
    decided = game.line(4, 5)  # (3, 5) and (5, 5): irregular, the last slot
    assert [type(e) for e in decided] == [LinePlaced, GameOver, SeedRevealed, HighScoresEntered]
    assert decided[0].penalty
    assert decided[1] == GameOver((2 - 5, 0), (2, 0), game.state.ownerless, 2)
    _assert_over(game, stage=1)


def test_rule_T5_game_over_in_stage2():
    game = Game.at([(2, 1)], size=(7, 7))
    game.advance()
    decided = game.line(2, 1)
    assert [type(e) for e in decided] == [LinePlaced, GameOver, SeedRevealed, HighScoresEntered]
    assert decided[1] == GameOver((0, 0), (0, 0), game.state.ownerless, 0)
    _assert_over(game, stage=2)


def test_rule_T5_game_over_in_stage3_stops_inserting_pieces():
    endings = 0
    for seed in range(30):
        game = Game.at([(2, 1), (4, 5)], size=(7, 7), seed=seed)
        game.advance()
        game.line(2, 1)
        decided = game.advance()  # one empty slot left for the pieces
        if not game.state.over:
            assert game.state.empty_slots == 1
            continue
        endings += 1
        kinds = [type(e) for e in decided]
        assert kinds[0] is StageAdvanced and kinds[-3:] == [GameOver, SeedRevealed, HighScoresEntered]
        inserted = of_type(decided, PieceInserted)
        assert inserted[-1].lines == ((4, 5),)
        assert kinds.index(GameOver) == len(inserted) + 1  # right after the last piece
        _assert_over(game, stage=3)
    assert endings  # the 1-line piece found the last slot for some seeds


# -- T6 ------------------------------------------------------------------------


def test_rule_T6_score_is_owned_squares_minus_five_per_penalty_and_can_go_negative():
    game = game_a()
    game.line(2, 1)
    game.line(3, 6)  # penalty
    state = game.state
    assert state.squares[0] == 1 and state.penalties[0] == 1
    assert state.scores[0] == state.squares[0] - 5 * state.penalties[0] == -4
    assert state.scores[1] == 0


# -- T8 ------------------------------------------------------------------------


def _all_connected_shapes(size: int) -> set:
    return {
        pieces.shift_upper_left(tuple(sorted(combo, key=lambda p: (p[1], p[0]))))
        for combo in itertools.combinations(pieces.BOX_SLOTS, size)
        if len(pieces.piece_dots(combo)) == size + 1
    }


@pytest.mark.parametrize("size", [1, 2, 3])
def test_rule_T8_a_piece_of_k_lines_touches_k_plus_1_dots_in_a_5x5_box(size):
    shapes = set()
    draws = pieces.Draws(random.Random(size))
    for _ in range(1000):
        raw = pieces.generate_shape(size, draws)
        assert len(set(raw)) == size
        assert all(0 <= x < 5 and 0 <= y < 5 and (x + y) % 2 == 1 for x, y in raw)
        assert len(pieces.piece_dots(raw)) == size + 1
        shifted = pieces.shift_upper_left(raw)
        assert len(pieces.piece_dots(shifted)) == size + 1
        shapes.add(shifted)
    # Exactly the connected shapes come out, and all of them: for 3 lines both
    # paths and branches (three lines meeting at one dot).
    assert shapes == _all_connected_shapes(size)
    assert len(shapes) == {1: 2, 2: 6, 3: 20}[size]
    if size == 3:
        assert ((1, 0), (0, 1), (2, 1)) in shapes  # a path: a U around the top-left box
        assert ((2, 1), (1, 2), (3, 2)) in shapes  # a branch: a T meeting at dot (2, 2)
