"""Forgetting a player (`PlayerService.forget`): afterwards no page, answer, export or
high score row shows the name; every game still replays, exports, imports and
verifies; the name is out of everyone's reach until its hold ends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from service.domain.commands import RuleViolation
from service.domain.export_format import to_jsonl
from service.errors import NameClaimed, PlayerNotFound
from service.services import Services
from service.services.results import SignedIn
from squares_testing.play import play_unassisted
from tests.factories import EventStreamFactory

NAME = "Eda Fırat"


def _finished(services: Services, name: str) -> str:
    game = services.play.create_game(player_name=name, height=7, width=9, difficulty="easy")
    play_unassisted(services, game.game_id, game.token, game.state)
    return game.game_id


def _imported(services: Services, name: str) -> str:
    """A game whose events name the player in text (as every game before player
    records did): an import."""
    stream = EventStreamFactory.build(small=True, finished=True, seed=7, player_name=name)
    return services.admin.import_game(to_jsonl(stream.events, None))


def _everything_shown(services: Services, game_id: str) -> str:
    summary, state = services.queries.get_game(game_id)
    events, _ = services.queries.event_page(game_id)
    return " ".join([repr(summary), repr(state.seats), repr([s.event for s in events]),
                     services.admin.export_game(game_id),
                     repr(services.queries.high_scores(height=7, width=9, limit=100))])


def test_a_forgotten_player_shows_nowhere_and_their_games_still_verify(
        services: Services) -> None:
    new = _finished(services, NAME)
    old = _imported(services, NAME)  # its events hold the name in text
    other = _finished(services, "Bora")
    assert NAME in _everything_shown(services, new)
    assert NAME in _everything_shown(services, old)

    done = services.players.forget("EDA FIRAT")

    for game_id in (new, old):
        shown = _everything_shown(services, game_id)
        assert "Eda" not in shown
        assert "deleted player" in shown
        assert services.queries.replay_step(game_id, 1)[0].version == 1
    assert "Bora" in _everything_shown(services, other)
    assert len(done.placeholders) >= 1
    with pytest.raises(PlayerNotFound):
        services.players.page(NAME)
    assert services.admin.verify() == []
    exported = services.admin.export_game(new)
    services.admin.delete_game(new)
    assert services.admin.import_game(exported)
    assert services.admin.verify() == []


def test_a_forgotten_name_is_held_until_its_hold_ends(services: Services) -> None:
    _finished(services, NAME)
    done = services.players.forget(NAME)
    for look_alike in (NAME, "eda fırat", "EDA FIRAT", "Eda Fıraṭ"):
        with pytest.raises(NameClaimed):
            services.play.create_game(player_name=look_alike, height=7, width=9)
    services.core.clock = lambda: done.free_at + timedelta(seconds=1)
    assert services.play.create_game(player_name=NAME, height=7, width=9).state.seats[0].name \
        == NAME


def test_a_claimed_name_and_its_look_alikes_need_its_holder(services: Services) -> None:
    with services.store.unit_of_work() as uow:
        holder = uow.player_records.claim(NAME, services.core.clock())
    for look_alike in (NAME, "eda fırat", "EDA FIRAT", "Eda Fıraṭ", "Eda  Fırat"):
        with pytest.raises(NameClaimed) as caught:
            services.play.create_game(player_name=look_alike, height=7, width=9)
        assert caught.value.code == "name_claimed"
    for blank in ("Eda\u2800Fırat", "Eda\u3164Fırat", "Eda\uffa0Fırat"):
        with pytest.raises(RuleViolation) as refused:
            services.play.create_game(player_name=blank, height=7, width=9)
        assert refused.value.code == "invalid_name"
    mine = services.play.create_game(player_name="eda fırat", height=7, width=9,
                                     signed_in=SignedIn(holder, NAME))
    assert mine.state.seats[0].name == NAME  # the holder's own spelling
    page = services.players.page("EDA FIRAT")
    assert page.claimed and [g.summary.game_id for g in page.games] == [mine.game_id]


def test_forgetting_a_name_nobody_played_is_a_not_found(services: Services) -> None:
    with pytest.raises(PlayerNotFound):
        services.players.forget("Nobody Here")
