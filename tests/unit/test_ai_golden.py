"""Golden digests of the computer player's decisions: any change to a single move,
explanation, hint or work counter shows here.

The digests were computed on the code before the AI's speed-ups (branch ai-speed);
a speed-up must leave every one of them as it is. Each is the SHA-256 of a text
built from the events (`event_to_json`), the hints' commands, the decisions'
fields and the work counters (`stage1.Stats`). To see the current digests (only
after a change meant to alter play):

    .venv/bin/python -m tests.unit.test_ai_golden
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterator

import pytest

from service.domain.ai import ComputerPlayer, hint, stage2
from service.domain.ai.compact import Board
from service.domain.commands import NewGame
from service.domain.event_codec import event_to_json
from service.domain.fold import apply_all
from service.domain.players import play_turn
from service.domain.rules import decide
from service.domain.start import LEVELS
from service.domain.state import GameState
from squares_testing import worst
from squares_testing.play import new_game

PAIRS = list(itertools.product(LEVELS, LEVELS))  # every level in each seat
SMALL_FIELDS = ((7, 9), (9, 13))
EDITIONS = (1, 2)
LARGE_GAMES = (  # 19 x 33: (seed, seat 1, seat 2, rules edition)
    (3, "easy", "expert", 1), (4, "expert", "hard", 2),
    (5, "moderate", "expert", 2), (6, "expert", "moderate", 1), (7, "hard", "easy", 2),
)
HINTED_GAMES = (  # (seed, field, computer level, rules edition): hints at every position
    (40, (9, 13), "easy", 2), (41, (9, 13), "hard", 1), (42, (7, 9), "expert", 2),
    (43, (11, 15), "moderate", 2), (44, (19, 33), "easy", 2), (45, (9, 13), "easy", 2),
    (46, (9, 13), "expert", 2), (47, (9, 13), "moderate", 1), (48, (7, 9), "easy", 1),
    (49, (11, 15), "expert", 1), (50, (19, 33), "hard", 1), (51, (9, 13), "easy", 2),
)


def _digest(lines: Iterator[str]) -> str:
    h = hashlib.sha256()
    for line in lines:
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def _stats(players: dict[int, ComputerPlayer]) -> str:
    return " ".join(f"{seat}:{p.stats.walks},{p.stats.nodes},{p.stats.leaves}"
                    for seat, p in sorted(players.items()))


def _game(command: NewGame) -> Iterator[str]:
    """A whole computer-vs-computer game: its events, then each seat's work counters
    (one player per seat for the whole game)."""
    events, state = new_game(command)
    players = {seat: ComputerPlayer(state.seat_info(seat).level or "easy") for seat in (1, 2)}
    yield from map(event_to_json, events)
    while not state.over:
        turn = play_turn(state, players[state.turn])
        yield from map(event_to_json, turn)
        state = apply_all(state, turn)
    yield _stats(players)


def _cvc(seed: int, size: tuple[int, int], first: str, second: str, edition: int) -> NewGame:
    return NewGame(seed=seed, player_name="golden", difficulty=first, second_level=second,
                   mode="computer_vs_computer", height=size[0], width=size[1],
                   rules_edition=edition)


def small_games() -> Iterator[str]:
    for size, edition, (first, second), seed in itertools.product(
            SMALL_FIELDS, EDITIONS, PAIRS, (1, 2, 3)):
        yield f"game {size} {edition} {first} {second} {seed}"
        yield from _game(_cvc(seed * 100 + len(first), size, first, second, edition))


def large_games() -> Iterator[str]:
    for seed, first, second, edition in LARGE_GAMES:
        yield f"game 19x33 {edition} {first} {second} {seed}"
        yield from _game(_cvc(seed, (19, 33), first, second, edition))


def _hinted(seed: int, size: tuple[int, int], level: str, edition: int,
            seen: dict[str, int]) -> Iterator[str]:
    """A game against the computer whose human seat plays the hints, with the hint
    at every position (also at the computer's)."""
    events, state = new_game(NewGame(seed=seed, player_name="golden", difficulty=level,
                                     height=size[0], width=size[1], rules_edition=edition))
    computer = ComputerPlayer(level)
    yield from map(event_to_json, events)
    while not state.over:
        advice = hint(state)
        yield repr(advice)
        _count(state, seen)
        command = advice if state.seat_info(state.turn).kind == "human" else \
            computer.next_command(state)
        decided = decide(state, command)
        yield from map(event_to_json, decided)
        state = apply_all(state, decided)
    yield _stats({2: computer})


def _count(state: GameState, seen: dict[str, int]) -> None:
    """What kinds of hinted positions the games cover."""
    kind = f"stage {state.stage}"
    if state.stage == 2 and not state.stage2_line_placed:
        kind += " safe" if stage2.safe_lines(Board.of(state)) else " unsafe"
    seen[kind] = seen.get(kind, 0) + 1


def hinted_games(seen: dict[str, int] | None = None) -> Iterator[str]:
    seen = {} if seen is None else seen
    for seed, size, level, edition in HINTED_GAMES:
        yield f"hinted {seed} {size} {level} {edition}"
        yield from _hinted(seed, size, level, edition, seen)


def crafted() -> Iterator[str]:
    """Every level's stage-1 plan and stage-2 line on the crafted worst positions
    (budgets reached, rough figures), then a whole expert game from each on 9 x 13."""
    for kind, (height, width) in itertools.product(worst.KINDS, ((9, 13), (19, 33))):
        state = worst.position(kind, height, width)
        for level in LEVELS:
            player = ComputerPlayer(level)
            yield f"{kind} {height}x{width} {level} {player.stage1(state)!r}"
            yield f"{player.stage2(state)!r} {_stats({1: player})}"
    for kind in worst.KINDS:
        state = worst.position(kind, 9, 13)
        players = {seat: ComputerPlayer("expert") for seat in (1, 2)}
        while not state.over:
            turn = play_turn(state, players[state.turn])
            yield from map(event_to_json, turn)
            state = apply_all(state, turn)
        yield _stats(players)


GOLDEN: dict[str, tuple[Callable[[], Iterator[str]], str]] = {
    "small_games": (small_games,
        "1d5bb5673252b0defedeb3eace45a35073ba438b3f9715514970eba1bad92959"),
    "large_games": (large_games,
        "e2aea67fc6885a71db679b8d172e20ddc1015b54a053ee714cd053c3b0ada913"),
    "hinted_games": (hinted_games,
        "277e5eab173d2ec6c143b264d8ec404aa61ccf840d99126f4ef42e46ac28f45a"),
    "crafted": (crafted,
        "994d8a75f296e3a14e077fa9775dfeece111ff0e7cb4d33387d9987774052010"),
}


@pytest.mark.parametrize("name", list(GOLDEN))
def test_the_decisions_are_the_golden_ones(name):
    make, expected = GOLDEN[name]
    assert _digest(make()) == expected


def test_the_hinted_games_cover_every_stage():
    seen: dict[str, int] = {}
    for _ in hinted_games(seen):
        pass
    assert all(seen.get(kind, 0) >= 5 for kind in
               ("stage 1", "stage 2 safe", "stage 2 unsafe", "stage 3")), seen


if __name__ == "__main__":
    for key, (make, _) in GOLDEN.items():
        print(f"{key}: {_digest(make())}")
