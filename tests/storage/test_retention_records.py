"""Retention on a real database (SQLite and PostgreSQL): the record stays consistent
for abandoned games: verify, export, import and a rebuilt read model take them, and
the live feed of an abandoned game ends."""

from __future__ import annotations

from sqlalchemy import update

from service.domain.events import GameAbandoned
from service.services import Services
from service.store import games_table, utcnow
from tests.factories import GameFactory

from .retention_helpers import DAY, WEEK, _at, _game, _online


def test_verify_export_import_and_rebuild_take_abandoned_games(services: Services) -> None:
    played = GameFactory.create(services=services, turns=1, small=True, seed=3)
    assert not played.state.over
    waiting = _online(services)
    _at(services, utcnow() + WEEK + DAY)
    assert len(services.retention.abandon_stale().abandoned) == 2
    assert services.admin.verify() == []
    exported = services.admin.export_game(played.game_id)
    events = exported.rsplit("\n", 2)[0] + "\n"  # without the signature line
    assert events.endswith('{"data":{"reason":"idle"},"type":"game_abandoned","v":1}\n'
                           '{"data":{"seed":"3"},"type":"seed_revealed","v":1}\n')
    services.admin.delete_game(played.game_id)
    again = services.admin.import_game(exported)
    assert services.queries.get_summary(again).status == "abandoned"
    assert services.queries.get_state(again).abandoned == "idle"
    with services.store.engine.begin() as conn:  # a stale read model ...
        conn.execute(update(games_table).where(games_table.c.game_id == waiting.game_id)
                     .values(status="active"))
    assert [p.kind for p in services.admin.verify(waiting.game_id)] == ["read_model"]
    assert services.admin.rebuild_read_model(waiting.game_id) == 1  # ... rebuilt from the events
    assert services.queries.get_summary(waiting.game_id).status == "abandoned"
    assert services.admin.verify() == []


def test_live_page_ends_the_feed_of_an_abandoned_game(services: Services) -> None:
    game = _game(services)
    assert services.queries.live_page(game.game_id, 0)[2] is False
    _at(services, utcnow() + WEEK + DAY)
    services.retention.abandon_stale()
    events, version, over = services.queries.live_page(game.game_id, 0)
    assert over and version == 2 and isinstance(events[-1].event, GameAbandoned)
