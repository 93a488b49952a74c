"""The analyst (`projections.analyst`): a catch-up subscription that reviews each
ended game exactly once, on both databases, also with two analysts at work."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import timedelta

import pytest

from service.domain.events import Event, GameCreated
from service.domain.review import Review, review_game
from service.projections.analyst import NAME, Analyst, Step
from service.projections.catch_up import review_all
from service.services import Services
from service.store import EventStore, utcnow
from tests.factories import build_stream, store_stream


def _ended_game(services: Services, seed: int, size: tuple[int, int] = (7, 9)) -> str:
    stream = build_stream(seed=seed, player_name="Ada", turns=None, height=size[0],
                          width=size[1])
    assert stream.state.over
    return store_stream(services, stream).game_id


def _running_game(services: Services, seed: int) -> str:
    return store_stream(services, build_stream(seed=seed, player_name="Bo", turns=1)).game_id


def _reviewed(store: EventStore) -> set[str]:
    with store.unit_of_work(write=False) as uow:
        ids = uow.games.ids()
        return {g for g in ids if uow.reviews.get(g) is not None}


def _checkpoint(store: EventStore) -> int:
    with store.unit_of_work(write=False) as uow:
        return uow.checkpoints.position(NAME)


def test_each_ended_game_is_reviewed_once_and_running_ones_wait(services: Services) -> None:
    store = services.store
    ended = {_ended_game(services, seed) for seed in (1, 2, 3)}
    running = _running_game(services, 4)
    analyst = Analyst(store)
    steps: list[Step] = []
    assert analyst.catch_up(steps.append) == 3
    assert _reviewed(store) == ended
    assert Counter(steps)[Step.REVIEWED] == 3 and steps[-1] is Step.IDLE
    with store.unit_of_work(write=False) as uow:
        assert _checkpoint(store) == uow.log.last()
        for game_id in ended:
            stored = uow.reviews.get(game_id)
            assert stored is not None
            events = [s.event for s in uow.events.load(game_id)]
            assert stored.body == review_game(events).to_dict()  # the whole review, no part
            assert stored.accuracy == tuple(s["accuracy"] for s in stored.body["seats"])
    assert analyst.catch_up() == 0  # nothing twice
    # the running game is abandoned (past its time): the next steps review it, only it
    assert services.retention.abandon_stale(now=utcnow() + timedelta(days=30)).abandoned
    assert analyst.catch_up() == 1
    assert _reviewed(store) == ended | {running}


def test_a_resigned_game_and_an_aborted_one_are_reviewed_once_each(services: Services) -> None:
    """``game_over`` after ``game_resigned`` ends a game as any game_over does, and
    ``game_aborted`` is one of the analyst's endings (`ENDINGS`)."""
    store = services.store
    resigned = services.play.create_game(player_name="Ada", height=7, width=9)
    services.play.advance(resigned.game_id, resigned.token)
    services.play.resign(resigned.game_id, resigned.token)
    aborted = services.play.create_game(player_name="Ann", mode="online", height=7, width=9)
    services.play.abort(aborted.game_id, aborted.token)
    running = _running_game(services, 4)
    steps: list[Step] = []
    assert Analyst(store).catch_up(steps.append) == 2
    assert _reviewed(store) == {resigned.game_id, aborted.game_id}
    assert running not in _reviewed(store)
    with store.unit_of_work(write=False) as uow:
        for game_id in (resigned.game_id, aborted.game_id):
            stored = uow.reviews.get(game_id)
            assert stored is not None and "error" not in stored.body
            events = [s.event for s in uow.events.load(game_id)]
            assert stored.body == review_game(events).to_dict()


def test_a_game_deleted_before_its_review_is_passed_over(services: Services) -> None:
    """Deleted before the analyst reads it: its events are gone with it. Deleted
    while it is reviewed: the step moves the checkpoint past it and stores nothing."""
    store = services.store
    gone, kept = _ended_game(services, 5), _ended_game(services, 6)
    services.admin.delete_game(gone)
    during = _ended_game(services, 9)

    calls: list[int] = []

    def review_while_deleting(events: Sequence[Event]) -> Review:
        calls.append(len(events))
        if len(calls) == 2:  # the second game to end: `during`
            services.admin.delete_game(during)
        return review_game(events)

    steps: list[Step] = []
    assert Analyst(store, review=review_while_deleting).catch_up(steps.append) == 1
    assert steps.count(Step.SKIPPED) == 1
    assert _reviewed(store) == {kept} and during not in _ids(store)
    with store.unit_of_work(write=False) as uow:
        assert _checkpoint(store) == uow.log.last()


def _ids(store: EventStore) -> set[str]:
    with store.unit_of_work(write=False) as uow:
        return uow.games.ids()


def test_a_second_analyst_waits_for_the_lease(store: EventStore, services: Services) -> None:
    _ended_game(services, 7)
    first, second = Analyst(store, holder="first"), Analyst(store, holder="second")
    assert first.step() is Step.REVIEWED
    assert second.step() is Step.WAITING
    first.release()
    assert second.step() is Step.MOVED  # the rest of the events: no game ended there
    assert second.step() is Step.IDLE


def test_a_long_review_keeps_its_lease_and_the_other_analyst_waits(
        store: EventStore, services: Services) -> None:
    """The lease (0.5 s) is renewed while a review takes 2 s: the second analyst
    waits all along, then finds nothing left; the game is reviewed once."""
    game_id = _ended_game(services, 9)
    later = _ended_game(services, 10)
    started = threading.Event()

    def slow_review(events: Sequence[Event]) -> Review:
        started.set()
        time.sleep(2.0)
        return review_game(events)

    slow = Analyst(store, holder="slow", lease_s=0.5, review=slow_review)
    result: list[Step] = []
    thread = threading.Thread(target=lambda: result.append(slow.step()))
    thread.start()
    assert started.wait(10)
    other = Analyst(store, holder="other", lease_s=0.5)
    seen: list[Step] = []
    while thread.is_alive():
        seen.append(other.step())
        time.sleep(0.1)
    thread.join(10)
    assert result == [Step.REVIEWED]
    assert len(seen) >= 10 and set(seen) == {Step.WAITING}
    assert _reviewed(store) == {game_id}
    slow.release()
    assert other.catch_up() == 1  # the later game, once
    assert _reviewed(store) == {game_id, later}


def test_a_step_that_outlived_its_lease_stores_nothing(store: EventStore,
                                                        services: Services) -> None:
    """The slow analyst renews nothing while it reviews (as a stopped process), so
    its lease runs out; another takes over and records the game. The slow one's
    compare-and-set fails: its step is lost whole."""
    game_id = _ended_game(services, 8)
    started, may_finish = threading.Event(), threading.Event()

    def slow_review(events: Sequence[Event]) -> Review:
        started.set()
        may_finish.wait(10)
        return review_game(events)

    slow = Analyst(store, holder="slow", lease_s=0.5, review=slow_review, heartbeat=False)
    result: list[Step] = []
    thread = threading.Thread(target=lambda: result.append(slow.step()))
    thread.start()
    assert started.wait(10)
    time.sleep(0.6)  # the slow analyst's lease has run out
    assert Analyst(store, holder="fast").step() is Step.REVIEWED
    may_finish.set()
    thread.join(10)
    assert result == [Step.LOST]
    assert _reviewed(store) == {game_id}


def _two_analysts(store: EventStore, games: set[str], *, lease_s: float,
                  review: Callable[[Sequence[Event]], Review] = review_game,
                  ) -> dict[str, list[Step]]:
    """Analysts "a" and "b" follow `store` at once until every game of `games` is
    reviewed (60 s at most); the steps each took. No step may fail."""
    stop = threading.Event()
    steps: dict[str, list[Step]] = {"a": [], "b": []}
    failures: list[BaseException] = []

    def follow(holder: str) -> None:
        analyst = Analyst(store, holder=holder, lease_s=lease_s, review=review)
        try:
            while not stop.is_set():
                steps[holder].append(analyst.step())
                if steps[holder][-1] is Step.WAITING:
                    time.sleep(0.02)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=follow, args=(h,)) for h in steps]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 60
    while _reviewed(store) != games and time.monotonic() < deadline and not failures:
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join(10)
    assert not failures
    assert _reviewed(store) == games
    return steps


def test_two_analysts_review_each_game_exactly_once(store: EventStore,
                                                    services: Services) -> None:
    """Two analysts follow one database at once, with leases short enough to change
    hands while games are reviewed: every ended game gets one review, each recorded
    by exactly one step, and no step fails."""
    games = {_ended_game(services, seed) for seed in range(20, 32)}
    steps = _two_analysts(store, games, lease_s=0.05)
    recorded = Counter(s for holder in steps.values() for s in holder)
    assert recorded[Step.REVIEWED] == len(games)
    assert all(steps.values()), "both analysts took steps"


def test_two_analysts_with_a_slow_game_review_each_game_once_and_lose_no_step(
        store: EventStore, services: Services) -> None:
    """One game's review takes 1.5 s, three leases (0.5 s): its analyst keeps the
    lease, the other waits and then reviews the games that ended after it. Every game
    once, no step lost."""
    slow_game = _ended_game(services, 60, size=(9, 11))  # the only one of that size
    games = {slow_game} | {_ended_game(services, seed) for seed in range(61, 65)}

    def review(events: Sequence[Event]) -> Review:
        if isinstance(events[0], GameCreated) and events[0].height == 9:
            time.sleep(1.5)
        return review_game(events)

    steps = _two_analysts(store, games, lease_s=0.5, review=review)
    recorded = Counter(s for holder in steps.values() for s in holder)
    assert recorded[Step.REVIEWED] == len(games) and recorded[Step.LOST] == 0


@pytest.mark.parametrize("rebuild_twice", [False, True])
def test_rebuild_forgets_and_reviews_everything_again(services: Services,
                                                      rebuild_twice: bool) -> None:
    store = services.store
    games = {_ended_game(services, seed) for seed in (40, 41)}
    analyst = Analyst(store)
    assert analyst.catch_up() == 2
    assert analyst.rebuild() == 2
    if rebuild_twice:
        assert analyst.rebuild() == 0
    assert _reviewed(store) == set() and _checkpoint(store) == 0
    assert analyst.catch_up() == 2
    assert _reviewed(store) == games


def test_a_review_that_fails_is_stored_as_failed_not_left_pending(services: Services) -> None:
    store = services.store
    game_id = _ended_game(services, 50)

    def broken(events: Sequence[Event]) -> Review:
        raise ValueError("no review today")

    steps: list[Step] = []
    assert Analyst(store, review=broken).catch_up(steps.append) == 1
    assert Step.FAILED in steps
    analysis = services.reviews.analysis(game_id)
    assert analysis.status == "failed" and analysis.review is not None
    assert "no review today" in analysis.review.body["error"]
    assert services.reviews.accuracies([game_id]) == {game_id: (None, None)}
    assert review_all(services.store, rebuild=True) == (1, False)  # a rebuild tries again
    assert services.reviews.analysis(game_id).status == "ready"
