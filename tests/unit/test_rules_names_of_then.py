"""RULES, names: a game is judged by the name rules of its time. Since names have keys
(docs/rules.md, "Names that match"), a new name is stored with single ASCII spaces and
may hold no blank letter; games stored before keep their names as they were stored, and
`replay_check` (imports, ``squares verify``) still proves them legal. A stored name that
breaks a rule every stored name has met is still refused."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from service.domain.commands import ClaimSeat, NewGame, RuleViolation
from service.domain.event_codec import event_from_dict
from service.domain.events import Event
from service.domain.fold import fold
from service.domain.names import clean_name
from service.domain.replay_check import replay_check
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import CorruptStream
from squares_testing.greedy import Greedy
from squares_testing.play import play_out

NOW = "Eda F\u0131rat"
OF_THEN = ["Eda  F\u0131rat",  # two spaces, stored as typed before single spaces
           "Eda\u1160F\u0131rat",  # a Hangul filler (NFKC of U+3164), a letter then
           "Eda\u2800F\u0131rat"]  # a braille blank, a symbol then


def _renamed(events: list[Event], old: str, new: str) -> list[Event]:
    """`events` as an earlier release stored them under `new` instead of `old`."""
    def rename(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: rename(v) for k, v in value.items()}
        if isinstance(value, list):
            return [rename(v) for v in value]
        return new if value == old else value

    return [event_from_dict(rename(json.loads(json.dumps(e.to_dict())))) for e in events]


def _finished_practice_game(mode: str = "vs_computer") -> list[Event]:
    command = NewGame(seed=21, player_name=NOW, mode=mode, height=7, width=9,
                      second_name="Ali" if mode == "two_players" else None)
    return play_out(dataclasses.replace(command, ranked=False), Greedy())[0]


@pytest.mark.parametrize("name", OF_THEN)
def test_RULES_a_name_of_then_is_no_new_name_now(name: str) -> None:
    """Today's rules reshape it (single spaces) or refuse it (a blank letter)."""
    try:
        assert clean_name(name) != name
    except RuleViolation as refused:
        assert refused.code == "invalid_name"


@pytest.mark.parametrize("name", OF_THEN)
@pytest.mark.parametrize("mode", ["vs_computer", "two_players"])
def test_RULES_a_game_stored_under_a_name_of_then_still_replays(name: str, mode: str) -> None:
    events = _renamed(_finished_practice_game(mode), NOW, name)
    assert events[0].seats[0].name == name  # type: ignore[attr-defined]
    replay_check(events)  # raises CorruptStream if refused


@pytest.mark.parametrize("name", OF_THEN)
def test_RULES_an_online_seat_claimed_under_a_name_of_then_still_replays(name: str) -> None:
    created = start_game(NewGame(seed=5, player_name="Ann", mode="online", height=7, width=9,
                                 ranked=False))
    claimed = decide(fold(created), ClaimSeat(2, NOW))
    events = _renamed([*created, *claimed], NOW, name)
    replay_check(events)


@pytest.mark.parametrize("name", ["Eda\u0007F\u0131rat", "x" * 33, " Eda"])
def test_RULES_a_stored_name_that_breaks_the_rules_of_every_time_is_refused(name: str) -> None:
    events = _renamed(_finished_practice_game(), NOW, name)
    with pytest.raises(CorruptStream, match="invalid_name"):
        replay_check(events)
