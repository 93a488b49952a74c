"""Issue 23, fair play: the choices of committed randomness, practice games, who moves
first online and hints, pinned as RULES tests (see docs/rules.md, "The project's rule choices")."""

from __future__ import annotations

import dataclasses

import pytest

from service.domain.commands import Advance, ClaimSeat, NewGame, PlaceLine
from service.domain.event_codec import event_from_dict
from service.domain.events import GameCreated, SeedRevealed
from service.domain.fold import apply_all, fold
from service.domain.players import play_turn
from service.domain.replay_check import replay_check
from service.domain.rules import decide, high_score_entries
from service.domain.seeds import SeedUnknown, commitment, new_seed
from service.domain.start import start_game
from service.domain.state import CorruptStream
from squares_testing.greedy import Greedy
from squares_testing.play import play_out


def _online(seed: object, **kwargs: object) -> NewGame:
    return NewGame(seed=seed, player_name="Ann", mode="online", height=7, width=9,
                   **kwargs)  # type: ignore[arg-type]


def test_RULES_I5_a_ranked_game_commits_to_a_secret_seed_of_128_bits() -> None:
    seed = new_seed()
    assert len(seed) == 32 and int(seed, 16) >= 0
    assert new_seed() != seed
    (created,) = start_game(NewGame(seed=seed, player_name="Ada", ranked=True))
    assert created.seed is None and created.ranked
    assert created.seed_commitment == commitment(seed) != commitment(new_seed())


def test_RULES_I5_without_the_secret_no_random_decision_can_be_made() -> None:
    command = NewGame(seed="s3cret", player_name="Ada", height=7, width=9, ranked=True)
    public = fold(start_game(command))
    stage2 = apply_all(public, decide(public, Advance(1)))
    x, y = stage2.empty_slot_points()[0]
    ready = apply_all(stage2, decide(stage2, PlaceLine(1, x, y)))
    with pytest.raises(SeedUnknown):  # the turn's random pieces need the seed
        decide(ready, Advance(1))
    with pytest.raises(CorruptStream):  # and a wrong secret is refused
        public.know_secret_seed("guess")


def test_RULES_I5_the_seed_is_revealed_once_when_the_game_ends_and_must_match() -> None:
    command = NewGame(seed="s3cret", player_name="Ada", height=7, width=9, ranked=True)
    events, _state = play_out(command, Greedy())
    assert SeedRevealed("s3cret") in events
    assert fold(events).public_seed == "s3cret"
    at = events.index(SeedRevealed("s3cret"))
    with pytest.raises(CorruptStream, match="commitment"):
        fold([*events[:at], SeedRevealed("other"), *events[at + 1:]])
    with pytest.raises(CorruptStream):  # not before the end
        fold([events[0], SeedRevealed("s3cret")])


def test_RULES_a_chosen_seed_makes_a_practice_game_public_and_unranked() -> None:
    command = NewGame(seed=42, player_name="Ada", height=7, width=9)
    (created,) = start_game(command)
    assert created.seed == "42" and not created.ranked
    _events, state = play_out(command, Greedy())
    assert high_score_entries(state) == ()  # never in the high score table


def test_RULES_online_who_moves_first_is_drawn_from_the_seed() -> None:
    firsts = [start_game(_online(seed))[0].first_seat for seed in range(200)]
    assert set(firsts) == {1, 2} and 70 < firsts.count(1) < 130
    assert {start_game(NewGame(seed=s, player_name="A"))[0].first_seat
            for s in range(20)} == {1}  # RULES I4: the human first against the computer
    # the draw is re-derived: a stream that claims the other seat is refused
    (created,) = start_game(_online(7))
    forged = dataclasses.replace(created, first_seat=3 - created.first_seat)
    with pytest.raises(CorruptStream, match="first_seat"):
        replay_check([forged])


def test_RULES_online_when_seat_2_moves_first_a_round_ends_after_seat_1() -> None:
    def online(seed: int) -> NewGame:
        return NewGame(seed=seed, player_name="Ann", mode="online")  # the default field

    seed = next(s for s in range(100) if start_game(online(s))[0].first_seat == 2)
    created = fold(start_game(online(seed)))
    state = apply_all(created, decide(created, ClaimSeat(2, "Bob")))
    assert state.turn == 2 and state.round == 1
    state = apply_all(state, play_turn(state, Greedy()))
    assert not state.over and state.turn == 1 and state.round == 1
    state = apply_all(state, play_turn(state, Greedy()))
    assert not state.over and state.turn == 2 and state.round == 2


def test_RULES_hints_are_off_online_unless_the_creator_turns_them_on() -> None:
    assert start_game(_online(1))[0].hints is False
    assert start_game(_online(1, hints=True))[0].hints is True
    assert start_game(NewGame(seed=1, player_name="A"))[0].hints is True
    assert start_game(NewGame(seed=1, player_name="A", mode="two_players",
                              second_name="B"))[0].hints is True


def test_RULES_V1_a_version_1_game_created_is_a_ranked_game_with_a_public_seed() -> None:
    (created,) = start_game(NewGame(seed=9, player_name="Ada", height=7, width=9))
    data = {k: v for k, v in created.to_dict()["data"].items()  # the fields of v1
            if k not in ("seed_commitment", "ranked", "first_seat", "hints", "rules_edition",
                         "rated")}
    old = event_from_dict({"type": "game_created", "v": 1, "data": {**data, "seed": 9}},
                          strict=True)
    assert isinstance(old, GameCreated)
    assert (old.seed, old.ranked, old.first_seat, old.hints) == ("9", True, 1, True)
    assert old.seed_commitment == commitment("9")
    assert old.initial_lines == created.initial_lines  # the same draws as before


def test_RULES_I4_an_online_game_from_before_commitments_began_with_seat_1() -> None:
    """Issue 37: a version-1 game is re-derived by the rules it was played under (the
    creator's seat first), not by today's draw, which would refuse it."""
    seed = next(s for s in range(100)
                if start_game(_online(s, rules_edition=1))[0].first_seat == 2)
    (drawn,) = start_game(_online(seed, rules_edition=1))
    data = {k: v for k, v in drawn.to_dict()["data"].items()
            if k not in ("seed_commitment", "ranked", "first_seat", "hints", "rules_edition",
                         "rated")}
    old = event_from_dict({"type": "game_created", "v": 1, "data": {**data, "seed": seed}},
                          strict=True)
    assert isinstance(old, GameCreated) and old.before_commitments
    assert not drawn.before_commitments
    assert (old.first_seat, old.initial_lines) == (1, drawn.initial_lines)
    events = [old]
    state = fold(events)
    for command in (ClaimSeat(2, "Bob"), Advance(1)):
        made = decide(state, command)
        events += made
        state = apply_all(state, made)
    assert state.turn == 1 and state.stage == 2  # seat 1 moved first
    assert replay_check(events).version == len(events)
    with pytest.raises(CorruptStream, match="first_seat 1 \\(the rules give 2\\)"):
        replay_check([dataclasses.replace(drawn, first_seat=1)])  # a committed game may not
