"""Shared by the tests of whole-game reviews (`review.game.review_game`, the
test_review_game_* files): games played in memory, the turns as the events tell
them, and the checks of a review against the events.

Each review is compared with what the events themselves say, read independently:
where each turn starts, the lines it drew, what its stage 1 scored, its stage-2 line;
on small fields the figures are recomputed with the rules-engine brute force of
`review_brute` (no review or AI code).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from service.domain import ai
from service.domain.ai.compact import Board
from service.domain.commands import NewGame, PlaceLine
from service.domain.events import (
    SEAT_LETTERS,
    Event,
    GameAbandoned,
    GameOver,
    LinePlaced,
    Point,
    StageAdvanced,
)
from service.domain.fold import apply, apply_all, fold
from service.domain.review.game import review_game
from service.domain.review.report import MISTAKES_SHOWN, Review, TurnReview
from service.domain.review.search import best_stage1
from service.domain.rules import decide
from service.domain.state import GameState
from squares_testing.play import play_out

from .helpers import Game
from .review_brute import brute_best, fresh, gives_per_slot

# -- games ----------------------------------------------------------------------


@cache
def cvc_game(size: tuple[int, int], seed: int, level: str = "easy") -> tuple[Event, ...]:
    """A finished computer-vs-computer game."""
    command = NewGame(seed=seed, player_name="t", difficulty=level, second_level=level,
                      mode="computer_vs_computer", height=size[0], width=size[1])
    return tuple(play_out(command, ai.strategy_for(level))[0])


def two_players(open_slots: Sequence[Point], size: tuple[int, int] = (7, 7),
                seed: int = 1) -> Game:
    return Game.at(open_slots, size=size, mode="two_players", seed=seed)


# -- the turns as the events tell them ---------------------------------------------


@dataclass
class Seen:
    seat: int
    start: int  # index of the turn's first decision in the events
    round: int
    played: list[Point] = field(default_factory=list)
    gained: int = 0  # regular squares of its stage-1 lines minus their penalties
    stage2: Point | None = None
    stage2_at: int | None = None  # index of the stage-2 line
    end: int | None = None  # index of the event that ended the turn (or the game)
    pieces_done: bool = False  # its stage 3 came and ended (advance, or a full board)


def seen_turns(events: Sequence[Event]) -> list[Seen]:
    """The turns of a game read from its events alone; a turn left (abandoned) in
    its stage 1 is not counted."""
    state = fold(events[:1])
    turns: list[Seen] = []
    current: Seen | None = None
    for i, event in enumerate(events[1:], start=1):
        if isinstance(event, LinePlaced | StageAdvanced) and current is None:
            current = Seen(state.turn, i, state.round)
        stage = state.stage
        state = apply(state, event)
        if current is None:
            continue
        if isinstance(event, LinePlaced) and event.stage == 1:
            current.played.append((event.x, event.y))
            letter = SEAT_LETTERS[current.seat]
            current.gained += sum(1 for *_, o in event.squares if o == letter) - event.penalty
        elif isinstance(event, LinePlaced):
            current.stage2, current.stage2_at = (event.x, event.y), i
        if isinstance(event, StageAdvanced) and event.stage == 1:
            current.end, current.pieces_done = i, True
        elif isinstance(event, GameOver):
            current.end, current.pieces_done = i, stage == 3
        elif isinstance(event, GameAbandoned):
            current.end = i if stage != 1 else None
        else:
            continue
        if current.end is not None:
            turns.append(current)
        current = None
    return turns


def exact_best(state: GameState) -> int:
    """A fresh stage 1's best on `state`'s board (`best_stage1`, exact)."""
    found = best_stage1(Board.of(state), None)
    assert found.exact
    return found.points


# -- the checks ---------------------------------------------------------------------


def check_turns(events: Sequence[Event], review: Review, brute: bool = False) -> None:
    """Every turn of `review` against the events (`brute`: its figures recomputed
    with the rules-engine brute force too)."""
    seen = seen_turns(events)
    assert [(t.seat, t.start_seq, t.round, list(t.stage1.played), t.stage1.gained)
            for t in review.turns] == [(s.seat, s.start, s.round, s.played, s.gained)
                                       for s in seen]
    for i, (t, s) in enumerate(zip(review.turns, seen, strict=True)):
        assert t.turn == i + 1
        first = events[t.start_seq]  # seq = index + 1: the event after start_seq
        assert isinstance(first, LinePlaced | StageAdvanced) and first.seat == t.seat
        before = fold(events[:t.start_seq])
        assert before.version == t.start_seq
        assert (before.turn, before.stage, before.chain, before.over) == (t.seat, 1, None, False)
        assert t.stage1.best >= t.stage1.gained
        assert t.stage1.lost == max(0, t.stage1.best - t.stage1.gained)
        assert t.stage1.exact
        # on the same board in a new game (whose seed is known, should it end)
        gained, _ = replay_lines(fresh(before), t.stage1.best_lines)
        assert gained == t.stage1.best
        if brute:
            assert t.stage1.best == brute_best(fresh(before))[0]
        # stage 2
        assert (t.stage2 is None) == (s.stage2 is None)
        if t.stage2 is not None and s.stage2_at is not None:
            assert (t.stage2.x, t.stage2.y) == s.stage2
            assert t.stage2.least_gives <= t.stage2.gives
            assert t.stage2.lost == t.stage2.gives - t.stage2.least_gives
            assert t.stage2.exact
            at_line = fold(events[:s.stage2_at])
            assert exact_best(fresh(at_line, [s.stage2])) == t.stage2.gives
            assert exact_best(fresh(at_line, [t.stage2.better])) == t.stage2.least_gives
            if brute:
                gives = gives_per_slot(at_line)
                assert gives[s.stage2] == t.stage2.gives
                assert min(gives.values()) == t.stage2.least_gives
                assert gives[t.stage2.better] == t.stage2.least_gives
        # the pieces: what the next player could take, minus what the line gave
        assert (t.pieces is not None) == (s.pieces_done and t.stage2 is not None)
        if t.pieces is not None and t.stage2 is not None and s.end is not None:
            after = fold(events[:s.end + 1])
            next_best = 0 if after.over else exact_best(after)
            assert t.pieces == next_best - t.stage2.gives
            if i + 1 < len(review.turns):
                assert review.turns[i + 1].stage1.best == t.stage2.gives + t.pieces


def replay_lines(state: GameState, lines: Sequence[Point]) -> tuple[int, GameState]:
    seat = state.turn
    before = state.scores[seat - 1]
    for x, y in lines:
        events = decide(state, PlaceLine(seat, x, y))
        assert isinstance(events[0], LinePlaced) and events[0].penalty == 0
        state = apply_all(state, events)
    return state.scores[seat - 1] - before, state


def check_summaries(review: Review) -> None:
    turns = review.turns
    for seat, summary in zip((1, 2), review.seats, strict=True):
        assert summary.seat == seat
        own = [t for t in turns if t.seat == seat]
        gained = sum(t.stage1.gained for t in own)
        best = sum(t.stage1.best for t in own)
        assert (summary.gained, summary.best) == (gained, best)
        lost = sum(t.stage1.lost for t in own)
        accuracy = (None if not own else 100 if lost == 0 else 0 if best <= 0
                    else min(99, round(100 * max(0, gained) / best)))
        assert summary.accuracy == accuracy
        assert (summary.accuracy == 100) == (bool(own) and lost == 0)  # never beside a loss
        assert summary.accuracy is None or 0 <= summary.accuracy <= 100
        assert summary.given_away == sum(t.stage2.lost for t in own if t.stage2)
        luck = sum(t.stage1.best if i == 0 else (turns[i - 1].pieces or 0)
                   for i, t in enumerate(turns) if t.seat == seat)
        assert summary.luck == luck
        expected = expected_mistakes(own)
        assert [(m.turn, m.stage, m.lost, m.played, m.better) for m in summary.mistakes] \
            == expected[:MISTAKES_SHOWN]
        assert len(summary.mistakes) <= MISTAKES_SHOWN
        losts = [m.lost for m in summary.mistakes]
        assert losts == sorted(losts, reverse=True) and all(v > 0 for v in losts)
        for m in summary.mistakes:
            t = turns[m.turn - 1]
            assert (t.round, t.start_seq, t.seat) == (m.round, m.start_seq, seat)


def expected_mistakes(own: list[TurnReview]) -> list[tuple[object, ...]]:
    found: list[tuple[object, ...]] = []
    for t in own:
        if t.stage1.best > t.stage1.gained:
            found.append((t.turn, 1, t.stage1.best - t.stage1.gained, t.stage1.played,
                          t.stage1.best_lines))
        if t.stage2 is not None and t.stage2.gives > t.stage2.least_gives:
            found.append((t.turn, 2, t.stage2.gives - t.stage2.least_gives,
                          ((t.stage2.x, t.stage2.y),), (t.stage2.better,)))
    found.sort(key=lambda m: (-m[2], m[0], m[1]))  # type: ignore[operator]
    return found


def check_review(events: Sequence[Event], brute: bool = False) -> Review:
    review = review_game(list(events))
    check_turns(events, review, brute)
    check_summaries(review)
    data = review.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert len(data["turns"]) == len(review.turns)
    assert data["exact"] is review.exact is True
    return review
