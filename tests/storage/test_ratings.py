"""Ratings on a real database (SQLite and PostgreSQL): a rated online game between two
signed-in players moves both ratings once, as `domain.ratings.rate_game` says, in the
transaction that appends its end; resigning and an abandonment (the seat to move
loses) count; a casual game, an aborted one and an abandonment before the friend
joined move nothing; a guest, a player under another's name and a player against
themselves cannot play a rated game."""

from __future__ import annotations

from datetime import timedelta

import pytest

from service.domain.commands import PlaceLine
from service.domain.rated_games import RatedResult
from service.domain.ratings import DEFAULT, Rating, rate_game
from service.errors import NameClaimed, RatedAgainstSelf, RatedNeedsSignIn
from service.services import Services
from service.services.results import ClaimedSeat, CreatedGame, SignedIn
from service.store.ratings import RatedPlayer, RatingChange
from squares_testing.greedy import Greedy


def _signed_in(services: Services, name: str) -> SignedIn:
    with services.store.unit_of_work() as uow:
        return SignedIn(uow.player_records.claim(name, services.clock()), name)


@pytest.fixture
def ann(services: Services) -> SignedIn:
    return _signed_in(services, "Ann")


@pytest.fixture
def bob(services: Services) -> SignedIn:
    return _signed_in(services, "Bob")


def _online(services: Services, creator: SignedIn | None, friend: SignedIn | None, *,
            rated: bool = True, friend_name: str | None = None
            ) -> tuple[CreatedGame, ClaimedSeat]:
    created = services.play.create_game(
        player_name=creator.name if creator else "Guest", mode="online", height=7, width=7,
        rated=rated, signed_in=creator)
    assert created.invite is not None
    claimed = services.play.claim_seat(
        created.game_id, created.invite.code,
        friend_name or (friend.name if friend else "Friend"), signed_in=friend)
    return created, claimed


def _tokens(created: CreatedGame, claimed: ClaimedSeat) -> dict[int, str]:
    return {3 - claimed.seat: created.token, claimed.seat: claimed.token}


def _play_out(services: Services, created: CreatedGame, claimed: ClaimedSeat) -> int:
    """Both seats play the greedy strategy's moves until the game is over: the winner."""
    tokens = _tokens(created, claimed)
    state = claimed.state
    while not state.over:
        command = Greedy().next_command(state)
        token = tokens[state.turn]
        if isinstance(command, PlaceLine):
            state = services.play.place_line(created.game_id, token, command.x, command.y).state
        else:
            state = services.play.advance(created.game_id, token).state
    assert state.winner is not None
    return state.winner


def _rating(services: Services, who: SignedIn) -> RatedPlayer | None:
    with services.store.unit_of_work(write=False) as uow:
        return uow.ratings.of(who.player_id)


def _history(services: Services, who: SignedIn) -> list[RatingChange]:
    with services.store.unit_of_work(write=False) as uow:
        return uow.ratings.history(who.player_id, limit=10)


def _seats(services: Services, game_id: str, ann: SignedIn, bob: SignedIn
           ) -> tuple[SignedIn, SignedIn]:
    """(seat 1's player, seat 2's player)."""
    state = services.store.load_state(game_id)
    first = state.seat_info(1).player
    return (ann, bob) if first == ann.player_id else (bob, ann)


def _expected(first_score: float) -> tuple[Rating, Rating]:
    return rate_game(DEFAULT, DEFAULT, first_score)


def _assert_rated(services: Services, first: SignedIn, second: SignedIn,
                  first_score: float, game_id: str) -> None:
    expected = _expected(first_score)
    for who, want, score in ((first, expected[0], first_score),
                             (second, expected[1], 1.0 - first_score)):
        got = _rating(services, who)
        assert got is not None
        assert (got.rating, got.deviation, got.volatility, got.games) == (
            pytest.approx(want.rating, abs=1e-9), pytest.approx(want.deviation, abs=1e-9),
            pytest.approx(want.volatility, abs=1e-12), 1)
        (change,) = _history(services, who)
        assert change.game_id == game_id
        assert change.result == {1.0: "win", 0.5: "draw", 0.0: "loss"}[score]
        assert (change.rating_before, change.deviation_before) == (DEFAULT.rating,
                                                                   DEFAULT.deviation)
        assert change.rating_after == pytest.approx(want.rating, abs=1e-9)


def test_a_rated_game_played_out_moves_both_ratings_once_as_glicko2_says(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    created, claimed = _online(services, ann, bob)
    winner = _play_out(services, created, claimed)
    first, second = _seats(services, created.game_id, ann, bob)
    first_score = {0: 0.5, 1: 1.0, 2: 0.0}[winner]
    _assert_rated(services, first, second, first_score, created.game_id)
    # rating the same end again (a retry, a replay) moves nobody twice
    with services.store.unit_of_work() as uow:
        assert not uow.ratings.record(
            created.game_id, RatedResult(first.player_id, second.player_id, first_score),
            services.clock())
    _assert_rated(services, first, second, first_score, created.game_id)
    with services.store.unit_of_work(write=False) as uow:
        table = uow.ratings.table(limit=10)
        assert uow.ratings.count() == 2
    assert [row.rating for row in table] == sorted((row.rating for row in table), reverse=True)
    assert {row.name for row in table} == {"Ann", "Bob"}


def test_a_second_rated_game_starts_from_the_first_ones_ratings(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    created, claimed = _online(services, ann, bob)
    services.play.resign(created.game_id, created.token)  # Ann resigns: Bob wins
    again, again_claimed = _online(services, ann, bob)
    services.play.resign(again.game_id, again_claimed.token)  # Bob resigns: Ann wins
    ann_first, bob_first = rate_game(DEFAULT, DEFAULT, 0.0)
    ann_now, bob_now = rate_game(ann_first, bob_first, 1.0)
    got_ann, got_bob = _rating(services, ann), _rating(services, bob)
    assert got_ann is not None and got_bob is not None
    assert (got_ann.rating, got_ann.games) == (pytest.approx(ann_now.rating, abs=1e-9), 2)
    assert (got_bob.rating, got_bob.games) == (pytest.approx(bob_now.rating, abs=1e-9), 2)
    assert [c.result for c in _history(services, ann)] == ["win", "loss"]  # newest first
    assert [c.opponent for c in _history(services, ann)] == ["Bob", "Bob"]


def test_resigning_a_rated_game_is_a_loss(services: Services, ann: SignedIn,
                                          bob: SignedIn) -> None:
    created, claimed = _online(services, ann, bob)
    services.play.resign(created.game_id, claimed.token)  # Bob resigns
    first, second = _seats(services, created.game_id, ann, bob)
    _assert_rated(services, first, second, 1.0 if first == ann else 0.0, created.game_id)


def test_an_abandoned_rated_game_is_a_loss_for_the_seat_that_was_to_move(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    created, claimed = _online(services, ann, bob)
    to_move = claimed.state.turn
    later = services.clock() + services.core.abandon_after + timedelta(seconds=1)
    sweep = services.retention.abandon_stale(later)
    assert sweep.abandoned == ((created.game_id, "idle"),)
    first, second = _seats(services, created.game_id, ann, bob)
    _assert_rated(services, first, second, 0.0 if to_move == 1 else 1.0, created.game_id)


def test_a_casual_game_and_an_aborted_rated_game_move_nothing(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    casual, casual_claimed = _online(services, ann, bob, rated=False)
    services.play.resign(casual.game_id, casual_claimed.token)
    aborted, _ = _online(services, ann, bob)
    services.play.abort(aborted.game_id, aborted.token)
    assert services.store.load_state(aborted.game_id).aborted is not None
    assert _rating(services, ann) is None and _rating(services, bob) is None
    assert _history(services, ann) == [] and _history(services, bob) == []


def test_a_rated_game_nobody_joined_moves_nothing_when_abandoned(
        services: Services, ann: SignedIn) -> None:
    created = services.play.create_game(player_name="Ann", mode="online", height=7, width=7,
                                        rated=True, signed_in=ann)
    later = services.clock() + services.core.abandon_after + timedelta(seconds=1)
    assert services.retention.abandon_stale(later).abandoned[0][0] == created.game_id
    assert _rating(services, ann) is None


def test_rated_is_refused_for_guests_other_names_and_against_oneself(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    with pytest.raises(RatedNeedsSignIn):  # a guest creator
        services.play.create_game(player_name="Guest", mode="online", rated=True)
    with pytest.raises(RatedNeedsSignIn):  # signed in, under a guest's name
        services.play.create_game(player_name="Zed", mode="online", rated=True, signed_in=ann)
    created = services.play.create_game(player_name="Ann", mode="online", rated=True,
                                        signed_in=ann)
    assert created.invite is not None
    with pytest.raises(RatedNeedsSignIn):  # a guest friend
        services.play.claim_seat(created.game_id, created.invite.code, "Friend")
    with pytest.raises(RatedNeedsSignIn):  # signed in, under another (guest) name
        services.play.claim_seat(created.game_id, created.invite.code, "Friend", signed_in=bob)
    with pytest.raises(RatedAgainstSelf):  # the creator, under any name
        services.play.claim_seat(created.game_id, created.invite.code, "Ann", signed_in=ann)
    with pytest.raises(RatedAgainstSelf):
        services.play.claim_seat(created.game_id, created.invite.code, "Other", signed_in=ann)
    claimed = services.play.claim_seat(created.game_id, created.invite.code, "Bob",
                                       signed_in=bob)  # nothing was written before
    assert claimed.state.open_seat is None and claimed.state.game.rated


def test_the_rematch_of_a_rated_game_is_rated_and_needs_both_signed_in(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    created, claimed = _online(services, ann, bob)
    services.play.resign(created.game_id, created.token)
    asked = services.play.rematch(created.game_id, claimed.token, signed_in=bob)
    assert services.store.load_state(asked.game_id).game.rated
    with pytest.raises(NameClaimed):  # Ann's seat, but not signed in
        services.play.rematch(created.game_id, created.token, signed_in=None)
    accepted = services.play.rematch(created.game_id, created.token, signed_in=ann)
    assert accepted.game_id == asked.game_id and not accepted.created
    services.play.resign(asked.game_id, asked.token)  # Bob resigns the rematch
    got = _rating(services, ann)
    assert got is not None and got.games == 2


def test_a_forgotten_player_leaves_the_ratings_table_and_their_opponents_history_masks_them(
        services: Services, ann: SignedIn, bob: SignedIn) -> None:
    created, claimed = _online(services, ann, bob)
    services.play.resign(created.game_id, claimed.token)
    (placeholder,) = services.players.forget("Bob").placeholders
    with services.store.unit_of_work(write=False) as uow:
        assert [row.name for row in uow.ratings.table(limit=10)] == ["Ann"]
        assert uow.ratings.count() == 1
    assert [change.opponent for change in _history(services, ann)] == [placeholder]
