"""Retention on a real database (SQLite and PostgreSQL): each client address holds
a limited number of active games, its games' creator stored as a keyed hash, never
the address; migration 0006 adds that creator column and the indexes, and takes
them back."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from service.errors import TooManyGames
from service.ops.settings import CLIENT_SALT_DEFAULT
from service.services import Services, security
from service.store import downgrade, events_table, games_table, make_engine, migrate
from tests.databases import inspector

from .retention_helpers import DAY, WEEK, _age, _creator, _game

# -- the cap per client address -------------------------------------------------------


def test_each_address_holds_at_most_its_cap_of_active_games(services: Services) -> None:
    services.active_games_per_client = 3
    mine = [_game(services, client_address="203.0.113.7") for _ in range(3)]
    with pytest.raises(TooManyGames) as refused:
        _game(services, client_address="203.0.113.7")
    assert refused.value.details == {"limit": 3}
    assert services.queries.list_games()[1] == 3  # nothing written
    _game(services, client_address="198.51.100.1")  # another address
    _game(services)  # no address (the CLI): no cap
    # an address's games stop counting once they end: here, past their time
    _age(services, mine[0].game_id, WEEK + DAY)
    _game(services, client_address="203.0.113.7")
    services.retention.abandon_stale()
    assert _creator(services, mine[0].game_id) is None  # kept only while active
    with pytest.raises(TooManyGames):
        _game(services, client_address="203.0.113.7")
    services.active_games_per_client = 0  # no cap
    _game(services, client_address="203.0.113.7")


def test_the_creator_is_stored_as_a_keyed_hash_never_the_address(
        services: Services) -> None:
    game = _game(services, client_address="2001:db8::7")
    stored = _creator(services, game.game_id)
    assert stored == security.client_key("2001:db8::7", CLIENT_SALT_DEFAULT)
    assert stored is not None and "2001" not in stored and len(stored) == 64
    assert security.client_key("2001:db8::7", "another key") != stored
    # one IPv6 client holds a whole /64: it counts as one address
    assert security.client_key("2001:db8::ffff:1", CLIENT_SALT_DEFAULT) == stored
    assert _creator(services, _game(services).game_id) is None


# -- migration 0006 -----------------------------------------------------------------------


def _games_schema(url: str) -> tuple[set[str], set[str]]:
    with inspector(url) as found:
        return ({c["name"] for c in found.get_columns("games")},
                {i["name"] for i in found.get_indexes("games")})


def test_migration_0006_adds_the_creator_and_the_indexes_and_takes_them_back(
        empty_database_url: str) -> None:
    url = empty_database_url
    migrate(url, "0005")
    assert "creator" not in _games_schema(url)[0]
    migrate(url)
    columns, indexes = _games_schema(url)
    assert "creator" in columns
    assert {"ix_games_status_updated_at", "ix_games_creator_status"} <= indexes
    services = Services.from_url(url)
    try:
        kept = _game(services, client_address="192.0.2.1")
        assert _creator(services, kept.game_id) is not None
        abandoned = _game(services)
        _age(services, abandoned.game_id, WEEK + DAY)
        assert services.retention.abandon_stale().abandoned == ((abandoned.game_id, "idle"),)
    finally:
        services.store.dispose()

    downgrade(url, "0005")
    columns, indexes = _games_schema(url)
    assert "creator" not in columns
    assert not {"ix_games_status_updated_at", "ix_games_creator_status"} & indexes
    engine = make_engine(url)
    try:  # every row stays, the abandoned game's event too
        with engine.connect() as conn:
            assert conn.execute(select(func.count()).select_from(games_table)).scalar() == 2
            assert conn.execute(select(func.count()).select_from(events_table).where(
                events_table.c.type == "game_abandoned")).scalar() == 1
    finally:
        engine.dispose()
    migrate(url)
    services = Services.from_url(url)
    try:
        assert _creator(services, kept.game_id) is None  # old rows: NULL
        assert services.queries.get_summary(abandoned.game_id).status == "abandoned"
        assert services.admin.verify() == []
    finally:
        services.store.dispose()
