"""The games read model is defined once (`GameSummary`); the table, the API schema
and the row mapping follow it (the table has the seats' name keys besides). Stored
v1 events are upcast on load."""

from __future__ import annotations

from sqlalchemy import update

from service.api.response_schemas import SummarySchema
from service.domain.events import LinePlaced
from service.services import Services
from service.store import SUMMARY_FIELDS, events_table, games_table
from service.store.summaries import KEY_FIELDS, PLAYER_FIELDS
from tests.factories import GameFactory


def test_the_table_and_the_api_schema_follow_the_summary_definition() -> None:
    assert set(games_table.c.keys()) == {*SUMMARY_FIELDS, *KEY_FIELDS, *PLAYER_FIELDS,
                                         "token_hash",
                                         "token_salt", "creator", "seed_secret",
                                         "seed_commitment", "signature"}
    assert tuple(SummarySchema().fields) == SUMMARY_FIELDS


def test_stored_v1_line_placed_rows_are_upcast_on_load(services: Services) -> None:
    game = GameFactory.create(services=services, turns=2, small=True, seed=12)
    before = services.queries.get_state(game.game_id)
    costly = [s for s in game.events if isinstance(s.event, LinePlaced)]
    assert costly
    with services.store.engine.begin() as conn:
        for s in costly:  # rewrite each line_placed row in its version 1 shape
            data = s.event.to_dict()["data"]
            conn.execute(
                update(events_table)
                .where(events_table.c.game_id == game.game_id, events_table.c.seq == s.seq)
                .values(schema_version=1, payload={**data, "penalty": data["penalty"] > 0})
            )
    services.store.snapshots.clear()
    assert services.queries.get_state(game.game_id) == before
    assert services.admin.verify(game.game_id) == []
    assert '"v":2' in services.admin.export_game(game.game_id)
