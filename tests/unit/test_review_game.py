"""The review of whole games (`review.game.review_game`), checked against the events.

Games are played in memory (computer against computer, the greedy test strategy, or
commands chosen here for a human seat). Each review is compared with what the events
themselves say, read independently: where each turn starts, the lines it drew, what
its stage 1 scored, its stage-2 line; on small fields the figures are recomputed with
the rules-engine brute force of `test_review_search` (no review or AI code).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import pytest

from service.domain import ai
from service.domain.ai.compact import Board
from service.domain.commands import Abandon, Advance, NewGame, PlaceLine
from service.domain.events import (
    SEAT_LETTERS,
    Event,
    GameAbandoned,
    GameCreated,
    GameOver,
    LinePlaced,
    Point,
    StageAdvanced,
    event_from_dict,
)
from service.domain.fold import apply, apply_all, fold
from service.domain.players import play_turn
from service.domain.review.game import NotFinished, review_game
from service.domain.review.report import (
    MISTAKES_SHOWN,
    Review,
    Stage1Review,
    Stage2Review,
    TurnReview,
    summarise,
)
from service.domain.review.search import best_stage1
from service.domain.rules import decide
from service.domain.start import start_game, start_state
from service.domain.state import GameState
from squares_testing.greedy import Greedy
from squares_testing.play import play_out
from tests.factories import build_stream

from .helpers import Game
from .test_review_search import (
    between,
    brute_best,
    fresh,
    gives_per_slot,
    path_slots,
)

# -- games ----------------------------------------------------------------------


@cache
def cvc_game(size: tuple[int, int], seed: int, level: str = "easy") -> tuple[Event, ...]:
    """A finished computer-vs-computer game."""
    command = NewGame(seed=seed, player_name="t", difficulty=level, second_level=level,
                      mode="computer_vs_computer", height=size[0], width=size[1])
    return tuple(play_out(command, ai.strategy_for(level))[0])


def ending_stage(events: Sequence[Event]) -> int:
    """The stage in which the board filled up."""
    i = next(i for i, e in enumerate(events) if isinstance(e, GameOver))
    last = events[i - 1]
    return last.stage if isinstance(last, LinePlaced) else 3


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
        accuracy = (None if not own else 100 if best <= 0
                    else min(100, round(100 * max(0, gained) / best)))
        assert summary.accuracy == accuracy
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


# -- whole simulated games ------------------------------------------------------------


def test_review_of_small_simulated_games_agrees_with_the_brute_force() -> None:
    bests = []
    for size, seed, level in [((7, 9), 0, "easy"), ((7, 9), 2, "moderate"),
                              ((9, 9), 1, "easy"), ((9, 11), 3, "moderate")]:
        review = check_review(cvc_game(size, seed, level), brute=True)
        bests += [t.stage1.best for t in review.turns]
    assert max(bests) >= 3


@pytest.mark.parametrize("level", ["easy", "moderate"])
def test_review_of_small_simulated_games(level: str) -> None:
    pieces = []
    for seed in range(8):
        for size in ((7, 9), (9, 11), (11, 15)):
            review = check_review(cvc_game(size, seed, level))
            pieces += [t.pieces for t in review.turns if t.pieces is not None]
    assert pieces and min(pieces) < 0 < max(pieces)  # the pieces give and take


def test_review_of_a_default_field_game() -> None:
    events = cvc_game((19, 33), 7, "moderate")
    review = check_review(events)
    assert len(review.turns) > 8
    assert sum(s.gained for s in review.seats) > 30


def test_review_of_a_ranked_greedy_game_with_its_seed_revealed() -> None:
    stream = build_stream(seed=5, player_name="Ada", turns=None, height=9, width=11)
    assert stream.state.over and stream.state.high_scores_entered
    check_review(stream.events)


def test_review_is_deterministic() -> None:
    events = cvc_game((9, 11), 4, "moderate")
    first = review_game(list(events)).to_dict()
    copied = [event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    assert review_game(copied).to_dict() == first
    assert review_game(list(events)).to_dict() == first
    assert json.dumps(first, sort_keys=True) == json.dumps(review_game(events).to_dict(),
                                                          sort_keys=True)


def test_review_with_small_budgets_says_it_is_not_exact() -> None:
    events = cvc_game((11, 15), 2, "moderate")
    full = review_game(list(events))
    short = review_game(list(events), stage1_nodes=2, stage2_nodes=3)
    assert full.exact and not short.exact and short.to_dict()["exact"] is False
    assert any(not t.stage1.exact for t in short.turns)
    for s, f in zip(short.turns, full.turns, strict=True):
        assert (s.seat, s.start_seq, s.stage1.played, s.stage1.gained) == \
            (f.seat, f.start_seq, f.stage1.played, f.stage1.gained)
        assert s.stage1.best <= f.stage1.best  # a lower bound, really taken
        gained, _ = replay_lines(fresh(fold(events[:s.start_seq])), s.stage1.best_lines)
        assert gained == s.stage1.best
        if s.stage1.exact:
            assert s.stage1.best == f.stage1.best
        if s.stage2 is not None and f.stage2 is not None and not s.stage2.exact:
            assert s.stage2.gives <= f.stage2.gives


# -- how a game ends ---------------------------------------------------------------


@cache
def natural_endings() -> dict[int, tuple[Event, ...]]:
    """Small seeded games whose board filled up in stage 1, 2 and 3."""
    found: dict[int, tuple[Event, ...]] = {}
    for seed in range(60):
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


def two_players(open_slots: Sequence[Point], size: tuple[int, int] = (7, 7),
                seed: int = 1) -> Game:
    return Game.at(open_slots, size=size, mode="two_players", seed=seed)


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


# -- abandoned and unfinished games ------------------------------------------------------


def abandoned_after_a_line() -> tuple[list[Event], int]:
    """A game left (abandoned) in a stage 1 after its first line: the events and the
    index of that line. Scanned for a turn whose line changes what a fresh stage 1
    could take on the board."""
    for seed in range(40):
        events = list(cvc_game((9, 11), seed))
        for i, event in enumerate(events):
            if not (isinstance(event, StageAdvanced) and event.stage == 1):
                continue
            state = fold(events[:i + 1])
            value, lines = brute_best(fresh(state))
            if not lines:
                continue
            line = decide(state, PlaceLine(state.turn, *lines[0]))
            after = apply_all(state, line)
            if after.over or after.stage != 1 or brute_best(fresh(after))[0] == value:
                continue
            return events[:i + 1] + line + decide(after, Abandon("idle")), i + 1
    raise AssertionError("no such turn found")


def test_an_abandoned_game_leaves_out_the_turn_left_in_stage_1() -> None:
    events, start = abandoned_after_a_line()
    assert isinstance(events[-1], GameAbandoned)
    review = review_game(events)
    ended = sum(1 for e in events if isinstance(e, StageAdvanced) and e.stage == 1)
    assert len(review.turns) == ended
    assert review.turns[-1].start_seq < start
    assert review.turns[-1].seat != fold(events[:start]).turn
    check_summaries(review)


def test_an_abandoned_game_pieces_are_measured_at_the_next_turn_start() -> None:
    """The last reviewed turn's pieces: the next turn's best at its start (before the
    line it drew before the game was left) minus what the stage-2 line gave."""
    events, start = abandoned_after_a_line()
    review = review_game(events)
    last = review.turns[-1]
    assert last.stage2 is not None and last.pieces is not None
    next_start = fold(events[:start])
    assert next_start.turn == 2 and next_start.stage == 1
    assert last.pieces == brute_best(next_start)[0] - last.stage2.gives


def test_an_abandoned_game_keeps_a_turn_left_in_stage_2_or_3() -> None:
    crosses = [(5, 6), (7, 6), (6, 5), (6, 7), (1, 6), (3, 6), (2, 5), (2, 7)]
    for leave_in in (2, 3):
        game = two_players([*path_slots([(0, 0), (1, 0), (2, 0), (2, 1)]), *crosses], (9, 9))
        game.line(*between((0, 0), (1, 0)))
        game.advance()
        if leave_in == 3:
            game.line(*between((2, 0), (2, 1)))
            game.advance()
        game.run(Abandon("idle"))
        review = check_review(game.events, brute=True)
        (turn,) = review.turns
        assert (turn.stage1.gained, turn.stage1.best) == (1, 3)
        assert (turn.stage2 is None) == (leave_in == 2)
        assert turn.pieces is None


def test_an_abandoned_game_before_any_decision_of_the_turn() -> None:
    events = list(cvc_game((7, 9), 3))
    cut = next(i for i, e in enumerate(events) if isinstance(e, StageAdvanced)
               and e.stage == 1) + 1
    state = fold(events[:cut])
    events = events[:cut] + decide(state, Abandon("idle"))
    review = check_review(events)
    assert len(review.turns) == 1


def test_an_unfinished_game_cannot_be_reviewed() -> None:
    events = list(cvc_game((7, 9), 1))
    for cut in (1, 2, len(events) // 2, next(i for i, e in enumerate(events)
                                               if isinstance(e, GameOver))):
        with pytest.raises(NotFinished):
            review_game(events[:cut])
    with pytest.raises(NotFinished):
        review_game([])
    with pytest.raises(NotFinished):
        review_game(events[1:])
    assert isinstance(events[0], GameCreated)


# -- a human's mistakes -------------------------------------------------------------------


def human_game(seed: int, size: tuple[int, int]) -> tuple[list[Event], int, int, int] | None:
    """A vs_computer game where the human (seat 1) plays the brute force's best stage 1
    and least-giving stage-2 line, except once: it advances at once from a stage 1
    worth at least 2 (not on its first turn), then draws the line that gives the
    computer the most. The
    events, that turn's number, and what its stage 1 and stage 2 lost; None if no
    turn was fit for the mistakes."""
    command = NewGame(seed=seed, player_name="Ada", difficulty="easy", mode="vs_computer",
                      height=size[0], width=size[1])
    events = start_game(command)
    state = start_state(command, events)
    bad: tuple[int, int, int] | None = None
    turn = own = 0

    def run(command: Advance | PlaceLine) -> None:
        nonlocal state
        decided = decide(state, command)
        events.extend(decided)
        state = apply_all(state, decided)

    while not state.over:
        turn += 1
        if state.turn == 2:
            new = play_turn(state, ai.strategy_for("easy"))
            events.extend(new)
            state = apply_all(state, new)
            continue
        own += 1
        best, lines = brute_best(state)
        if bad is None and own >= 2 and best >= 2:
            run(Advance(1))
            gives = gives_per_slot(state)
            worst = max(gives, key=lambda p: (gives[p], p))
            lost2 = gives[worst] - min(gives.values())
            if lost2 >= 2:
                bad = (turn, best, lost2)
                run(PlaceLine(1, *worst))
            else:
                return None
        else:
            for x, y in lines:
                run(PlaceLine(1, x, y))
            if state.over:
                break
            if state.stage == 1:
                run(Advance(1))
            gives = gives_per_slot(state)
            run(PlaceLine(1, *min(gives, key=lambda p: (gives[p], p))))
        while not state.over and state.turn == 1:
            run(Advance(1))
    if bad is None:
        return None
    return events, *bad


def test_the_mistakes_name_the_human_bad_turn() -> None:
    found = None
    for seed in range(30):  # a game with a bad turn and a good one that gained
        found = human_game(seed, (9, 11))
        if found is not None:
            events, turn, lost1, lost2 = found
            review = check_review(events, brute=True)
            good = [t for t in review.turns if t.seat == 1 and t.turn != turn]
            if any(t.stage1.gained > 0 for t in good):
                break
            found = None
    assert found is not None
    human = review.seats[0]
    assert all(t.lost == 0 for t in good)
    # the human played every other turn perfectly: these two are its only mistakes
    expected = sorted([(turn, 1, lost1), (turn, 2, lost2)], key=lambda m: (-m[2], m[1]))
    assert [(m.turn, m.stage, m.lost) for m in human.mistakes] == expected
    bad = review.turns[turn - 1]
    assert bad.seat == 1 and bad.stage1.played == () and bad.stage1.gained == 0
    stage1 = next(m for m in human.mistakes if m.stage == 1)
    assert stage1.played == () and len(stage1.better) >= 1
    assert human.given_away == lost2
    assert human.best - human.gained == lost1
    assert human.accuracy < 100


def test_mistakes_are_capped_and_sorted() -> None:
    capped = 0
    for seed in range(2):  # the greedy test strategy: many mistakes on the default field
        events = build_stream(seed=seed, player_name="Ada", turns=None).events
        review = check_review(events)
        for summary in review.seats:
            own = [t for t in review.turns if t.seat == summary.seat]
            if len(expected_mistakes(own)) > MISTAKES_SHOWN:
                capped += 1
                assert len(summary.mistakes) == MISTAKES_SHOWN
    assert capped >= 2


def test_summarise_keeps_the_largest_mistakes_first() -> None:
    """Ties: the earlier turn first, then stage 1 before stage 2."""

    def turn(n: int, lost1: int, lost2: int) -> TurnReview:
        stage1 = Stage1Review(((1, 0),), 1, 1 + lost1, ((3, 0),), True)
        stage2 = Stage2Review(5, 0, 2 + lost2, 2, (0, 1), True)
        return TurnReview(n, (n + 1) // 2, 2 - n % 2, n * 10, stage1, stage2, 1)

    turns = tuple(turn(n, lost1, lost2) for n, lost1, lost2 in
                  [(1, 2, 0), (2, 9, 9), (3, 4, 4), (4, 0, 0), (5, 1, 4), (7, 4, 1)])
    one = summarise(1, turns)
    assert [(m.turn, m.stage, m.lost) for m in one.mistakes] == [(3, 1, 4), (3, 2, 4), (5, 2, 4)]
    assert one.mistakes[0].start_seq == 30 and one.mistakes[0].round == 2
    assert one.mistakes[1].played == ((5, 0),) and one.mistakes[1].better == ((0, 1),)
    assert one.mistakes[0].played == ((1, 0),) and one.mistakes[0].better == ((3, 0),)
    assert (one.gained, one.best, one.given_away) == (4, 4 + 2 + 4 + 1 + 4, 4 + 4 + 1)
    assert one.accuracy == round(100 * 4 / 15)
    assert one.luck == 3 + 1 + 1 + 1  # turn 1's best, then the pieces before 3, 5, 7
    two = summarise(2, turns)
    assert [(m.turn, m.stage, m.lost) for m in two.mistakes] == [(2, 1, 9), (2, 2, 9)]
    assert two.luck == 1 + 1
