"""RULES E1 (issue 34) in the service layer, on every backend: the first hint a human
seat asks for appends ``hint_used`` in one small transaction, later hints write
nothing, the hint cache keeps working, and a move chosen on the version read before
the hint is still current (the clients' ``expected_version`` stays valid)."""

from __future__ import annotations

import threading

import pytest

from service.domain.commands import Advance, PlaceLine
from service.domain.events import HighScoresEntered, HintUsed
from service.domain.fold import fold
from service.errors import TokenInvalid, TokenMissing, VersionConflict
from service.services import Services


def _move(services: Services, game_id: str, token: str, command: object,
          expected: int | None = None):
    if isinstance(command, PlaceLine):
        return services.play.place_line(game_id, token, command.x, command.y, expected)
    assert isinstance(command, Advance)
    return services.play.advance(game_id, token, expected)


def _types(services: Services, game_id: str) -> list[str]:
    return [s.event.TYPE for s in services.queries.events_of(game_id)]


def test_rule_E1_the_first_hint_appends_hint_used_and_later_ones_write_nothing(
        services: Services) -> None:
    created = services.play.create_game(player_name="Ada", height=9, width=11)  # ranked
    game_id, token = created.game_id, created.token
    for refused, error in ((None, TokenMissing), ("x" * 43, TokenInvalid)):
        with pytest.raises(error):
            services.play.hint(game_id, refused)
    assert _types(services, game_id) == ["game_created"]  # no spectator unranks a game
    first = services.play.hint(game_id, token)
    assert (first.version, first.assisted) == (2, True)
    assert [(s.seq, s.event) for s in first.events] == [(2, HintUsed(1))]
    second = services.play.hint(game_id, token)
    assert (second.command, second.version, second.events) == (first.command, 2, [])
    state = services.queries.get_state(game_id)
    assert state.assisted and state.version == 2
    assert services.queries.get_summary(game_id).assisted is True
    assert _types(services, game_id) == ["game_created", "hint_used"]


def test_rule_E1_a_move_chosen_before_the_hint_names_the_version_read_before_it(
        services: Services) -> None:
    created = services.play.create_game(player_name="Ada", height=9, width=11, seed=5)
    game_id, token = created.game_id, created.token
    hint = services.play.hint(game_id, token)  # the client read version 1, then asked
    moved = _move(services, game_id, token, hint.command, expected=1)
    assert [s.seq for s in moved.events][0] == 3  # after hint_used, at 2
    # only until the next move: then the version before the hint is stale
    with pytest.raises(VersionConflict) as caught:
        services.play.advance(game_id, token, expected_version=1)
    assert caught.value.details == {"current_version": moved.state.version}
    after = _move(services, game_id, token, Advance(1), expected=moved.state.version)
    assert after.state.version > moved.state.version


def test_rule_E1_an_assisted_game_still_ends_and_replays_but_enters_no_table(
        services: Services) -> None:
    created = services.play.create_game(player_name="Ada", difficulty="easy", height=7,
                                   width=9)
    game_id, token = created.game_id, created.token
    state = created.state
    seen = list(created.events)
    while not state.over:  # a hint before every move, as the attacker did
        hint = services.play.hint(game_id, token)
        seen += hint.events
        result = _move(services, game_id, token, hint.command, expected=state.version)
        seen += result.events
        state = result.state
    assert [s.seq for s in seen] == list(range(1, state.version + 1))  # gap-free
    assert [s.event.TYPE for s in seen].count("hint_used") == 1
    assert not any(isinstance(s.event, HighScoresEntered) for s in seen)
    assert fold(s.event for s in seen) == services.queries.get_state(game_id)
    assert [h for h in services.queries.high_scores(100, height=7, width=9)
            if h.game_id == game_id] == []
    assert services.admin.verify(game_id) == []


def test_rule_E1_a_computer_seat_s_hint_needs_no_token_and_writes_nothing(
        services: Services) -> None:
    created = services.play.create_game(player_name="x", mode="computer_vs_computer",
                                   difficulty="easy", height=7, width=9, seed=2)
    hint = services.play.hint(created.game_id)
    assert (hint.version, hint.assisted, hint.events) == (1, False, [])


def test_rule_E1_two_first_hints_at_once_write_hint_used_once(services: Services) -> None:
    created = services.play.create_game(player_name="Ada", height=9, width=11)
    game_id, token = created.game_id, created.token
    start = threading.Barrier(4)
    answers = []

    def ask() -> None:
        start.wait()
        answers.append(services.play.hint(game_id, token))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 4 and {a.version for a in answers} == {2}
    assert sum(len(a.events) for a in answers) == 1
    assert _types(services, game_id) == ["game_created", "hint_used"]
