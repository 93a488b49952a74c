"""The project's choices for ending a game early (docs/rules.md, "Resigning and
aborting"), the domain's part: a human seat may resign at any stage and on either
seat's turn (``game_resigned``, then ``game_over`` with the other seat the winner and
the scores as they stood, then a ranked game's ``seed_revealed``); a resigned game
enters no high score table. An online game may be aborted by either seat before both
seats have moved (``game_aborted``: no winner, no result, no table); never another
mode's. ``replay_check`` re-decides both and refuses forged ones. The API, storage and
pages are tested in tests/api/test_resign_abort.py, tests/storage/test_import_export.py
and tests/e2e/test_resign.py."""

import json

import pytest

from service.domain.commands import (
    Abort,
    Advance,
    ClaimSeat,
    NewGame,
    PlaceLine,
    Resign,
    RuleViolation,
)
from service.domain.event_codec import event_from_dict, event_to_json
from service.domain.events import (
    GameAborted,
    GameOver,
    GameResigned,
    HighScoreEntry,
    HighScoresEntered,
    LinePlaced,
    SeedRevealed,
)
from service.domain.fold import apply_all, fold
from service.domain.ranking import high_score_entries, table_of
from service.domain.replay_check import replay_check
from service.domain.review import review_game
from service.domain.rules import decide, legal_actions
from service.domain.state import CorruptStream, GameState
from squares_testing.greedy import Greedy
from squares_testing.play import play_out

from .helpers import ranked_start


def _then(events: list, state: GameState, command: object) -> tuple[list, GameState]:
    decided = decide(state, command)  # type: ignore[arg-type]
    return events + decided, apply_all(state, decided)


def _to_stage(events: list, state: GameState, stage: int) -> tuple[list, GameState]:
    """The seat to move's turn taken on to `stage` (1: as it is; 2: advanced; 3: its
    stage-2 line drawn and advanced, the random pieces in)."""
    if stage >= 2:
        events, state = _then(events, state, Advance(state.turn))
    if stage == 3:
        x, y = legal_actions(state).lines[0]
        events, state = _then(events, state, PlaceLine(state.turn, x, y))
        events, state = _then(events, state, Advance(state.turn))
    assert state.stage == stage and not state.over
    return events, state


def _online(claimed: bool = True, **kwargs: object) -> tuple[list, GameState]:
    events, state = ranked_start(mode="online", player_name="Ann", **kwargs)
    if claimed:
        events, state = _then(events, state, ClaimSeat(2, "Bob"))
    return events, state


def _whole_turn(events: list, state: GameState) -> tuple[list, GameState]:
    """The seat to move advances through its turn (its stage-2 line the first free)."""
    seat = state.turn
    events, state = _to_stage(events, state, 3)
    events, state = _then(events, state, Advance(seat))
    assert state.turn != seat
    return events, state


# -- resigning -----------------------------------------------------------------------


@pytest.mark.parametrize("stage", [1, 2, 3])
def test_RULES_resign_against_the_computer_in_any_stage_the_computer_wins_unranked(stage):
    events, state = _to_stage(*ranked_start(), stage)
    scores, squares = list(state.scores), list(state.squares)
    decided = decide(state, Resign(1))
    assert [type(e) for e in decided] == [GameResigned, GameOver, SeedRevealed]
    assert decided[0] == GameResigned(1)
    over = decided[1]
    assert isinstance(over, GameOver)
    assert (list(over.scores), list(over.squares), over.winner) == (scores, squares, 2)
    after = apply_all(state, decided)
    assert (after.over, after.winner, after.resigned, after.stage) == (True, 2, 1, stage)
    assert after.public_seed == "21"  # a ranked game's seed is revealed at its end
    assert table_of(after) is None and high_score_entries(after) == ()
    replayed = replay_check(events + decided)  # every event re-decided
    assert (replayed.winner, replayed.resigned) == (2, 1)


def test_RULES_resign_the_other_seat_wins_even_when_the_resigning_one_leads():
    events, state = play_out(
        NewGame(seed=8, player_name="Ada", mode="two_players", second_name="Cem",
                height=9, width=11, ranked=True), Greedy(),
        until=lambda s: s.scores[0] != s.scores[1])
    assert not state.over
    leader = 1 if state.scores[0] > state.scores[1] else 2
    decided = decide(state, Resign(leader))  # on one screen, on either seat's turn
    after = apply_all(state, decided)
    assert (after.winner, after.scores) == (3 - leader, state.scores)
    assert not any(isinstance(e, HighScoresEntered) for e in decided)
    assert table_of(after) is None  # two humans on one screen: no table either
    assert replay_check(events + decided).winner == 3 - leader


def test_RULES_resign_a_practice_game_has_no_seed_to_reveal():
    _, state = ranked_start(ranked=False)
    decided = decide(state, Resign(1))
    assert [type(e) for e in decided] == [GameResigned, GameOver]


@pytest.mark.parametrize("resigning", [1, 2])
def test_RULES_resign_online_either_seat_resigns_on_either_turn_and_the_other_wins(
        resigning):
    events, state = _online()
    assert state.turn in (1, 2)
    decided = decide(state, Resign(resigning))
    after = apply_all(state, decided)
    assert (after.over, after.winner, after.resigned) == (True, 3 - resigning, resigning)
    assert table_of(after) is None and not any(
        isinstance(e, HighScoresEntered) for e in decided)  # no online table either
    assert replay_check(events + decided).winner == 3 - resigning


def test_RULES_resign_online_before_the_friend_joined_is_refused_abort_instead():
    _, state = _online(claimed=False)
    with pytest.raises(RuleViolation) as refused:
        decide(state, Resign(1))
    assert refused.value.code == "waiting_for_opponent"


def test_RULES_resign_only_a_human_seat_resigns():
    _, mine = ranked_start()
    with pytest.raises(RuleViolation) as refused:
        decide(mine, Resign(2))  # the computer's seat
    assert refused.value.code == "not_a_human"
    _, computers = ranked_start(mode="computer_vs_computer", difficulty="easy")
    with pytest.raises(RuleViolation) as refused:
        decide(computers, Resign(1))
    assert refused.value.code == "not_a_human"


def test_RULES_resign_once_the_game_has_ended_is_refused():
    _, finished = play_out(ranked_start()[1], Greedy())
    assert finished.over and finished.resigned is None
    _, resigned = _then(*ranked_start(), Resign(1))
    for ended in (finished, resigned):
        with pytest.raises(RuleViolation) as refused:
            decide(ended, Resign(1))
        assert refused.value.code == "game_over"


# -- aborting -------------------------------------------------------------------------


def test_RULES_abort_online_before_the_friend_joined_ends_it_without_a_result():
    events, state = _online(claimed=False)
    decided = decide(state, Abort(1))
    assert [type(e) for e in decided] == [GameAborted, SeedRevealed]
    after = apply_all(state, decided)
    assert (after.over, after.winner, after.aborted, after.no_result) == (True, None, 1, True)
    assert table_of(after) is None
    assert replay_check(events + decided).aborted == 1
    with pytest.raises(RuleViolation) as late:
        decide(after, ClaimSeat(2, "Bob"))  # nobody joins an aborted game
    assert late.value.code == "game_over"


def test_RULES_abort_online_by_either_seat_until_both_have_moved():
    events, state = _online()
    first = state.turn
    for seat in (1, 2):  # nobody has moved
        assert apply_all(state, decide(state, Abort(seat))).aborted == seat
    events, state = _whole_turn(events, state)  # the first seat moved, the other not
    assert state.moved == [first == 1, first == 2]
    decided = decide(state, Abort(3 - first))
    assert apply_all(state, decided).aborted == 3 - first
    assert replay_check(events + decided).aborted == 3 - first


def test_RULES_abort_is_refused_once_both_seats_have_moved_resign_instead():
    events, state = _whole_turn(*_online())
    events, state = _then(events, state, Advance(state.turn))  # the second seat moves
    assert state.moved == [True, True]
    for seat in (1, 2):
        with pytest.raises(RuleViolation) as refused:
            decide(state, Abort(seat))
        assert refused.value.code == "abort_too_late"
    assert apply_all(state, decide(state, Resign(1))).winner == 2


@pytest.mark.parametrize("mode", ["vs_computer", "two_players"])
def test_RULES_abort_only_an_online_game_is_aborted(mode):
    _, state = ranked_start(mode=mode, second_name="Cem" if mode == "two_players" else None)
    with pytest.raises(RuleViolation) as refused:
        decide(state, Abort(1))
    assert refused.value.code == "abort_online_only"


def test_RULES_abort_once_the_game_has_ended_is_refused():
    _, aborted = _then(*_online(), Abort(1))
    _, resigned = _then(*_online(), Resign(2))
    for ended in (aborted, resigned):
        with pytest.raises(RuleViolation) as refused:
            decide(ended, Abort(1))
        assert refused.value.code == "game_over"


# -- the events, the fold and replay_check ---------------------------------------------


def test_RULES_resign_abort_events_round_trip_strictly_as_version_1():
    for event, raw in ((GameResigned(2), {"type": "game_resigned", "v": 1,
                                          "data": {"seat": 2}}),
                       (GameAborted(1), {"type": "game_aborted", "v": 1,
                                         "data": {"seat": 1}})):
        assert json.loads(event_to_json(event)) == raw
        assert event_from_dict(raw, strict=True) == event


def _refused(events: list) -> str:
    with pytest.raises(CorruptStream) as refused:
        replay_check(events)
    return str(refused.value)


def test_RULES_resign_replay_check_refuses_a_resignation_after_game_over():
    events, finished = play_out(ranked_start()[1], Greedy())
    created, _ = ranked_start()
    whole = created + events
    assert replay_check(whole).over
    s = finished.scores
    forged = [GameResigned(1), GameOver((s[0], s[1]), (finished.squares[0],
                                        finished.squares[1]), finished.ownerless, 2)]
    assert _refused(whole + forged) == f"event {len(whole) + 1} breaks a rule: game_over"


def test_RULES_resign_replay_check_refuses_a_forged_winner_or_table_entry():
    events, state = ranked_start()
    resigned = decide(state, Resign(1))
    over = resigned[1]
    assert isinstance(over, GameOver)
    wrong_winner = GameOver(over.scores, over.squares, over.ownerless, 1)
    assert "event 3" in _refused(events + [resigned[0], wrong_winner, *resigned[2:]])
    with pytest.raises(CorruptStream):  # the fold refuses it too
        fold([*events, resigned[0], wrong_winner])
    entry = HighScoresEntered((HighScoreEntry(1, "Ada", 0, "moderate"),))
    assert "event 5" in _refused(events + resigned + [entry])
    with pytest.raises(CorruptStream):
        fold([*events, *resigned, entry])


def test_RULES_resign_a_resignation_is_followed_by_its_game_over_and_nothing_else():
    events, state = ranked_start()
    x, y = state.empty_slot_points()[0]
    with pytest.raises(CorruptStream) as refused:
        fold([*events, GameResigned(1), LinePlaced(1, x, y, 2, (), 0)])
    assert "after game_resigned" in str(refused.value)
    with pytest.raises(CorruptStream):  # a computer seat cannot resign
        fold([*events, GameResigned(2)])


def test_RULES_abort_replay_check_refuses_an_abort_too_late_or_of_another_mode():
    events, state = _whole_turn(*_online())
    events, state = _then(events, state, Advance(state.turn))
    assert "abort_too_late" in _refused(events + [GameAborted(1), SeedRevealed("21")])
    with pytest.raises(CorruptStream):
        fold([*events, GameAborted(1)])
    mine, _ = ranked_start()
    assert "abort_online_only" in _refused(mine + [GameAborted(1), SeedRevealed("21")])


def test_RULES_resign_abort_a_resigned_game_is_reviewed_as_ended_an_aborted_one_as_left():
    """As a full board ends a game in stage 3 after its pieces, so does a resignation
    there: the turn's pieces are judged. An aborted game is left, as an abandoned one:
    its unfinished turn's pieces are not."""
    events, state = _to_stage(*ranked_start(), 3)
    resigned = review_game(events + decide(state, Resign(1)))
    assert [(t.seat, t.stage2 is not None, t.pieces is not None)
            for t in resigned.turns] == [(1, True, True)]
    events, state = _to_stage(*_online(), 3)
    aborted = review_game(events + decide(state, Abort(state.turn)))
    assert [(t.stage2 is not None, t.pieces) for t in aborted.turns] == [(True, None)]
