"""Retention, a rule of the service (RULES.md has no clock): an unfinished game that
nobody touches is abandoned.

Choices, also in docs/rules.md: a game untouched for the retention time
(``SQUARES_ABANDON_AFTER``, 7 days) is abandoned (``idle``); an online game whose
invitation expired unclaimed is abandoned at once (``invite_expired``); the
abandonment is an event, ``game_abandoned``, after which nothing is played; the game
has ended without a result (``over``, no winner) and nobody enters the high score
table; the event carries no clock, its stored time is when it happened.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from service.domain.commands import Abandon, Advance, ClaimSeat, NewGame, PlaceLine, RuleViolation
from service.domain.event_codec import event_from_dict, event_to_json
from service.domain.events import (
    EventFormatError,
    GameAbandoned,
    HighScoresEntered,
    SeatClaimed,
    SeedRevealed,
)
from service.domain.fold import apply_all, fold
from service.domain.render import render_status
from service.domain.replay_check import replay_check
from service.domain.retention import abandon_reason
from service.domain.rules import decide, game_over_event, high_score_entries, legal_actions
from service.domain.start import start_game
from service.domain.state import CorruptStream
from tests.factories import EventStreamFactory

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
WEEK = timedelta(days=7)


def _online() -> list:
    return start_game(NewGame(seed=5, player_name="Ann", mode="online", height=7, width=9))


def _vs_computer() -> list:
    """A practice game's stream (its seed public: nothing to reveal when it ends)."""
    return EventStreamFactory.build(turns=1, small=True, seed=3, ranked=False).events


def test_RULES_retention_an_untouched_game_is_abandoned_after_the_retention_time():
    state = fold(_vs_computer())
    due = {"now": NOW, "abandon_after": WEEK}
    assert abandon_reason(state, last_event_at=NOW - WEEK + timedelta(seconds=1), **due) is None
    assert abandon_reason(state, last_event_at=NOW - WEEK, **due) == "idle"
    assert abandon_reason(state, last_event_at=NOW - 4 * WEEK, **due) == "idle"


def test_RULES_retention_an_expired_invitation_abandons_its_game_at_once():
    state = fold(_online())
    fresh = NOW - timedelta(minutes=1)  # its last event: a minute ago
    kw = {"last_event_at": fresh, "now": NOW, "abandon_after": WEEK}
    assert abandon_reason(state, invite_expires_at=NOW + timedelta(seconds=1), **kw) is None
    assert abandon_reason(state, invite_expires_at=NOW, **kw) == "invite_expired"
    claimed = apply_all(state, [SeatClaimed(2, "Bob")])  # a claimed invitation expires not
    assert abandon_reason(claimed, invite_expires_at=NOW - WEEK, **kw) is None


def test_RULES_retention_a_game_that_has_ended_is_never_due():
    finished = EventStreamFactory.build(finished=True, small=True, seed=4)
    assert finished.state.over
    assert abandon_reason(finished.state, last_event_at=NOW - 52 * WEEK, now=NOW,
                          abandon_after=WEEK) is None
    abandoned = apply_all(fold(_vs_computer()), [GameAbandoned("idle")])
    assert abandon_reason(abandoned, last_event_at=NOW - 52 * WEEK, now=NOW,
                          abandon_after=WEEK) is None


def test_RULES_retention_abandoning_is_an_event_and_nothing_is_played_after_it():
    events = _vs_computer()
    state = fold(events)
    decided = decide(state, Abandon("idle"))
    assert decided == [GameAbandoned("idle")]
    after = apply_all(state, decided)
    assert after.over and after.abandoned == "idle" and after.winner is None
    assert after.scores == state.scores and after.version == state.version + 1
    assert legal_actions(after).seat is None
    for command in (PlaceLine(after.turn, 1, 0), Advance(after.turn), Abandon("idle")):
        with pytest.raises(RuleViolation) as refused:
            decide(after, command)
        assert refused.value.code == "game_abandoned"
        assert refused.value.details == {"reason": "idle"}
    assert "Abandoned (idle)" in render_status(after) and "wins" not in render_status(after)


def test_RULES_retention_an_online_game_abandoned_before_anyone_joined():
    state = fold(_online())
    after = apply_all(state, decide(state, Abandon("invite_expired")))
    assert after.abandoned == "invite_expired" and after.open_seat == 2
    with pytest.raises(RuleViolation) as refused:
        decide(after, ClaimSeat(2, "Bob"))
    assert refused.value.code == "game_abandoned"


def test_RULES_retention_only_a_waiting_game_is_abandoned_for_its_invitation():
    state = fold(_vs_computer())
    with pytest.raises(RuleViolation) as refused:
        decide(state, Abandon("invite_expired"))
    assert refused.value.code == "not_waiting"
    with pytest.raises(RuleViolation) as unknown:
        decide(state, Abandon("bored"))
    assert unknown.value.code == "invalid_reason"
    with pytest.raises(CorruptStream):
        fold([*_vs_computer(), GameAbandoned("invite_expired")])


def test_RULES_I5_an_abandoned_ranked_game_reveals_its_seed():
    stream = EventStreamFactory.build(turns=1, small=True, seed=3)  # ranked
    assert stream.events[0].seed is None
    decided = decide(stream.state, Abandon("idle"))
    assert decided == [GameAbandoned("idle"), SeedRevealed("3")]
    # now anyone can check every random outcome, without the server's secret
    assert replay_check([*stream.events, *decided]).abandoned == "idle"
    with pytest.raises(CorruptStream, match="seed is secret"):
        replay_check([*stream.events, GameAbandoned("idle")])


def test_RULES_retention_a_finished_game_is_not_abandoned():
    stream = EventStreamFactory.build(finished=True, small=True, seed=4)
    with pytest.raises(RuleViolation) as refused:
        decide(stream.state, Abandon("idle"))
    assert refused.value.code == "game_over"
    with pytest.raises(CorruptStream, match="after game_over"):
        fold([*stream.events, GameAbandoned("idle")])


def test_RULES_E1_an_abandoned_game_never_enters_the_high_score_table():
    events = [*_vs_computer(), GameAbandoned("idle")]
    state = fold(events)
    entry = high_score_entries(state)  # what a game over would have entered
    with pytest.raises(CorruptStream):
        fold([*events, HighScoresEntered(entry)])
    with pytest.raises(CorruptStream):
        fold([*events, game_over_event(state)])


def test_RULES_V2_replay_check_accepts_an_abandoned_stream_and_nothing_after_it():
    events = [*_online(), GameAbandoned("invite_expired")]
    assert replay_check(events).abandoned == "invite_expired"
    played = _vs_computer()
    assert replay_check([*played, GameAbandoned("idle")]).abandoned == "idle"
    with pytest.raises(CorruptStream):
        replay_check([*played, GameAbandoned("invite_expired")])  # nobody was invited
    state = fold(played)
    move = decide(state, Advance(state.turn))  # what the rules took before
    with pytest.raises(CorruptStream, match="breaks a rule: game_abandoned"):
        replay_check([*played, GameAbandoned("idle"), *move])


def test_the_abandonment_round_trips_strictly_as_json():
    event = GameAbandoned("idle")
    raw = json.loads(event_to_json(event))
    assert raw == {"type": "game_abandoned", "v": 1, "data": {"reason": "idle"}}
    assert event_from_dict(raw, strict=True) == event
    with pytest.raises(EventFormatError):
        event_from_dict({"type": "game_abandoned", "v": 1, "data": {"reason": 1}}, strict=True)
