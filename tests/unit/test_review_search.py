"""The review's searches (`review.search`) against an independent brute force.

The brute force knows nothing of `service.domain.review` or `service.domain.ai`: it
plays every empty slot as a stage-1 line through the rules engine itself (`decide`
+ `apply_all`), so what the rules refuse (``stage1_needs_square``) is no move, and
a line whose events carry a penalty (only irregular squares, RULES T2: -5 and the
stage ends) is never better than stopping. Stopping is always allowed (RULES T1).
Positions are folded from a `GameCreated` whose initial lines are the ones wanted
(`helpers.position`), or reached in simulated games.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache

from service.domain import ai
from service.domain.ai.compact import Board, chain_of
from service.domain.board import geometry
from service.domain.commands import NewGame, PlaceLine, RuleViolation
from service.domain.events import LinePlaced, Point
from service.domain.fold import apply_all
from service.domain.review.least import least_giving
from service.domain.review.search import Best, best_stage1
from service.domain.rules import decide
from service.domain.state import GameState
from squares_testing.play import turn_starts

from .helpers import position

Size = tuple[int, int]
Memo = dict[tuple[bytes, tuple[Point, ...] | None], tuple[int, tuple[Point, ...]]]

# -- the independent brute force ------------------------------------------------


def brute_best(state: GameState) -> tuple[int, tuple[Point, ...]]:
    """The most the seat to move can still gain in this stage 1, and one way to,
    trying every empty slot through the rules engine."""
    assert state.stage == 1 and not state.over
    seat = state.turn
    memo: Memo = {}

    def go(st: GameState) -> tuple[int, tuple[Point, ...]]:
        key = (bytes(st.lines), st.chain)  # every line drawn here is the same seat's
        known = memo.get(key)
        if known is not None:
            return known
        best: tuple[int, tuple[Point, ...]] = (0, ())  # stopping: advance
        for x, y in st.empty_slot_points():
            try:
                events = decide(st, PlaceLine(seat, x, y))
            except RuleViolation as refused:
                assert refused.code == "stage1_needs_square"
                continue
            if any(isinstance(e, LinePlaced) and e.penalty for e in events):
                continue  # only irregular squares: -5 and stage 1 ends, worse than stopping
            after = apply_all(st, events)
            gained = after.scores[seat - 1] - st.scores[seat - 1]
            assert gained >= 1
            rest = go(after) if after.stage == 1 and not after.over else (0, ())
            if gained + rest[0] > best[0]:
                best = (gained + rest[0], ((x, y), *rest[1]))
        memo[key] = best
        return best

    return go(state)


def replay(state: GameState, lines: Iterable[Point]) -> tuple[int, GameState]:
    """Play `lines` as the seat's stage-1 lines; each must be accepted without a
    penalty. The score they gain and the state after them."""
    seat = state.turn
    before = state.scores[seat - 1]
    for x, y in lines:
        assert state.stage == 1 and state.turn == seat and not state.over
        events = decide(state, PlaceLine(seat, x, y))  # raises if refused
        assert isinstance(events[0], LinePlaced) and events[0].penalty == 0
        state = apply_all(state, events)
    return state.scores[seat - 1] - before, state


def points_of(state: GameState, slots: Sequence[int]) -> list[Point]:
    return [(s % state.width, s // state.width) for s in slots]


def inner_drawn(state: GameState) -> list[Point]:
    g = state.geometry
    return [g.xy(i) for i in g.inner_slots if state.lines[i]]


def fresh(state: GameState, extra: Iterable[Point] = ()) -> GameState:
    """A new game whose initial lines are `state`'s lines plus `extra`: seat 1 to
    move in a fresh stage 1 on that board."""
    drawn = inner_drawn(state) + list(extra)
    return position(drawn=drawn, size=(state.height, state.width))[0]


def snapshot(board: Board) -> tuple[bytes, bytes]:
    return bytes(board.lines), bytes(board.sides)


def check_best(state: GameState) -> int:
    """`best_stage1` from `state` (its chain included) agrees with the brute force,
    plays legally for exactly its points and leaves the board alone; its points."""
    expected, _ = brute_best(state)
    board = Board.of(state)
    before = snapshot(board)
    found = best_stage1(board, chain_of(state))
    assert snapshot(board) == before
    assert found.exact
    assert found.points == expected
    gained, _ = replay(state, points_of(state, found.lines))
    assert gained == found.points
    return expected


# -- positions ----------------------------------------------------------------


@cache
def game_starts(size: Size, seed: int, level: str) -> tuple[GameState, ...]:
    """The state at the start of every turn of a computer-vs-computer game."""
    command = NewGame(seed=seed, player_name="t", difficulty=level, second_level=level,
                      mode="computer_vs_computer", height=size[0], width=size[1])
    return tuple(turn_starts(command, ai.strategy_for(level)))


def all_game_starts() -> list[GameState]:
    return [s for size in ((7, 7), (7, 9), (9, 9), (9, 11)) for level in ("easy", "moderate")
            for seed in range(10) for s in game_starts(size, seed, level)]


def dense(rng: random.Random, size: Size, keep: float) -> GameState:
    """A position where each inner slot is drawn with probability `keep`."""
    g = geometry(*size)
    drawn = [g.xy(i) for i in g.inner_slots if rng.random() < keep]
    return position(drawn=drawn, size=size)[0]


@cache
def dense_positions() -> tuple[GameState, ...]:
    rng = random.Random(24)
    out = []
    for size in ((7, 7), (7, 9), (9, 9)):
        for _ in range(25):
            out.append(dense(rng, size, rng.uniform(0.5, 0.85)))
    return tuple(out)


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


# -- least_giving against the brute force ------------------------------------------


def gives_per_slot(state: GameState) -> dict[Point, int]:
    """For every empty slot: the opponent's best fresh stage 1 once it is drawn."""
    return {p: brute_best(fresh(state, [p]))[0] for p in state.empty_slot_points()}


def given(state: GameState, played: Point) -> Best:
    """What the line `played` gives, as `least_giving` takes it: the brute force's
    value after it and its sequence (slot indices)."""
    value, lines = brute_best(fresh(state, [played]))
    return Best(value, tuple(state.geometry.index(x, y) for x, y in lines), True, 0)


def least_positions() -> list[GameState]:
    starts = [s for size in ((7, 7), (7, 9)) for seed in range(3)
              for s in game_starts(size, seed, "easy")]
    rng = random.Random(11)
    extra = [dense(rng, (7, 7), rng.uniform(0.55, 0.8)) for _ in range(12)]
    extra += [dense(rng, (7, 9), rng.uniform(0.6, 0.8)) for _ in range(6)]
    return starts[::2] + extra + [snake(), fork(), double_start()]


def test_least_giving_matches_brute_force() -> None:
    rng = random.Random(3)
    nonzero = 0
    for state in least_positions():
        gives = gives_per_slot(state)
        if not gives:
            continue
        played = rng.choice(sorted(gives))
        g = state.geometry
        board = Board.of(state)
        before = snapshot(board)
        least = least_giving(board, g.index(*played), given(state, played))
        assert snapshot(board) == before
        assert least.exact
        assert least.points == min(gives.values())
        assert gives[g.xy(least.slot)] == least.points
        assert least.points <= gives[played]
        nonzero += least.points > 0
    assert nonzero >= 3  # some positions where every line gives something


def test_least_giving_keeps_the_played_line_when_nothing_is_better() -> None:
    state = snake()
    gives = gives_per_slot(state)
    played = min(gives, key=lambda p: (gives[p], p))
    least = least_giving(Board.of(state), state.geometry.index(*played),
                         given(state, played))
    assert least.points == gives[played] == min(gives.values())
    assert least.slot == state.geometry.index(*played) and least.exact


def test_least_giving_out_of_nodes_is_an_upper_bound_of_a_real_line() -> None:
    checked = 0
    for state in least_positions():
        gives = gives_per_slot(state)
        if not gives or min(gives.values()) == 0:
            continue
        played = max(gives, key=lambda p: (gives[p], p))
        board = Board.of(state)
        before = snapshot(board)
        index = state.geometry.index(*played)
        full = least_giving(board, index, given(state, played))
        assert full.exact
        for nodes in (1, 2, 5, max(1, full.nodes // 2)):
            if nodes >= full.nodes:
                continue
            short = least_giving(board, index, given(state, played), nodes=nodes)
            assert snapshot(board) == before
            assert not short.exact and short.nodes <= nodes
            assert full.points <= short.points <= gives[played]
            assert gives[state.geometry.xy(short.slot)] == short.points
            checked += 1
    assert checked >= 5
