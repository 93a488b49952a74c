"""RULES V: one event per fact, and the state as a pure fold of the events.

V3 (two writers racing for one sequence number) is a storage rule and is tested
with the event store, not here.
"""

import dataclasses
import json

import pytest

from service.domain.commands import NewGame, PlaceLine
from service.domain.event_codec import event_from_dict, event_to_json
from service.domain.events import (
    Event,
    GameCreated,
    GameOver,
    HighScoresEntered,
    LinePlaced,
    PieceInserted,
    SeedRevealed,
    StageAdvanced,
)
from service.domain.fold import apply, fold
from service.domain.replay_check import replay_check
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import CorruptStream
from squares_testing.greedy import Greedy
from squares_testing.play import play_out

from .helpers import Game


def _greedy_game(seed: int, **kwargs) -> list[Event]:
    """A ranked game played to its end (its seed revealed in its last events)."""
    return play_out(NewGame(seed=seed, player_name="Ada", ranked=True, **kwargs), Greedy())[0]


SEED = "17"  # the secret of `whole_game`: checking a prefix needs it (as `verify` has it)


@pytest.fixture(scope="module")
def whole_game() -> list[Event]:
    return _greedy_game(seed=int(SEED))


# -- V1 --------------------------------------------------------------------------


def test_rule_V1_game_creation_is_one_event_and_the_version_counts_events():
    events = start_game(NewGame(seed=1, player_name="Ada"))
    assert [type(e) for e in events] == [GameCreated]
    assert fold(events).version == 1


def test_rule_V1_a_line_and_an_advance_are_one_event_each():
    game = Game.at([(2, 1), (4, 1), (2, 5)], size=(7, 7))
    assert [type(e) for e in game.line(2, 1)] == [LinePlaced]
    assert [type(e) for e in game.advance()] == [StageAdvanced]
    assert game.state.version == len(game.events) == 3


def test_rule_V1_entering_stage3_is_one_advance_plus_one_event_per_piece_even_skipped():
    # rules edition 1: all three pieces, also on this small field
    game = Game.at([(1, 2), (5, 2), (3, 6), (7, 6)], size=(9, 9), seed=2, rules_edition=1)
    game.advance()
    game.line(1, 2)
    decided = game.advance()
    assert [type(e) for e in decided] == [StageAdvanced] + [PieceInserted] * 3
    assert [p.skipped for p in decided[1:3]] == [True, True]


def test_rule_V1_every_event_of_a_whole_game_has_a_gap_free_position(whole_game):
    state = fold(whole_game[:1])
    for position, event in enumerate(whole_game[1:], start=2):
        state = apply(state, event)
        assert state.version == position
    assert isinstance(whole_game[-3], GameOver)
    assert whole_game[-2] == SeedRevealed(SEED)  # the ranked game's secret, at its end
    assert isinstance(whole_game[-1], HighScoresEntered)
    kinds = {type(e) for e in whole_game}
    assert {GameCreated, LinePlaced, StageAdvanced, PieceInserted} <= kinds


def test_rule_V1_events_are_json_safe_versioned_and_round_trip(whole_game):
    for event in whole_game:
        raw = json.loads(event_to_json(event))
        assert set(raw) == {"type", "v", "data"} and raw["v"] == type(event).VERSION
        assert event_from_dict(raw) == event
        assert event_to_json(event_from_dict(raw)) == event_to_json(event)


# -- V2 --------------------------------------------------------------------------


def test_rule_V2_folding_the_first_k_events_equals_applying_them_one_by_one(whole_game):
    state = fold(whole_game[:1])
    for k in range(2, len(whole_game) + 1):
        state = apply(state, whole_game[k - 1])
        assert fold(whole_game[:k]) == state


def test_rule_V2_apply_and_decide_leave_their_input_state_untouched(whole_game):
    state = fold(whole_game[:40])
    snapshot = state.copy()
    apply(state, whole_game[40])
    assert state == snapshot
    game = Game.at([(2, 1), (4, 1)], size=(7, 7))
    before = game.state.copy()
    decide(game.state, PlaceLine(1, 2, 1))
    assert game.state == before


def test_rule_V2_the_projection_holds_board_scores_round_turn_stage_and_last_moves(whole_game):
    state = fold(whole_game)
    assert state.over and state.empty_slots == 0
    over = whole_game[-3]
    assert tuple(state.scores) == over.scores and tuple(state.squares) == over.squares
    assert state.ownerless == over.ownerless and state.winner == over.winner
    assert state.round >= 2 and state.turn in (1, 2) and state.stage in (1, 2, 3)
    assert state.current_turn.lines or state.last_turn is not None


def test_rule_V2_a_stream_must_start_with_game_created_and_stop_at_game_over(whole_game):
    with pytest.raises(CorruptStream):
        fold(whole_game[1:])
    with pytest.raises(CorruptStream):
        fold([])
    with pytest.raises(CorruptStream):
        fold([*whole_game[:-1], whole_game[5]])  # an event after game_over


def test_rule_V2_a_stream_whose_lines_contradict_the_board_does_not_fold(whole_game):
    i, line = next(
        (i, e) for i, e in enumerate(whole_game) if isinstance(e, LinePlaced) and e.squares
    )
    lying = dataclasses.replace(line, squares=())
    with pytest.raises(CorruptStream):
        fold([*whole_game[:i], lying])


def test_rule_V2_stage3_pieces_come_as_3_2_1_before_the_turn_ends(whole_game):
    start = next(
        i for i, e in enumerate(whole_game) if isinstance(e, StageAdvanced) and e.stage == 3
    )
    three, two, one = whole_game[start + 1 : start + 4]
    assert (three.size, two.size, one.size) == (3, 2, 1)
    head = whole_game[: start + 1]
    with pytest.raises(CorruptStream):  # a piece left out
        fold([*head, three, one])
    with pytest.raises(CorruptStream):  # the wrong order
        fold([*head, two, three])
    with pytest.raises(CorruptStream):  # the turn ends without its last piece
        fold([*head, three, two, whole_game[start + 4]])
    with pytest.raises(CorruptStream):  # a fourth piece
        fold([*head, three, two, one, dataclasses.replace(one, lines=(), skipped=True)])


def test_rule_V2_replay_check_accepts_a_real_game_and_every_prefix_of_it(whole_game):
    assert replay_check(whole_game) == fold(whole_game)
    for k in range(1, len(whole_game), 37):
        assert replay_check(whole_game[:k], partial_tail=True, secret_seed=SEED) == fold(whole_game[:k])


def test_rule_V2_replay_check_refuses_stored_pieces_that_break_T4(whole_game):
    i, piece = next(
        (i, e)
        for i, e in enumerate(whole_game)
        if isinstance(e, PieceInserted) and e.size == 1 and not e.skipped
    )
    state = fold(whole_game[:i])
    x, shape = piece.lines[0][0], piece.shape
    # An empty slot of the other orientation that forms nothing: the board alone
    # would accept the line there, but the piece is horizontal or vertical.
    other = next(
        (a, b)
        for a, b in state.empty_slot_points()
        if a % 2 != x % 2 and not state.completing_boxes(a, b)
    )
    turned = dataclasses.replace(piece, lines=(other,))
    fold([*whole_game[:i], turned])  # fits the board ...
    with pytest.raises(CorruptStream):  # ... but not RULES T4
        replay_check([*whole_game[:i], turned], secret_seed=SEED)
    for tampered in (
        dataclasses.replace(piece, tries=0),
        dataclasses.replace(piece, tries=101),
        dataclasses.replace(piece, shape=(shape[0], shape[0])),
        dataclasses.replace(piece, lines=(), skipped=True, tries=7),
    ):
        with pytest.raises(CorruptStream):
            replay_check([*whole_game[:i], tampered], secret_seed=SEED)
    assert replay_check([*whole_game[:i], piece], secret_seed=SEED) == fold(whole_game[: i + 1])


def test_rule_V2_replay_check_refuses_a_wrong_game_over_after_random_pieces():
    for seed in range(200):
        events = _greedy_game(seed, height=7, width=7)
        k = next(i for i, e in enumerate(events) if isinstance(e, GameOver))
        if isinstance(events[k - 1], PieceInserted):
            break
    else:
        pytest.fail("no game ended during stage 3")
    over = events[k]
    for tampered in (
        dataclasses.replace(over, winner=(over.winner + 1) % 3),
        dataclasses.replace(over, ownerless=over.ownerless + 1),
    ):
        with pytest.raises(CorruptStream):
            replay_check([*events[:k], tampered, *events[k + 1 :]])
    assert replay_check(events) == fold(events)
