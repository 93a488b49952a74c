"""The review's best stage 1 (`review.search.best_stage1`) against the independent
brute force of `review_brute`: at every turn of simulated games, on dense random
positions and on hand-drawn ones (a long chain, a fork, one line forming two boxes,
an irregular square the chain does not go on from), in the middle of a stage 1 too;
out of nodes or given `enough` it stops early with points it can really take, and it
leaves the board as it was."""

from __future__ import annotations

import random
from functools import cache

from service.domain.ai.compact import Board
from service.domain.commands import PlaceLine
from service.domain.events import LinePlaced
from service.domain.fold import apply_all
from service.domain.review.search import best_stage1
from service.domain.rules import decide
from service.domain.state import GameState

from .helpers import position
from .review_brute import brute_best, check_best, points_of, replay, snapshot
from .review_positions import (
    SNAKE,
    Size,
    between,
    cell,
    dense,
    double_start,
    fork,
    game_starts,
    open_position,
    path_slots,
    snake,
)


def all_game_starts() -> list[GameState]:
    return [s for size in ((7, 7), (7, 9), (9, 9), (9, 11)) for level in ("easy", "moderate")
            for seed in range(10) for s in game_starts(size, seed, level)]


@cache
def dense_positions() -> tuple[GameState, ...]:
    rng = random.Random(24)
    out = []
    for size in ((7, 7), (7, 9), (9, 9)):
        for _ in range(25):
            out.append(dense(rng, size, rng.uniform(0.5, 0.85)))
    return tuple(out)


def regular_and_irregular() -> GameState:
    """A -> B, then the line B|D forms B (regular, next to A) and D (irregular: not
    next to A, RULES T2), so the chain goes on from B only (one box below it), not
    from D (three boxes beyond it)."""
    a, b, d = (0, 0), (1, 0), (2, 0)
    return open_position(
        path_slots([a, b, d])
        + path_slots([(1, 1), (1, 2)])  # below B: one line forms both, (1, 2) irregular
        + path_slots([(3, 0), (3, 1), (3, 2), (2, 2)]),  # next to D only
        (7, 9))


# -- best_stage1 against the brute force ---------------------------------------


def test_best_stage1_matches_brute_force_at_every_turn_of_simulated_games() -> None:
    values = [check_best(state) for state in all_game_starts()]
    assert len(values) > 100
    assert max(values) >= 4 and values.count(0) < len(values)


def test_best_stage1_matches_brute_force_on_dense_random_positions() -> None:
    values = [check_best(state) for state in dense_positions()]
    assert max(values) >= 6
    assert sum(v >= 3 for v in values) >= 10


def seeded_dense(size: Size, seed: int) -> GameState:
    rng = random.Random(seed)
    return dense(rng, size, rng.uniform(0.5, 0.9))


# Positions (field, seed of `seeded_dense`) where the best sequence is completed from
# a position the search had already searched by another order of lines (its memo):
# the reported lines are then rebuilt from the memo.
THROUGH_THE_MEMO = [((7, 9), 741), ((7, 9), 950), ((7, 9), 1041), ((9, 9), 712),
                    ((9, 9), 748), ((9, 9), 808), ((9, 9), 856), ((9, 9), 888),
                    ((9, 11), 31), ((9, 11), 36), ((9, 11), 1071), ((9, 11), 1183)]


def test_best_stage1_when_the_best_line_goes_through_the_memo() -> None:
    values = [check_best(seeded_dense(size, seed)) for size, seed in THROUGH_THE_MEMO]
    assert max(values) >= 14


def test_best_stage1_matches_brute_force_on_larger_dense_fields() -> None:
    values = [check_best(seeded_dense(size, seed))
              for size in ((9, 11), (11, 11)) for seed in range(30)]
    assert max(values) >= 12


def test_best_stage1_on_a_long_chain_taken_to_its_end() -> None:
    state = snake()
    assert check_best(state) == 11
    # from the middle, after two of its lines: the chain goes on from there
    _, middle = replay(state, path_slots(SNAKE)[:2])
    assert middle.chain == (cell(SNAKE[1]),)
    assert check_best(middle) == 9
    # the last line: one regular square and one ownerless, no penalty
    before = middle.ownerless
    gained, end = replay(middle, path_slots(SNAKE)[2:])
    assert gained == 9 and end.ownerless == before + 1


def test_best_stage1_on_a_fork() -> None:
    state = fork()
    # an arm and into the fork box is 3 at most; no way back along another arm
    assert check_best(state) == 3


def test_best_stage1_when_one_line_forms_two_boxes() -> None:
    state = double_start()
    assert check_best(state) == 6
    board = Board.of(state)
    found = best_stage1(board, None)
    assert points_of(state, found.lines)[0] == between((0, 0), (1, 0))


def test_best_stage1_does_not_chain_on_from_an_irregular_square() -> None:
    state = regular_and_irregular()
    value = check_best(state)
    # the line B|D after A|B forms B regular and D ownerless (irregular), no penalty
    gained, after = replay(state, [between((0, 0), (1, 0)), between((1, 0), (2, 0))])
    assert gained == 2 and after.chain == (cell((1, 0)),)
    assert after.ownerless == state.ownerless + 1
    assert check_best(after) == 1  # (1, 1) next to B; nothing from D
    # from the start: (1, 1) and (1, 2) at once (both regular, the first line), then
    # (2, 2), (3, 2), (3, 1) (and (3, 0), irregular)
    assert value == 5


def test_best_stage1_mid_stage1_continues_the_chain() -> None:
    """Positions in the middle of a stage 1 (a chain given): as the rules go on."""
    rng = random.Random(5)
    checked = 0
    sources = list(dense_positions()) + all_game_starts()[::3]
    for state in sources:
        for _ in range(rng.randint(1, 3)):
            options = [(x, y) for x, y in state.empty_slot_points() if state.completing_boxes(x, y)]
            rng.shuffle(options)
            for x, y in options:
                events = decide(state, PlaceLine(state.turn, x, y))
                if not any(isinstance(e, LinePlaced) and e.penalty for e in events):
                    state = apply_all(state, events)
                    break
            else:
                break
        if state.chain is None or state.over or state.stage != 1:
            continue
        check_best(state)
        checked += 1
    assert checked > 40


def test_best_stage1_with_a_chain_ignores_three_sided_boxes_elsewhere() -> None:
    """Next to the chain there is nothing; a box far away is not regular any more."""
    state = open_position(path_slots([(0, 0), (1, 0)]) + path_slots([(2, 2), (1, 2)]), (7, 7))
    _, after = replay(state, [between((0, 0), (1, 0))])  # forms both
    assert after.stage == 1 and after.chain is not None and len(after.chain) == 2
    assert check_best(after) == 0
    assert best_stage1(Board.of(state), None).points == 2


# -- budgets, enough, the board untouched -----------------------------------------


def hard_positions() -> list[GameState]:
    """Positions whose exact search draws many lines."""
    found = [s for s in dense_positions() if best_stage1(Board.of(s), None).nodes >= 30]
    assert len(found) >= 5
    return found[:8]


def test_best_stage1_out_of_nodes_keeps_an_achievable_lower_bound() -> None:
    for state in [*hard_positions(), snake()]:
        board = Board.of(state)
        before = snapshot(board)
        full = best_stage1(board, None)
        assert full.exact and full.nodes <= 100_000
        # the exact search fits its own count; one line less does not
        assert best_stage1(board, None, nodes=full.nodes).exact
        budgets = sorted({1, 2, 3, 5, 8, full.nodes // 3, full.nodes // 2, full.nodes - 1})
        for nodes in budgets:
            short = best_stage1(board, None, nodes=nodes)
            assert snapshot(board) == before
            assert not short.exact
            assert short.nodes <= nodes
            assert 0 <= short.points <= full.points
            gained, _ = replay(state, points_of(state, short.lines))
            assert gained == short.points


def test_best_stage1_enough_stops_early_with_at_least_that_much() -> None:
    for state in [*hard_positions(), snake(), fork()]:
        board = Board.of(state)
        before = snapshot(board)
        full = best_stage1(board, None)
        for enough in range(1, full.points + 2):
            early = best_stage1(board, None, enough=enough)
            assert snapshot(board) == before
            assert early.exact
            assert early.nodes <= full.nodes
            if enough <= full.points:
                assert full.points >= early.points >= enough
            else:
                assert early.points == full.points
            gained, _ = replay(state, points_of(state, early.lines))
            assert gained == early.points
        if full.points:  # the first sequence found is enough: no line beside it drawn
            first = best_stage1(board, None, enough=1)
            assert first.points >= 1 and first.nodes <= len(first.lines)


def test_best_stage1_with_nothing_to_take() -> None:
    state = position(drawn=[], size=(7, 7))[0]  # the walls only: two sides at most
    found = best_stage1(Board.of(state), None)
    assert found.points == brute_best(state)[0] == 0
    assert found.lines == () and found.exact
