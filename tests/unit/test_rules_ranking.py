"""RULES E1 and M2 as amended by issue 34 (the domain's part): ranked means a game
against the computer, the human in seat 1, no chosen seed, no hint asked by the human;
two humans enter the table of their mode; the first hint is the event ``hint_used``,
written once, folded into an *assisted* game that still ends but enters no table.
Storage, imports and the API are tested in tests/storage and tests/api."""

import dataclasses
import json

import pytest

from service.domain.commands import Advance, RuleViolation, UseHint
from service.domain.event_codec import event_from_dict, event_to_json
from service.domain.events import HighScoresEntered, HintUsed, PieceInserted
from service.domain.fold import apply_all, fold
from service.domain.players import play_turn
from service.domain.ranking import (
    ARCHIVE,
    HERE,
    MAIN,
    SIGNED,
    entry_table,
    high_score_entries,
    table_of,
)
from service.domain.replay_check import replay_check
from service.domain.rules import decide
from service.domain.state import CorruptStream, GameState
from squares_testing.greedy import Greedy
from squares_testing.play import play_out

from .helpers import ranked_start


def _hinted(**kwargs: object) -> tuple[list, GameState]:
    """A game whose human asked a hint before the first move, and its state."""
    events, state = ranked_start(**kwargs)
    hint = decide(state, UseHint(state.turn))
    return events + hint, apply_all(state, hint)


def _finish(events: list, state: GameState) -> list:
    return events + play_out(state, Greedy())[0]


# -- the event and its fold ----------------------------------------------------------


def test_rule_E1_the_first_hint_of_a_game_is_one_event_and_a_later_one_writes_nothing():
    _, state = ranked_start()
    first = decide(state, UseHint(1))
    assert first == [HintUsed(1)]
    after = apply_all(state, first)
    assert after.assisted and after.hinted_at == state.version
    assert after.version == state.version + 1
    assert decide(after, UseHint(1)) == []  # later hints: nothing to write
    moved = apply_all(after, decide(after, Advance(1)))
    assert decide(moved, UseHint(1)) == []  # still assisted, still nothing


def test_rule_E1_a_hint_changes_nothing_a_move_depends_on():
    _, state = ranked_start()
    after = apply_all(state, [HintUsed(1)])
    assert (after.lines, after.owners, after.turn, after.stage, after.scores) == (
        state.lines, state.owners, state.turn, state.stage, state.scores)
    # so a move chosen on the state before the hint is still current after it
    assert after.current_for(state.version) and after.current_for(after.version)
    assert not state.current_for(state.version - 1)
    moved = apply_all(after, decide(after, Advance(1)))
    assert not moved.current_for(state.version)  # only until the next move


def test_rule_E1_hint_used_round_trips_strictly_as_version_1():
    raw = json.loads(event_to_json(HintUsed(2)))
    assert raw == {"type": "hint_used", "v": 1, "data": {"seat": 2}}
    assert event_from_dict(raw, strict=True) == HintUsed(2)


def test_rule_E1_the_fold_takes_hint_used_once_and_only_for_the_human_to_move():
    events, state = _hinted()
    with pytest.raises(CorruptStream):
        fold([*events, HintUsed(1)])  # twice
    _, fresh = ranked_start()
    with pytest.raises(CorruptStream):
        apply_all(fresh, [HintUsed(2)])  # not seat 2's turn
    computer = fresh.copy()
    computer.turn = 2
    with pytest.raises(CorruptStream):
        apply_all(computer, [HintUsed(2)])  # seat 2 is the computer


def test_rule_E1_only_a_human_seat_to_move_asks_for_a_hint():
    _, state = ranked_start(mode="computer_vs_computer", difficulty="easy")
    with pytest.raises(RuleViolation) as refused:
        decide(state, UseHint(1))
    assert refused.value.code == "not_a_human"
    _, mine = ranked_start()
    with pytest.raises(RuleViolation) as refused:
        decide(mine, UseHint(2))
    assert refused.value.code == "not_your_turn"


# -- what is ranked --------------------------------------------------------------------


def test_rule_E1_an_unassisted_game_against_the_computer_enters_the_main_table():
    events = _finish(*ranked_start())
    entered = events[-1]
    assert isinstance(entered, HighScoresEntered)
    assert table_of(fold(events)) == MAIN
    assert [e.seat for e in entered.entries] == [1]


def test_rule_E1_an_assisted_game_still_ends_and_replays_but_enters_no_table():
    events = _finish(*_hinted())
    state = replay_check(events)  # every event re-decided, the hint's too
    assert state.over and state.winner is not None and state.assisted
    assert not any(isinstance(e, HighScoresEntered) for e in events)
    assert table_of(state) is None and high_score_entries(state) == ()


def test_rule_E1_a_hint_asked_in_the_middle_of_the_game_counts_the_same():
    events, state = ranked_start()
    for _ in range(2):  # two turns of each side
        turn = play_turn(state, Greedy())
        events, state = events + turn, apply_all(state, turn)
    asked_at = state.version
    hint = decide(state, UseHint(state.turn))
    events = _finish(events + hint, apply_all(state, hint))
    assert not any(isinstance(e, HighScoresEntered) for e in events)
    assert fold(events).hinted_at == asked_at and events[asked_at] == HintUsed(1)


def test_rule_E1_I5_a_hint_changes_no_random_outcome():
    """hint_used draws nothing (`GameState.rng_version`): the same seed and the same
    moves give the same pieces, and the computer the same moves, hint or not (a
    practice game tried again after a hint is the same game)."""
    plain = play_out(ranked_start(difficulty="easy")[1])[0]  # each seat by the AI
    events, state = _hinted(difficulty="easy")
    hinted = play_out(state)[0]
    assert [e for e in hinted if not isinstance(e, HighScoresEntered)] == [
        e for e in plain if not isinstance(e, HighScoresEntered)]
    assert len(hinted) > 20 and any(isinstance(e, PieceInserted) for e in hinted)


def test_rule_E1_a_stream_that_enters_an_assisted_game_is_refused():
    assisted = _finish(*_hinted())
    state = fold(assisted)
    unassisted = dataclasses.replace(state, assisted=False)
    forged = [*assisted, HighScoresEntered(high_score_entries(unassisted))]
    assert forged[-1].entries  # what an unassisted game would have entered
    with pytest.raises(CorruptStream, match="high_scores_entered"):
        replay_check(forged)


@pytest.mark.parametrize(("kwargs", "table"), [
    ({}, MAIN),
    ({"ranked": False}, None),  # a chosen seed: practice (RULES I5)
    ({"mode": "computer_vs_computer", "difficulty": "easy"}, None),  # RULES M3
    ({"mode": "two_players", "second_name": "Bob"}, "two_players"),  # RULES M2
    ({"mode": "online"}, "online"),
])
def test_rule_E1_M2_M3_which_table_a_game_enters(kwargs: dict, table: str | None):
    _, state = ranked_start(**kwargs)
    assert table_of(state) == table


@pytest.mark.parametrize("mode", ["two_players", "online"])
def test_rule_M2_two_humans_enter_their_mode_s_table_never_the_main_one(mode: str):
    _, state = ranked_start(mode=mode, second_name="Bob" if mode == "two_players" else None)
    assert table_of(state) == mode != MAIN
    hinted = apply_all(state, [HintUsed(state.turn)]) if state.open_seat is None else None
    if hinted is not None:  # a hint unranks a game of two humans as well
        assert table_of(hinted) is None


def test_rule_E1_only_a_game_from_here_or_with_a_valid_signature_keeps_its_table():
    events = _finish(*ranked_start())
    state = fold(events)
    assert entry_table(state, HERE) == entry_table(state, SIGNED) == MAIN
    assert entry_table(state, ARCHIVE) == ARCHIVE  # kept, ranked nowhere
    practice = fold(_finish(*ranked_start(ranked=False)))
    assert entry_table(practice, ARCHIVE) is None  # nothing to keep


def test_rule_E1_a_practice_game_with_a_hint_is_assisted_too():
    events, state = _hinted(ranked=False)
    assert state.assisted and table_of(state) is None
    assert isinstance(events[-1], HintUsed)


def test_rule_E1_the_online_hint_waits_for_the_friend_like_every_move():
    _, state = ranked_start(mode="online")
    with pytest.raises(RuleViolation) as refused:
        decide(state, UseHint(state.turn))
    assert refused.value.code == "waiting_for_opponent"
