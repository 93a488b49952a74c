"""The daily challenge on a real database (SQLite and PostgreSQL): a date's games are
the same game everywhere its secret is, the seed stays out of their events until the
date is over and then matches the commitment, one ranked attempt per player and
date, and the date an attempt belongs to is the UTC date it started on."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from service.domain.commands import PlaceLine
from service.domain.seeds import commitment
from service.errors import DailyNoHints, DailyNotYet
from service.ops.settings import Settings
from service.services import Services
from service.services.daily import DailyStart
from service.store import EventStore
from service.store.daily import DailyAttempt, RankedAttemptTaken
from squares_testing.greedy import Greedy

SECRET = "the daily secret of the tests"
LAST_SECOND = datetime(2026, 11, 28, 23, 59, 59, tzinfo=UTC)


def _services(url: str) -> Services:
    return Services(EventStore.from_url(url),
                    Settings.from_env().replace(daily_secret=SECRET))


@pytest.fixture
def daily(database_url: str) -> Iterator[Services]:
    services = _services(database_url)
    services.core.clock = lambda: LAST_SECOND
    yield services
    services.store.dispose()


def _player(services: Services, name: str) -> int:
    with services.store.unit_of_work() as uow:
        return uow.player_records.claim(name, services.clock())


def _play_to_the_end(services: Services, started: DailyStart) -> None:
    """The greedy strategy's moves for the human until the game is over (the computer
    answers each turn in the same request)."""
    game = started.created
    state = game.state
    while not state.over:
        command = Greedy().next_command(state)
        if isinstance(command, PlaceLine):
            state = services.play.place_line(game.game_id, game.token, command.x, command.y).state
        else:
            state = services.play.advance(game.game_id, game.token).state


def _events(services: Services, game_id: str) -> list[dict[str, Any]]:
    """The game's events as a client reads them, its seats' names and player ids
    aside (the seats are different players)."""
    events = [stored.event.to_dict() for stored in services.store.load(game_id)]
    for event in events:
        if event["type"] == "game_created":
            event["data"]["seats"] = [{**seat, "name": "", "player": None}
                                      for seat in event["data"]["seats"]]
    return events


def test_two_games_of_a_date_with_the_same_moves_are_the_same_game_on_two_instances(
        daily: Services, sqlite_database_url: str) -> None:
    other = _services(sqlite_database_url)  # another instance with the same secret
    other.core.clock = lambda: LAST_SECOND
    try:
        ann = daily.daily.start(player_id=_player(daily, "Ann"))
        bob = other.daily.start(player_id=_player(other, "Bob"))
        assert ann.ranked and bob.ranked and ann.date == bob.date == LAST_SECOND.date()
        _play_to_the_end(daily, ann)
        _play_to_the_end(other, bob)
        mine, theirs = _events(daily, ann.created.game_id), _events(other, bob.created.game_id)
        assert mine == theirs
        assert mine[0]["data"]["rules_edition"] == 2 and mine[0]["data"]["seed"] is None
        # the game ended without revealing the date's seed, and entered no high score table
        assert mine[-1]["type"] == "game_over"
        assert "seed_revealed" not in {e["type"] for e in mine}
        assert not [h for h in daily.queries.high_scores() if h.game_id == ann.created.game_id]
        assert not [h for h in other.queries.high_scores() if h.game_id == bob.created.game_id]
    finally:
        other.store.dispose()


def test_the_seed_is_revealed_once_the_date_is_over_and_matches_the_commitment(
        daily: Services) -> None:
    started = daily.daily.start(player_id=_player(daily, "Ann"))
    today = daily.daily.day()
    assert today.seed is None and not today.over
    assert today.commitment == started.created.state.game.seed_commitment
    assert daily.queries.get_state(started.created.game_id).public_seed is None
    daily.core.clock = lambda: LAST_SECOND + timedelta(seconds=1)
    past = daily.daily.day(LAST_SECOND.date())
    assert past.over and past.seed is not None
    assert commitment(past.seed) == today.commitment  # the fair play check
    with pytest.raises(DailyNotYet):
        daily.daily.day(LAST_SECOND.date() + timedelta(days=2))
    # the attempt still running at midnight is over: its seed is public now
    assert daily.queries.get_state(started.created.game_id).abandoned == "day_over"
    check = daily.daily.verify(LAST_SECOND.date())
    assert check.reveal_matches and check.games == 1 and check.problems == []
    assert daily.admin.verify() == []


def test_a_second_attempt_and_a_guests_are_practice_and_the_ranked_one_has_no_hints(
        daily: Services) -> None:
    ann = _player(daily, "Ann")
    first = daily.daily.start(player_id=ann)
    second = daily.daily.start(player_id=ann)
    guest = daily.daily.start(player_id=None, player_name="Gus")
    assert first.ranked and second.practice and guest.practice
    with pytest.raises(DailyNoHints):
        daily.play.hint(first.created.game_id, first.created.token)
    assert daily.play.hint(second.created.game_id, second.created.token).assisted
    _play_to_the_end(daily, second)  # practice: in no ranking
    assert daily.daily.day().ranking == []
    daily.play.resign(first.created.game_id, first.created.token)  # still ranked
    (entry,) = daily.daily.day().ranking
    assert (entry.game_id, entry.name, entry.place) == (first.created.game_id, "Ann", 1)
    assert entry.score == daily.queries.get_state(first.created.game_id).scores[0]
    history = daily.daily.history(ann)
    assert history.streak == 1 and [a.game_id for a in history.attempts] == [
        first.created.game_id]


def test_the_ranking_is_by_score_ties_by_the_earlier_end(daily: Services) -> None:
    players = [_player(daily, name) for name in ("Ann", "Bob", "Cem")]
    games = [daily.daily.start(player_id=p) for p in players]
    for game in (games[2], games[0], games[1]):  # Cem ends first, then Ann, then Bob
        daily.play.resign(game.created.game_id, game.created.token)
    ranking = daily.daily.day().ranking
    scores = [daily.queries.get_state(g.created.game_id).scores[0] for g in games]
    assert scores[0] == scores[1] == scores[2] == 0  # resigned before moving
    assert [e.name for e in ranking] == ["Cem", "Ann", "Bob"]


def test_an_attempt_belongs_to_the_utc_date_it_started_on(daily: Services) -> None:
    ann = _player(daily, "Ann")
    late = daily.daily.start(player_id=ann)  # 23:59:59
    daily.core.clock = lambda: LAST_SECOND + timedelta(seconds=1)  # the next date
    early = daily.daily.start(player_id=ann)
    assert late.date == date(2026, 11, 28) and early.date == date(2026, 11, 29)
    assert late.ranked and early.ranked  # one ranked attempt per date
    assert late.created.state.game.seed_commitment != early.created.state.game.seed_commitment
    assert daily.daily.history(ann).streak == 2


def test_one_ranked_attempt_even_when_two_start_at_once(daily: Services) -> None:
    ann = _player(daily, "Ann")
    with ThreadPoolExecutor(2) as pool:
        started = list(pool.map(lambda _: daily.daily.start(player_id=ann), range(2)))
    assert sorted(s.ranked for s in started) == [False, True]
    # the unique index is the last word: a second ranked row of the date is refused
    other = daily.play.create_game(player_name="Bob", seed=1)  # a game of no date
    with pytest.raises(RankedAttemptTaken), daily.store.unit_of_work() as uow:
        uow.daily.add(DailyAttempt(other.game_id, LAST_SECOND.date(), ann, True,
                                   LAST_SECOND, 0, None))
    with daily.store.unit_of_work() as uow:  # as practice it is taken
        uow.daily.add(DailyAttempt(other.game_id, LAST_SECOND.date(), ann, False,
                                   LAST_SECOND, 0, None))
    assert next(s for s in started if s.practice).created.state.game.hints
