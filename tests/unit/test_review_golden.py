"""Golden digests of the game review (`service.domain.review`): any change to a single
figure of a review, or to the work units it spent, shows here.

The digests were computed on the review's code before its speed-ups (branch
review-speed); a speed-up must leave every one of them as it is. Each is the SHA-256
of a text made of, per game, a label, the review's JSON (``to_dict``, sorted keys)
and its work units (``units``, which decide which turns are approximate). The games:
computer-vs-computer at every level on 7 x 9 and 9 x 13 and a few on 19 x 33, both
rules editions; games whose seat 1 plays the hints (the load benchmark's) or plays
greedily (as people do, leaving chains behind); games left (abandoned) at many
points; and crafted games (`squares_testing.crafted`) whose reviews reach their
budgets, some with smaller budgets. To see the current digests (only after a change
meant to alter reviews, with `ALGORITHM` raised):

    .venv/bin/python -m tests.unit.test_review_golden
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterator, Sequence

import pytest

from service.domain.ai import ComputerPlayer, hint
from service.domain.commands import Abandon, NewGame
from service.domain.events import Event, GameOver
from service.domain.fold import apply_all, fold
from service.domain.review import review_game
from service.domain.rules import decide
from service.domain.start import LEVELS
from squares_testing.crafted import nobody_takes
from squares_testing.greedy import Greedy
from squares_testing.play import new_game, own_level, play_out

EDITIONS = (1, 2)
SMALL_FIELDS = ((7, 9), (9, 13))
LARGE_GAMES = (  # 19 x 33: (seed, seat 1, seat 2, rules edition)
    (1, "easy", "easy", 2), (2, "moderate", "hard", 1), (3, "hard", "expert", 2),
    (4, "expert", "moderate", 1), (5, "easy", "hard", 1), (6, "moderate", "moderate", 2),
    (7, "hard", "easy", 2), (8, "easy", "moderate", 1),
)
GREEDY_GAMES = (  # a greedy seat 1: (seed, field, seat 2, rules edition)
    (10, (9, 13), "easy", 2), (11, (9, 13), "hard", 1), (12, (11, 15), "moderate", 2),
    (13, (19, 33), "easy", 2), (14, (19, 33), "moderate", 1), (15, (19, 33), "hard", 2),
    (16, (19, 33), "easy", 1), (17, (19, 33), "moderate", 2), (18, (19, 33), "easy", 2),
)
HINTED_GAMES = (  # seat 1 plays the hints against the computer: (seed, edition)
    (20, 2), (21, 2), (22, 1), (23, 2), (24, 2), (25, 1), (26, 2), (27, 2), (28, 1), (29, 2),
)
CRAFTED = (  # (height, width, how nobody takes or "greedy" players, budgets: None for
    # the review's own; the tiny ones leave turns where what was played beats the best found)
    (9, 13, "threes", None), (11, 15, "safe", None), (19, 33, "first", None),
    (25, 51, "threes", None),
    (19, 33, "threes", {"stage1_nodes": 2_000, "stage2_nodes": 4_000, "units": 20_000}),
    (41, 81, "safe", {"stage1_nodes": 500, "stage2_nodes": 3_000, "units": 8_000}),
    (41, 81, "greedy", None),
    (41, 81, "greedy", {"stage1_nodes": 30, "stage2_nodes": 300, "units": 5_000}),
)


def _digest(lines: Iterator[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def _reviewed(label: str, events: Sequence[Event], **budgets: int) -> Iterator[str]:
    review = review_game(events, **budgets)
    yield label
    yield json.dumps(review.to_dict(), sort_keys=True)
    yield f"units {review.units}"


def _cvc(seed: int, size: tuple[int, int], first: str, second: str, edition: int) -> NewGame:
    return NewGame(seed=seed, player_name="golden", difficulty=first, second_level=second,
                   mode="computer_vs_computer", height=size[0], width=size[1],
                   rules_edition=edition)


def small_games() -> Iterator[str]:
    for size, edition, (first, second), seed in itertools.product(
            SMALL_FIELDS, EDITIONS, itertools.product(LEVELS, LEVELS), (1, 2)):
        events = play_out(_cvc(seed * 100 + len(second), size, first, second, edition))[0]
        yield from _reviewed(f"small {size} {edition} {first} {second} {seed}", events)


def large_games() -> Iterator[str]:
    for seed, first, second, edition in LARGE_GAMES:
        events = play_out(_cvc(seed, (19, 33), first, second, edition))[0]
        yield from _reviewed(f"large {seed} {first} {second} {edition}", events)


def greedy_games() -> Iterator[str]:
    greedy = Greedy()
    for seed, size, level, edition in GREEDY_GAMES:
        events = play_out(_cvc(seed, size, "easy", level, edition),
                          lambda state: greedy if state.turn == 1 else own_level(state))[0]
        yield from _reviewed(f"greedy {seed} {size} {level} {edition}", events)


def hinted_games() -> Iterator[str]:
    """9 x 13 against the easy computer, seat 1 playing the hints (as `benchmarks/load.py`)."""
    computer = ComputerPlayer("easy")
    for seed, edition in HINTED_GAMES:
        events, state = new_game(NewGame(seed=seed, player_name="golden", difficulty="easy",
                                         height=9, width=13, rules_edition=edition))
        while not state.over:
            command = hint(state) if state.turn == 1 else computer.next_command(state)
            decided = decide(state, command)
            events.extend(decided)
            state = apply_all(state, decided)
        yield from _reviewed(f"hinted {seed} {edition}", events)


def abandoned_games() -> Iterator[str]:
    """Games left at many points: in every stage, also in the middle of a stage 1."""
    for seed, size, first, second in ((30, (9, 13), "easy", "moderate"),
                                      (31, (19, 33), "moderate", "easy")):
        events = play_out(_cvc(seed, size, first, second, 2))[0]
        end = next(i for i, e in enumerate(events) if isinstance(e, GameOver))
        for cut in range(end // 2, end, 3):
            state = fold(events[:cut])
            if state.over:
                continue
            left = events[:cut] + decide(state, Abandon("idle"))
            yield from _reviewed(f"abandoned {seed} {cut}", left)


def crafted_games() -> Iterator[str]:
    greedy = Greedy()
    for height, width, how, budgets in CRAFTED:
        if how == "greedy":  # as `benchmarks/review.py --parts crafted`
            events = play_out(_cvc(11, (height, width), "hard", "hard", 2), greedy)[0]
        else:
            events = nobody_takes(height, width, how)
        yield from _reviewed(f"crafted {height}x{width} {how} {budgets}", events,
                             **(budgets or {}))


GOLDEN: dict[str, tuple[Callable[[], Iterator[str]], str]] = {
    "small_games": (small_games,
        "b86c550716ab8d9cab2edb44da1d6240c40c09c92c74581a4dbbcbe892d62c87"),
    "large_games": (large_games,
        "61163efb429a8c1764d607bafd6bdf12f9e3157121642a4de99f12bad73c956c"),
    "greedy_games": (greedy_games,
        "78496c2e779fcd0643872717ee9bb623e258af0705ee9dec7bff36087c150c50"),
    "hinted_games": (hinted_games,
        "6be705cba0ab050d457fa7bf5b22af52f99fc1c81da8830361203944423b049c"),
    "abandoned_games": (abandoned_games,
        "97e5b1057e9ec1faa9ea395435dd0c42ebdf0a86180fe002488d23d258803322"),
    "crafted_games": (crafted_games,
        "a4b87f78db2effa028797e6c84b31cf6ebf5216291910dce308532a98d831003"),
}


@pytest.mark.parametrize("name", list(GOLDEN))
def test_the_reviews_are_the_golden_ones(name):
    make, expected = GOLDEN[name]
    assert _digest(make()) == expected


if __name__ == "__main__":
    for key, (make, _) in GOLDEN.items():
        print(f"{key}: {_digest(make())}")
