"""Shared by the retention tests on a real database (test_retention_*): small games
made through the services, a whole game moved into the past (its events' times and
its row's), the services' clock set to a moment, and what the store keeps of a game
(its events' types, its creator)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select, update

from service.services import CreatedGame, Services
from service.store import events_table, games_table

DAY = timedelta(days=1)
WEEK = timedelta(days=7)


def _game(services: Services, **kwargs: object) -> CreatedGame:
    return services.play.create_game(player_name="Ada", height=7, width=9, seed=11,
                                **kwargs)  # type: ignore[arg-type]


def _online(services: Services) -> CreatedGame:
    return services.play.create_game(player_name="Ann", mode="online", height=7, width=9, seed=12)


def _age(services: Services, game_id: str, by: timedelta) -> None:
    """Move a whole game `by` into the past: its events' times and its row's, so that
    the read model still says what the events say."""
    with services.store.engine.begin() as conn:
        for row in conn.execute(select(events_table.c.seq, events_table.c.recorded_at)
                                .where(events_table.c.game_id == game_id)).all():
            conn.execute(update(events_table)
                         .where(events_table.c.game_id == game_id,
                                events_table.c.seq == row.seq)
                         .values(recorded_at=row.recorded_at - by))
        game = conn.execute(select(games_table).where(games_table.c.game_id == game_id)).one()
        conn.execute(update(games_table).where(games_table.c.game_id == game_id).values(
            created_at=game.created_at - by, updated_at=game.updated_at - by,
            finished_at=None if game.finished_at is None else game.finished_at - by))
    services.store.snapshots.clear()


def _types(services: Services, game_id: str) -> list[str]:
    return [s.event.TYPE for s in services.queries.events_of(game_id)]


def _creator(services: Services, game_id: str) -> str | None:
    with services.store.engine.connect() as conn:
        return conn.execute(select(games_table.c.creator)
                            .where(games_table.c.game_id == game_id)).scalar()


def _at(services: Services, moment: datetime) -> None:
    services.clock = lambda: moment
