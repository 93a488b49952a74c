"""RULES I: the start of a game."""

import random

import pytest

from service.domain import seeds as seeds_module
from service.domain.board import geometry
from service.domain.commands import Advance, NewGame, RuleViolation
from service.domain.events import GameCreated, PieceInserted
from service.domain.fold import fold
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import EMPTY, SEAT1, SYSTEM
from squares_testing.greedy import Greedy
from squares_testing.play import play_out


def _start(seed=5, **kwargs):
    (game,) = start_game(NewGame(seed=seed, player_name="Ada", **kwargs))
    return game, fold([game])


def test_rule_I1_all_50_outer_walls_are_drawn_on_the_default_field():
    _, state = _start()
    g = state.geometry
    assert len(g.wall_slots) == 50
    assert all(state.lines[i] == SYSTEM for i in g.wall_slots)
    walls = {g.xy(i) for i in g.wall_slots}
    assert (1, 0) in walls and (31, 18) in walls and (0, 17) in walls and (32, 1) in walls
    assert (1, 2) not in walls and (2, 1) not in walls


@pytest.mark.parametrize("size, walls", [((7, 7), 12), ((9, 11), 18), ((41, 81), 120)])
def test_rule_I1_walls_enclose_any_field(size, walls):
    _, state = _start(height=size[0], width=size[1])
    g = state.geometry
    assert len(g.wall_slots) == walls
    assert all(state.lines[i] == SYSTEM for i in g.wall_slots)


def test_rule_I2_ninety_distinct_random_inner_lines_on_the_default_field():
    game, state = _start(seed=11)
    g = state.geometry
    inner = {g.xy(i) for i in g.inner_slots}
    assert len(inner) == 263
    assert len(game.initial_lines) == 90
    assert len(set(game.initial_lines)) == 90
    assert set(game.initial_lines) <= inner
    drawn_inner = [i for i in g.inner_slots if state.lines[i] != EMPTY]
    assert len(drawn_inner) == 90
    assert state.empty_slots == 263 - 90


def _slot_counts(height: int, width: int) -> tuple[int, int]:
    """(all line slots, wall slots) of a field, counted from its dots."""
    rows, cols = (height + 1) // 2, (width + 1) // 2  # dots
    slots = rows * (cols - 1) + (rows - 1) * cols
    walls = 2 * (cols - 1) + 2 * (rows - 1)
    return slots, walls


@pytest.mark.parametrize(
    "size, expected", [((19, 33), 90), ((7, 7), 4), ((9, 9), 8), ((13, 21), 36), ((41, 81), 527)]
)
def test_rule_I2_edition_1_initial_lines_scale_with_the_inner_slot_count(size, expected):
    slots, walls = _slot_counts(*size)
    inner = slots - walls
    assert len(geometry(*size).inner_slots) == inner
    assert round(90 * inner / 263) == expected
    game, _ = _start(height=size[0], width=size[1], rules_edition=1)
    assert game.rules_edition == 1
    assert len(game.initial_lines) == expected
    assert len(set(game.initial_lines)) == expected


@pytest.mark.parametrize(
    "size, expected",
    [((19, 33), 90), ((7, 7), 0), ((7, 9), 0), ((9, 9), 2), ((9, 13), 6), ((13, 21), 29),
     ((41, 81), 527)],
)
def test_rule_I2_small_fields_draw_no_larger_share_of_their_slots_than_the_default(
        size, expected):
    """Rule choice (issue 26, rules edition 2): the start scales by inner slots as
    before, but never draws a larger share of all slots, walls included, than the
    default field's 50 + 90 of 313: on small fields the walls already draw more."""
    slots, walls = _slot_counts(*size)
    scaled = round(90 * (slots - walls) / 263)
    same_share = round(140 * slots / 313) - walls
    assert max(0, min(scaled, same_share)) == expected
    game, _ = _start(height=size[0], width=size[1], rules_edition=2)
    assert game.rules_edition == 2
    assert len(set(game.initial_lines)) == len(game.initial_lines) == expected


@pytest.mark.parametrize("seed", range(8))
def test_rule_I3_boxes_formed_at_the_start_are_ownerless(seed):
    # A dense start forms boxes for most seeds (edition 1's on a small field).
    _, state = _start(seed=seed, height=7, width=11, rules_edition=1)
    g = state.geometry
    formed = [b for b in g.boxes if state.sides[b] == 4]
    assert all(state.owners[b] == SYSTEM for b in formed)
    assert all(state.owners[b] == EMPTY for b in g.boxes if state.sides[b] < 4)
    assert state.ownerless == len(formed)
    assert state.scores == [0, 0] and state.squares == [0, 0]


def test_rule_I3_a_start_with_formed_boxes_exists_and_they_score_for_nobody():
    seeds_with_boxes = [s for s in range(50) if _start(seed=s, height=13, width=21)[1].ownerless]
    assert seeds_with_boxes  # a 13 x 21 start forms boxes for some seeds
    _, state = _start(seed=seeds_with_boxes[0], height=13, width=21)
    assert state.ownerless > 0 and state.scores == [0, 0]


def test_rule_I4_the_human_moves_first_in_round_1_stage_1():
    _, state = _start()
    assert state.seat_info(1).kind == "human"
    assert (state.turn, state.round, state.stage) == (SEAT1, 1, 1)
    with pytest.raises(RuleViolation) as info:
        decide(state, Advance(2))
    assert info.value.code == "not_your_turn"


def test_rule_I5_the_same_seed_gives_the_same_initial_lines():
    assert _start(seed=42)[0] == _start(seed=42)[0]
    assert _start(seed=42)[0].initial_lines != _start(seed=43)[0].initial_lines
    assert _start(seed=42)[0].seed == "42"  # a practice game's seed is public


def _whole_game(seed: int) -> list:
    return play_out(NewGame(seed=seed, player_name="x", mode="computer_vs_computer"),
                    Greedy())[0]


def test_rule_I5_the_stream_holds_every_random_outcome_and_fold_never_draws_randoms(
    monkeypatch,
):
    events = _whole_game(seed=9)
    pieces = [e for e in events if isinstance(e, PieceInserted)]
    assert pieces and all(p.shape and (p.lines or p.skipped) for p in pieces)
    assert isinstance(events[0], GameCreated) and len(events[0].initial_lines) == 90
    expected = fold(events)

    class NoRandomness(random.Random):
        def __init__(self, *args, **kwargs):
            raise AssertionError("fold must not create a random generator")

    def no_random(*args, **kwargs):
        raise AssertionError("fold must not draw a random number")

    monkeypatch.setattr(random, "Random", NoRandomness)
    monkeypatch.setattr(seeds_module.random, "Random", NoRandomness)
    for name in ("random", "randrange", "choice", "sample", "shuffle", "randint"):
        monkeypatch.setattr(random, name, no_random)
    with pytest.raises(AssertionError):  # the trap is armed
        seeds_module.game_rng("1", 1, "pieces")
    assert fold(events) == expected
