"""Retention on a real database (SQLite and PostgreSQL): pruning deletes only the
games abandoned long enough ago; a recently abandoned game, a finished one and one
due but not abandoned yet stay."""

from __future__ import annotations

import pytest

from service.errors import GameNotFound
from service.services import Services
from service.store import utcnow
from tests.factories import GameFactory

from .retention_helpers import DAY, WEEK, _age, _at, _game


def test_prune_deletes_only_abandoned_games_abandoned_long_enough_ago(
        services: Services) -> None:
    old = _game(services)
    recent = _game(services)
    _at(services, utcnow() + WEEK + DAY)
    assert len(services.retention.abandon_stale().abandoned) == 2
    services.clock = utcnow
    _age(services, old.game_id, 31 * DAY)  # abandoned 31 days ago
    _age(services, recent.game_id, 29 * DAY)
    done = GameFactory.create(services=services, finished=True, small=True)
    _age(services, done.game_id, 60 * DAY)
    idle = _game(services)
    _age(services, idle.game_id, 40 * DAY)  # due, but not abandoned yet: not pruned

    assert services.retention.prune_abandoned(30 * DAY) == 1
    with pytest.raises(GameNotFound):
        services.queries.get_summary(old.game_id)
    assert services.queries.get_summary(recent.game_id).status == "abandoned"
    assert services.queries.get_summary(done.game_id).status == "finished"
    assert services.queries.get_summary(idle.game_id).status == "active"
    assert services.retention.prune_abandoned(30 * DAY) == 0
    assert services.retention.prune_abandoned(30 * DAY, now=utcnow() + 2 * DAY) == 1  # recent's turn
    assert services.admin.prune_unfinished(30 * DAY) == 1  # any unfinished game: the idle one
    assert services.queries.list_games()[1] == 1  # the finished game stays
    assert services.admin.verify() == []
