"""RULES E (the end and the high score entry) and M (seats and modes).

E2 (ordering, default table) and E3 (persistence) belong to the storage layer;
here the domain's part is that only the human seats' final scores are handed on.
"""

import dataclasses

import pytest

from service.domain.commands import NewGame, RuleViolation
from service.domain.events import (
    GameOver,
    HighScoreEntry,
    HighScoresEntered,
    Seat,
    SeedRevealed,
)
from service.domain.fold import fold
from service.domain.rules import high_score_entries
from service.domain.start import start_game
from service.domain.state import SEAT2, CorruptStream
from squares_testing.greedy import Greedy
from squares_testing.play import play_out

from .helpers import Game


def _finish(command: NewGame) -> list:
    """The events of a ranked game of `command` played to its end by `Greedy`."""
    return play_out(dataclasses.replace(command, ranked=True), Greedy())[0]


def _greedy_game(**kwargs) -> list:
    return _finish(NewGame(seed=kwargs.pop("seed", 21), player_name="Ada", **kwargs))


# -- E ---------------------------------------------------------------------------


def test_rule_E1_the_human_final_score_is_entered_after_game_over_with_name_and_difficulty():
    events = _greedy_game(difficulty="hard", height=9, width=11)
    *_, over, _revealed, entered = events
    assert isinstance(over, GameOver) and isinstance(entered, HighScoresEntered)
    assert entered.entries == (HighScoreEntry(1, "Ada", over.scores[0], "hard"),)
    state = fold(events)
    assert state.high_scores_entered and state.scores[0] == over.scores[0]


def test_rule_E1_a_negative_final_score_is_entered_as_it_is():
    game = Game.at([(2, 1), (4, 5)], size=(7, 7))
    game.line(2, 1)
    game.line(4, 5)  # irregular last line: 2 - 5
    *_, entered = game.events
    assert entered.entries == (HighScoreEntry(1, "Ada", -3, "hard"),)


@pytest.mark.parametrize(
    "mode, humans", [("vs_computer", [1]), ("two_players", [1, 2]), ("computer_vs_computer", [])]
)
def test_rule_E2_E3_high_score_entries_hold_the_human_seats_only(mode, humans):
    game = Game.at([(2, 1), (4, 5)], size=(7, 7), mode=mode)
    entries = high_score_entries(game.state)
    assert [e.seat for e in entries] == humans
    assert all(game.state.seat_info(e.seat).kind == "human" for e in entries)
    assert [e.name for e in entries] == [game.state.seat_info(s).name for s in humans]


def test_rule_E1_high_scores_are_entered_once_and_only_after_game_over():
    events = _greedy_game(height=7, width=9)
    entered = events[-1]
    with pytest.raises(CorruptStream):
        fold([*events, entered])
    with pytest.raises(CorruptStream):  # the seed is revealed once
        fold([*events, events[-2]])
    with pytest.raises(CorruptStream):
        fold([*events[:-3], entered])


# -- M ---------------------------------------------------------------------------


def test_rule_M1_vs_computer_is_the_default_with_the_human_in_seat_1():
    (game,) = start_game(NewGame(seed=1, player_name="  Ada  ", difficulty="easy"))
    assert game.mode == "vs_computer" and game.difficulty == "easy"
    assert game.seats == (Seat("Ada", "human"), Seat("Computer", "computer", "easy"))


def test_rule_M1_the_computer_owns_its_squares_with_C():
    game = Game.at([(2, 1), (4, 5), (2, 3)], size=(7, 7))
    game.advance()
    game.line(2, 3)  # stage 2: forms nothing here
    game.advance()
    while game.state.turn != SEAT2:
        game.advance()
    free = [p for p in [(2, 1), (4, 5)] if game.state.line_at(*p) == 0]
    assert free  # the pieces cannot take both
    (event, *_) = game.line(*free[0])
    assert {owner for *_, owner in event.squares} == {"C"}


@pytest.mark.parametrize(
    "kwargs, code",
    [
        ({"mode": "solo"}, "invalid_mode"),
        ({"difficulty": "impossible"}, "invalid_level"),
        ({"mode": "computer_vs_computer", "second_level": "godlike"}, "invalid_level"),
        ({"mode": "two_players"}, "invalid_name"),
        ({"mode": "two_players", "second_name": "   "}, "invalid_name"),
        ({"player_name": ""}, "invalid_name"),
        ({"player_name": "x" * 33}, "invalid_name"),
        ({"player_name": "a\x07b"}, "invalid_name"),  # a control character (a bell)
    ],
)
def test_rule_M1_M2_M3_bad_seats_are_refused_with_a_stable_code(kwargs, code):
    command = {"seed": 1, "player_name": "Ada", **kwargs}
    with pytest.raises(RuleViolation) as info:
        start_game(NewGame(**command))
    assert info.value.code == code


def test_rule_M2_two_players_are_both_human_and_both_enter_the_high_scores():
    command = NewGame(seed=1, player_name="Eda Fırat", mode="two_players",
                      second_name="Tarık Yolcu")
    (game,) = start_game(command)
    assert game.seats == (Seat("Eda Fırat", "human"), Seat("Tarık Yolcu", "human"))
    events = _finish(command)
    over, _revealed, entered = events[-3:]
    assert entered.entries == (
        HighScoreEntry(1, "Eda Fırat", over.scores[0], "two_players"),
        HighScoreEntry(2, "Tarık Yolcu", over.scores[1], "two_players"),
    )


def test_rule_M3_computer_vs_computer_has_levels_per_seat_and_no_high_scores():
    events = _greedy_game(mode="computer_vs_computer", difficulty="easy", second_level="hard")
    game = events[0]
    assert [s.kind for s in game.seats] == ["computer", "computer"]
    assert [s.level for s in game.seats] == ["easy", "hard"]
    assert isinstance(events[-2], GameOver) and isinstance(events[-1], SeedRevealed)
    assert not any(isinstance(e, HighScoresEntered) for e in events)
    assert high_score_entries(fold(events)) == ()
