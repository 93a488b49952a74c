"""RULES M, extended: the online mode (the rules page knows only one screen).

Choices, also in docs/rules.md: the creator sits in seat 1; who moves first is drawn
from the game's committed seed (``first_seat`` of ``game_created``), so neither
player chooses it; seat 2 is open until a friend claims it, and nobody moves before
that; the claim is an event (``seat_claimed``) naming the seat; both humans of a
ranked game enter the high score table with the class ``online``.
"""

import pytest

from service.domain.commands import Advance, ClaimSeat, NewGame, RuleViolation
from service.domain.events import SeatClaimed
from service.domain.fold import apply_all, fold
from service.domain.replay_check import replay_check
from service.domain.rules import decide, high_score_entries, legal_actions
from service.domain.start import start_game, start_state
from service.domain.state import CorruptStream


def _online() -> list:
    return start_game(NewGame(seed=5, player_name="Ann", mode="online", height=7, width=9))


def test_RULES_M_online_seat_2_is_open_and_nobody_moves_until_it_is_claimed():
    state = fold(_online())
    assert state.open_seat == 2 and state.game.difficulty == "none"
    assert [s.kind for s in state.seats] == ["human", "human"]
    assert state.seat_info(2).name == ""
    assert legal_actions(state).seat is None
    with pytest.raises(RuleViolation) as refused:
        decide(state, Advance(1))
    assert refused.value.code == "waiting_for_opponent"


def test_RULES_M_online_a_claim_names_the_open_seat_once():
    events = _online()
    state = fold(events)
    claimed = decide(state, ClaimSeat(2, "  Bob "))
    assert claimed == [SeatClaimed(2, "Bob")]
    after = apply_all(state, claimed)
    assert after.open_seat is None and after.seat_info(2).name == "Bob"
    assert after.game.seats[1].name == ""  # the first event is never rewritten
    assert legal_actions(after).seat == 1  # the creator moves first
    with pytest.raises(RuleViolation) as again:
        decide(after, ClaimSeat(2, "Eve"))
    assert again.value.code == "seat_taken"
    with pytest.raises(RuleViolation) as bad:
        decide(state, ClaimSeat(2, "\u0007"))
    assert bad.value.code == "invalid_name"


def test_RULES_M_only_an_online_game_has_a_seat_to_claim():
    state = fold(start_game(NewGame(seed=5, player_name="Ann", mode="two_players",
                                    second_name="Cem", height=7, width=9)))
    with pytest.raises(RuleViolation) as refused:
        decide(state, ClaimSeat(2, "Bob"))
    assert refused.value.code == "seat_taken"


def test_RULES_V2_a_second_claim_does_not_fold():
    events = _online() + [SeatClaimed(2, "Bob")]
    with pytest.raises(CorruptStream):
        fold(events + [SeatClaimed(2, "Eve")])


def test_RULES_E1_online_both_humans_enter_as_online():
    command = NewGame(seed=5, player_name="Ann", mode="online", height=7, width=9,
                      ranked=True)
    state = apply_all(start_state(command), [SeatClaimed(2, "Bob")])
    state.scores = [12, 30]
    assert [(e.seat, e.name, e.score, e.difficulty) for e in high_score_entries(state)] == [
        (1, "Ann", 12, "online"), (2, "Bob", 30, "online")]


def test_RULES_V2_replay_check_accepts_the_claim_and_refuses_a_move_before_it():
    events = _online()
    assert replay_check(events + [SeatClaimed(2, "Bob")]).seat_info(2).name == "Bob"
    claimed = apply_all(fold(events), [SeatClaimed(2, "Bob")])
    turn = decide(claimed, Advance(1))
    with pytest.raises(CorruptStream, match="waiting_for_opponent"):
        replay_check(events + turn)
