"""The service layer's use cases on a real database (every backend)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from service.domain.commands import Advance, PlaceLine, RuleViolation
from service.domain.events import GameOver, HighScoresEntered, LinePlaced, StageAdvanced
from service.domain.fold import fold
from service.errors import (
    GameNotFound,
    HighScoreNotFound,
    NotComputerTurn,
    StepOutOfRange,
    TokenInvalid,
    TokenMissing,
    VersionConflict,
)
from service.services import GameSummary, Services
from service.store import games_table
from squares_testing.greedy import Greedy
from tests.factories import GameFactory, HighScoreFactory

E2_DEFAULTS = [
    ("Tarık Yolcu", 325),
    ("Eda Fırat", 200),
    ("Sinem Okur", 153),
    ("Deniz Vadi", 85),
    ("Ali Okyanus", 26),
]


def _play(services: Services, game_id: str, token: str | None, command: object):
    if isinstance(command, PlaceLine):
        return services.play.place_line(game_id, token, command.x, command.y)
    assert isinstance(command, Advance)
    return services.play.advance(game_id, token)


def test_create_game_stores_the_first_event_and_a_summary(services: Services) -> None:
    created = services.play.create_game(player_name="  Eda Fırat ", difficulty="easy", seed=42,
                                   height=9, width=11)
    assert created.token and len(created.token) >= 32
    assert [s.seq for s in created.events] == [1]
    assert created.state.version == 1 and created.state.turn == 1 and created.state.stage == 1
    summary = services.queries.get_summary(created.game_id)
    assert summary == GameSummary(
        game_id=created.game_id, status="active", mode="vs_computer", difficulty="easy",
        player_name="Eda Fırat", second_name="Computer", created_at=summary.created_at,
        updated_at=summary.created_at, finished_at=None, version=1, score1=0, score2=0,
        squares1=0, squares2=0,
        ownerless=created.state.ownerless, round=1, turn=1, stage=1, winner=None,
        height=9, width=11, ranked=False,  # a chosen seed: a practice game
        assisted=False, origin="here",
    )
    assert summary.created_at == created.events[0].recorded_at
    assert services.queries.get_state(created.game_id) == created.state
    # without a chosen seed the game is ranked: its seed a secret of 128 random bits
    other = services.play.create_game(player_name="Ali")
    assert other.state.game.seed is None and other.state.game.ranked
    assert int(other.state.secret_seed, 16).bit_length() > 100  # type: ignore[arg-type]
    assert services.queries.get_summary(other.game_id).ranked


def test_rule_violations_pass_through_unchanged_and_store_nothing(services: Services) -> None:
    created = services.play.create_game(player_name="Ali", seed=1)
    with pytest.raises(RuleViolation) as caught:
        services.play.place_line(created.game_id, created.token, 0, 0)  # a dot
    assert caught.value.code == "not_a_line_slot"
    with pytest.raises(RuleViolation) as caught:
        services.play.advance(created.game_id, created.token)
        services.play.advance(created.game_id, created.token)  # stage 2 needs its line
    assert caught.value.code == "stage2_line_missing"
    assert services.queries.get_summary(created.game_id).version == 2
    with pytest.raises(RuleViolation) as caught:
        services.play.create_game(player_name="", seed=1)
    assert caught.value.code == "invalid_name"


def test_tokens_missing_and_invalid(services: Services) -> None:
    created = services.play.create_game(player_name="Sinem", seed=5)
    for token in (None, ""):
        with pytest.raises(TokenMissing) as missing:
            services.play.advance(created.game_id, token)
        assert missing.value.code == "token_missing"
    with pytest.raises(TokenInvalid) as invalid:
        services.play.advance(created.game_id, created.token + "x")
    assert invalid.value.code == "token_invalid"
    with pytest.raises(TokenInvalid):
        services.play.place_line(created.game_id, "wrong", 1, 2)
    assert services.queries.get_summary(created.game_id).version == 1
    assert services.play.advance(created.game_id, created.token).state.stage == 2
    other = services.play.create_game(player_name="Deniz", seed=5)
    with pytest.raises(TokenInvalid):  # a token opens its own game only
        services.play.advance(other.game_id, created.token)


def test_unknown_games_are_game_not_found(services: Services) -> None:
    for call in (
        lambda: services.queries.get_state("nope"),
        lambda: services.queries.get_summary("nope"),
        lambda: services.play.advance("nope", "t"),
        lambda: services.queries.events_of("nope"),
        lambda: services.admin.delete_game("nope"),
        lambda: services.admin.export_game("nope"),
        lambda: services.play.play_computer_turn("nope"),
    ):
        with pytest.raises(GameNotFound) as caught:
            call()
        assert caught.value.code == "game_not_found"


def test_expected_version_must_match(services: Services) -> None:
    created = services.play.create_game(player_name="Eda", seed=9)
    with pytest.raises(VersionConflict) as caught:
        services.play.advance(created.game_id, created.token, expected_version=7)
    assert caught.value.details == {"current_version": 1}
    result = services.play.advance(created.game_id, created.token, expected_version=1)
    assert [s.seq for s in result.events] == [2]


def test_the_computer_plays_its_whole_turn_after_the_humans_turn(services: Services) -> None:
    created = services.play.create_game(player_name="Tarık", seed=11)
    game_id, token = created.game_id, created.token
    state = created.state
    result = None
    while state.round == 1 and state.turn == 1:
        result = _play(services, game_id, token, Greedy().next_command(state))
        state = result.state
    assert result is not None
    kinds = [(type(s.event), s.event.seat) for s in result.events
             if isinstance(s.event, StageAdvanced | LinePlaced)]
    # the human's turn-ending advance, then the computer's whole turn, in one result
    assert kinds[0] == (StageAdvanced, 1)
    assert (StageAdvanced, 2) in kinds
    assert [s.seq for s in result.events] == list(
        range(result.events[0].seq, result.events[-1].seq + 1)
    )
    assert state.turn == 1 and state.round == 2 and state.stage == 1
    assert state == services.queries.get_state(game_id)
    with pytest.raises(NotComputerTurn) as caught:
        services.play.play_computer_turn(game_id)
    assert caught.value.code == "not_computer_turn"


def test_computer_vs_computer_is_driven_by_play_computer_turn(services: Services) -> None:
    created = services.play.create_game(player_name="x", mode="computer_vs_computer",
                                   difficulty="easy", second_level="hard", seed=3,
                                   height=11, width=13)
    with pytest.raises(RuleViolation):  # no human seat to move
        services.play.advance(created.game_id, created.token)
    seats = []
    state = created.state
    while not state.over:
        seats.append(state.turn)
        state = services.play.play_computer_turn(created.game_id).state
    assert seats[:2] == [1, 2]
    assert all(a != b for a, b in zip(seats, seats[1:], strict=False))  # seats alternate
    assert services.queries.get_summary(created.game_id).status == "finished"
    assert all(h.game_id != created.game_id for h in services.queries.high_scores(100))  # RULES M3
    with pytest.raises(NotComputerTurn):
        services.play.play_computer_turn(created.game_id)
    assert services.admin.verify(created.game_id) == []


def test_a_whole_game_through_the_services_enters_the_high_score_once(
    services: Services,
) -> None:
    """RULES E1: the human's moves chosen without a hint (the domain's `Greedy`), the
    computer's turns played by the service."""
    created = services.play.create_game(player_name="Eda Fırat", difficulty="easy")  # ranked
    game_id, token = created.game_id, created.token
    state = created.state
    all_events = list(created.events)
    while not state.over:
        result = _play(services, game_id, token, Greedy().next_command(state))
        all_events += result.events
        state = result.state
    assert [s.seq for s in all_events] == list(range(1, state.version + 1))
    assert state == fold(s.event for s in all_events)
    assert sum(isinstance(s.event, GameOver) for s in all_events) == 1
    assert isinstance(all_events[-1].event, HighScoresEntered)

    summary = services.queries.get_summary(game_id)
    assert summary.status == "finished" and summary.finished_at is not None
    assert summary.scores == tuple(state.scores) and summary.winner == state.winner
    entries = [h for h in services.queries.high_scores(100) if h.game_id == game_id]  # 19 x 33
    assert [(h.name, h.score, h.difficulty, h.seat, h.ranking) for h in entries] == [
        ("Eda Fırat", state.scores[0], "easy", 1, "vs_computer")
    ]
    with pytest.raises(RuleViolation) as caught:
        services.play.advance(game_id, token)
    assert caught.value.code == "game_over"
    with pytest.raises(RuleViolation):
        services.play.hint(game_id)
    assert services.admin.verify() == []


def test_two_players_both_enter_the_high_score_table(services: Services) -> None:
    game = GameFactory.create(services=services, mode="two_players", second_name="Ayşe",
                              finished=True, small=True)
    table = services.queries.high_scores(100, height=7, width=9, mode="two_players")
    seats = sorted((h.seat, h.name) for h in table if h.game_id == game.game_id)
    assert seats == [(1, game.state.seats[0].name), (2, "Ayşe")]
    # RULES M2: never in the main table, on any size
    assert not [h for h in services.queries.high_scores(100, height=7, width=9)
                if h.game_id == game.game_id]


def test_get_state_at_a_step_and_events_of(services: Services) -> None:
    game = GameFactory.create(services=services, turns=4)
    version = game.state.version
    events = [s.event for s in game.events]
    for k in (1, 2, version // 2, version):
        assert services.queries.get_state(game.game_id, at_step=k) == fold(events[:k])
    for k in (0, -1, version + 1):
        with pytest.raises(StepOutOfRange) as caught:
            services.queries.get_state(game.game_id, at_step=k)
        assert caught.value.details == {"version": version}
    assert [s.event for s in services.queries.events_of(game.game_id)] == events
    page = services.queries.events_of(game.game_id, after=3, limit=4)
    assert [s.seq for s in page] == [4, 5, 6, 7]
    assert [s.event for s in page] == events[3:7]
    assert services.queries.events_of(game.game_id, after=version) == []


def test_list_games_newest_first_with_filters_and_total(services: Services) -> None:
    a = GameFactory.create(services=services, player_name="Ayşe", turns=0)
    b = GameFactory.create(services=services, player_name="Barış", finished=True, small=True)
    c = GameFactory.create(services=services, player_name="Ayşe", turns=1)
    games, total = services.queries.list_games()
    assert total == 3 and [g.game_id for g in games] == [c.game_id, b.game_id, a.game_id]
    games, total = services.queries.list_games(player="Ayşe")
    assert total == 2 and {g.game_id for g in games} == {a.game_id, c.game_id}
    games, total = services.queries.list_games(status="finished")
    assert total == 1 and games[0].game_id == b.game_id and games[0].winner is not None
    games, total = services.queries.list_games(limit=1, offset=1)
    assert total == 3 and [g.game_id for g in games] == [b.game_id]
    games, total = services.queries.list_games(status="active", player="Nobody")
    assert (games, total) == ([], 0)


def test_high_scores_defaults_order_add_remove_reset(services: Services) -> None:
    assert [(h.name, h.score) for h in services.queries.high_scores()] == E2_DEFAULTS
    assert [h.name for h in services.queries.high_scores(limit=2)] == ["Tarık Yolcu", "Eda Fırat"]
    first = HighScoreFactory.create(services=services, name="Çağrı Öztürk", score=153)
    second = HighScoreFactory.create(services=services, name="Gülşen İnce", score=153)
    names = [h.name for h in services.queries.high_scores(limit=10)]
    # ties: oldest first
    assert names[2:5] == ["Sinem Okur", "Çağrı Öztürk", "Gülşen İnce"]
    assert first.difficulty == "manual" and first.game_id is None and first.seat is None
    services.admin.remove_high_score(second.id)
    with pytest.raises(HighScoreNotFound) as caught:
        services.admin.remove_high_score(second.id)
    assert caught.value.code == "high_score_not_found"
    services.admin.reset_high_scores()
    services.admin.reset_high_scores()
    assert [(h.name, h.score) for h in services.queries.high_scores(100)] == E2_DEFAULTS


def test_delete_game_keeps_its_high_score_without_the_link(services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    mine = [h for h in services.queries.high_scores(100, height=7, width=9)
            if h.game_id == game.game_id]
    assert len(mine) == 1
    services.admin.delete_game(game.game_id)
    with pytest.raises(GameNotFound):
        services.queries.get_state(game.game_id)
    kept = [h for h in services.queries.high_scores(100, height=7, width=9) if h.id == mine[0].id]
    assert [(h.name, h.score, h.game_id) for h in kept] == [(mine[0].name, mine[0].score, None)]
    assert services.admin.verify() == []


def test_prune_unfinished_deletes_only_idle_active_games(services: Services) -> None:
    idle = GameFactory.create(services=services, turns=1)
    fresh = GameFactory.create(services=services, turns=1)
    done = GameFactory.create(services=services, finished=True, small=True)
    long_ago = idle.events[0].recorded_at - timedelta(days=30)
    with services.store.engine.begin() as conn:
        conn.execute(
            update(games_table)
            .where(games_table.c.game_id.in_([idle.game_id, done.game_id]))
            .values(updated_at=long_ago)
        )
    assert services.admin.prune_unfinished(timedelta(days=7)) == 1
    with pytest.raises(GameNotFound):
        services.queries.get_summary(idle.game_id)
    assert services.queries.get_summary(fresh.game_id).status == "active"
    assert services.queries.get_summary(done.game_id).status == "finished"
    assert services.admin.prune_unfinished(timedelta(days=7)) == 0


def test_hint_is_a_legal_command_for_the_seat_to_move(services: Services) -> None:
    game = GameFactory.create(services=services, turns=2)
    with pytest.raises(TokenMissing):  # a hint is the player's (RULES E1)
        services.play.hint(game.game_id)
    hint = services.play.hint(game.game_id, game.token)
    command = hint.command
    assert isinstance(command, PlaceLine | Advance) and command.seat == game.state.turn
    _play(services, game.game_id, game.token, command)


def test_admin_inputs_out_of_range_are_refused_not_crashed(services: Services) -> None:
    from datetime import timedelta

    from service.domain.rules import RuleViolation

    for score in (2**31, -(2**31) - 1, 10**20, True):
        with pytest.raises(RuleViolation) as caught:
            services.admin.add_high_score("Ada", score)  # type: ignore[arg-type]
        assert caught.value.code == "invalid_score"
    assert services.admin.add_high_score("Ada", 2**31 - 1).score == 2**31 - 1
    assert services.admin.prune_unfinished(timedelta(days=999_999_999)) == 0  # past year 1


def test_list_games_by_last_move(services: Services) -> None:
    first = services.play.create_game(player_name="Ada", height=7, width=7, seed=1)
    second = services.play.create_game(player_name="Bo", height=7, width=7, seed=2)
    services.play.advance(first.game_id, first.token)  # the older game moves last
    newest_first = [g.game_id for g in services.queries.list_games()[0]]
    assert newest_first[:2] == [second.game_id, first.game_id]
    by_move = [g.game_id for g in services.queries.list_games(by_last_move=True)[0]]
    assert by_move[:2] == [first.game_id, second.game_id]
