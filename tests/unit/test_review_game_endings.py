"""The review of a game by how it ends (`review.game.review_game`): the board filled
up in stage 1, 2 or 3, in seeded computer games and in games built here for two
humans, a stage-1 penalty line among them and a penalty line that fills the board;
each review checked against the events and the rules-engine brute force."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from service.domain.events import Event, GameOver, LinePlaced
from squares_testing.greedy import Greedy

from .helpers import Game
from .review_games import check_review, cvc_game, two_players
from .review_positions import between, path_slots


def ending_stage(events: Sequence[Event]) -> int:
    """The stage in which the board filled up."""
    i = next(i for i, e in enumerate(events) if isinstance(e, GameOver))
    last = events[i - 1]
    return last.stage if isinstance(last, LinePlaced) else 3


@cache
def natural_endings() -> dict[int, tuple[Event, ...]]:
    """Small seeded games whose board filled up in stage 1, 2 and 3."""
    found: dict[int, tuple[Event, ...]] = {}
    for seed in range(100):  # a 7 × 9 stage 3 draws one line (edition 3): seed 76 ends in it
        events = cvc_game((7, 9), seed)
        found.setdefault(ending_stage(events), events)
        if len(found) == 3:
            break
    assert sorted(found) == [1, 2, 3]
    return found


def test_review_of_a_game_that_ends_in_stage_1() -> None:
    events = natural_endings()[1]
    review = check_review(events, brute=True)
    last = review.turns[-1]
    assert last.stage2 is None and last.pieces is None
    assert last.stage1.played


def test_review_of_a_game_that_ends_in_stage_2() -> None:
    events = natural_endings()[2]
    review = check_review(events, brute=True)
    last = review.turns[-1]
    assert last.stage2 is not None and last.pieces is None
    assert last.stage2.gives == last.stage2.least_gives == 0


def test_review_of_a_game_that_ends_in_stage_3() -> None:
    events = natural_endings()[3]
    review = check_review(events, brute=True)
    last = review.turns[-1]
    assert last.stage2 is not None and last.pieces is not None
    assert last.pieces == -last.stage2.gives  # nothing is left for anybody


def test_a_constructed_game_that_ends_in_stage_1() -> None:
    game = two_players(path_slots([(0, 0), (1, 0), (2, 0)]))
    game.line(*between((0, 0), (1, 0)))
    game.line(*between((1, 0), (2, 0)))  # (1, 0) regular, (2, 0) ownerless
    assert game.state.over
    review = check_review(game.events, brute=True)
    (turn,) = review.turns
    assert (turn.seat, turn.stage1.gained, turn.stage1.best) == (1, 2, 2)
    assert turn.stage2 is None and turn.pieces is None
    one, two = review.seats
    assert (one.accuracy, one.luck, one.mistakes) == (100, 2, ())
    assert (two.gained, two.best, two.accuracy, two.luck) == (0, 0, None, 0)  # no turn


def test_a_constructed_game_that_ends_in_stage_2() -> None:
    game = two_players([between((0, 0), (1, 0))])
    game.advance()  # leaves two boxes untaken
    game.line(*between((0, 0), (1, 0)))  # stage 2: the last slot
    assert game.state.over
    review = check_review(game.events, brute=True)
    (turn,) = review.turns
    assert (turn.stage1.played, turn.stage1.gained, turn.stage1.best) == ((), 0, 2)
    assert turn.stage2 is not None and turn.stage2.gives == turn.stage2.least_gives == 0
    assert turn.pieces is None
    (mistake,) = review.seats[0].mistakes
    assert (mistake.turn, mistake.stage, mistake.lost) == (1, 1, 2)
    assert mistake.better == (between((0, 0), (1, 0)),)
    assert review.seats[0].accuracy == 0


def test_a_penalty_line_counts_in_the_stage_1_gained() -> None:
    """Two squares, then a line forming only irregular squares: 2 - 5 (RULES T2),
    and stage 1 ends by itself."""
    chain = between((0, 0), (1, 0))
    far = between((0, 2), (1, 2))  # not next to (0, 0) or (1, 0)
    cross = [(5, 2), (7, 2), (6, 1), (6, 3)]  # around a dot: its boxes keep two sides
    game = two_players([chain, far, *cross], size=(7, 9))
    game.line(*chain)  # (0, 0) and (1, 0) at once: +2
    game.line(*far)  # (0, 2) and (1, 2): ownerless, -5
    assert game.state.stage == 2 and game.state.scores[0] == -3
    finish(game)
    review = check_review(game.events, brute=True)
    first = review.turns[0]
    assert (first.stage1.gained, first.stage1.best, first.stage1.lost) == (-3, 2, 5)
    assert review.seats[0].accuracy == 0


def test_a_penalty_line_that_fills_the_board() -> None:
    chain = path_slots([(0, 0), (1, 0)])
    far = path_slots([(2, 2), (1, 2)])
    game = two_players(chain + far)
    game.line(*chain[0])  # (0, 0) and (1, 0) at once: +2
    game.line(*far[0])  # (2, 2), (1, 2): not next to the chain: ownerless, -5
    assert game.state.over and game.state.scores[0] == -3
    review = check_review(game.events, brute=True)
    (turn,) = review.turns
    assert (turn.stage1.gained, turn.stage1.best, turn.stage1.lost) == (-3, 2, 5)
    assert turn.stage2 is None and turn.pieces is None
    assert review.seats[0].accuracy == 0


def finish(game: Game) -> None:
    """Play the game to its end with the greedy test strategy."""
    strategy = Greedy()
    while not game.state.over:
        game.run(strategy.next_command(game.state))
