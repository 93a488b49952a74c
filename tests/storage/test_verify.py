"""`verify` folds every stream and checks the read model and high scores against it;
`rebuild_read_model` rewrites games rows from the events."""

from __future__ import annotations

from sqlalchemy import delete, update

from service.services import Services
from service.store import events_table, games_table, high_scores_table
from tests.factories import GameFactory


def test_verify_finds_nothing_wrong_in_honest_games(services: Services) -> None:
    GameFactory.create(services=services, turns=2)
    GameFactory.create(services=services, finished=True, small=True)
    assert services.admin.verify() == []


def test_verify_catches_a_tampered_games_row_and_rebuild_repairs_it(services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    honest = GameFactory.create(services=services, turns=2)
    with services.store.engine.begin() as conn:
        conn.execute(update(games_table).where(games_table.c.game_id == game.game_id)
                         .values(score1=999, status="active"))
    problems = services.admin.verify()
    assert {p.game_id for p in problems} == {game.game_id}
    assert {p.kind for p in problems} == {"read_model"}
    assert any("score1" in p.message for p in problems)
    assert any("status" in p.message for p in problems)

    seen: list[tuple[int, int]] = []
    assert services.admin.rebuild_read_model(progress=lambda done, total: seen.append((done, total))) == 2
    assert seen == [(1, 2), (2, 2)]
    assert services.admin.verify() == []
    assert services.queries.get_summary(game.game_id).scores == tuple(game.state.scores)
    # the token still opens the game after a rebuild
    services.play.advance(honest.game_id, honest.token)


def test_verify_catches_a_sequence_gap(services: Services) -> None:
    game = GameFactory.create(services=services, turns=2)
    with services.store.engine.begin() as conn:
        conn.execute(delete(events_table).where(events_table.c.game_id == game.game_id,
                                                    events_table.c.seq == 5))
    problems = services.admin.verify(game.game_id)
    assert [(p.game_id, p.kind) for p in problems] == [(game.game_id, "seq_gap")]
    assert "event 5" in problems[0].message


def test_verify_catches_tampered_events_and_high_scores(services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    other = GameFactory.create(services=services, finished=True, small=True)
    with services.store.engine.begin() as conn:
        conn.execute(update(high_scores_table)
                         .where(high_scores_table.c.game_id == game.game_id)
                         .values(score=500))
        conn.execute(update(events_table)
                         .where(events_table.c.game_id == other.game_id,
                                events_table.c.seq == 1)
                         .values(type="meteor_strike"))
    problems = {(p.game_id, p.kind) for p in services.admin.verify()}
    assert problems == {(game.game_id, "high_scores"), (other.game_id, "bad_event")}


def test_verify_of_one_unknown_game(services: Services) -> None:
    assert [p.kind for p in services.admin.verify("nope")] == ["game_not_found"]
