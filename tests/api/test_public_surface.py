"""The public surface under abuse: rate limits, readiness, bounded page numbers and
cached hints (strict bodies: tests/api/test_bad_requests.py); what the server-rendered
pages say of a game's fairness (practice or ranked, who moves first, hints)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.domain import ai
from service.services import Services
from service.store import downgrade
from service.store.migrations import head_revisions
from tests.apps import app_for_tests
from tests.conftest import close_app

from .helpers import CheckedClient, assert_error, bearer, create_game


def _app(url: str, **config: Any) -> Flask:
    app = app_for_tests({"DATABASE_URL": url, **config})
    app.test_client_class = CheckedClient
    return app


@pytest.fixture
def limited(sqlite_database_url: str) -> Iterator[Flask]:
    app = _app(sqlite_database_url, SQUARES_LIMIT_CREATE="2 per minute",
               SQUARES_LIMIT_HINT="3 per minute", SQUARES_LIMIT_MOVE="3 per minute")
    yield app
    close_app(app)


def test_game_creation_is_rate_limited_per_address(limited: Flask) -> None:
    client = limited.test_client()
    for _ in range(2):
        create_game(client, height=7, width=7)
    refused = client.post("/api/games", json={"player_name": "Ada"})
    assert_error(refused, 429, "rate_limited")
    assert int(refused.headers["Retry-After"]) > 0
    assert refused.headers["X-RateLimit-Limit"] == "2"
    other = client.post("/api/games", json={"player_name": "Ada"},
                        environ_base={"REMOTE_ADDR": "10.9.8.7"})
    assert other.status_code == 201  # another address has its own count
    assert limited.extensions["squares"].queries.list_games()[1] == 3  # nothing written by the 429


def test_moves_share_one_limit_and_hints_have_their_own(limited: Flask) -> None:
    client = limited.test_client()
    game = create_game(client, height=7, width=7, seed=3)
    url, auth = f"/api/games/{game['game_id']}", bearer(game["token"])
    for _ in range(3):
        assert client.get(f"{url}/hint", headers=auth).status_code == 200
    assert_error(client.get(f"{url}/hint", headers=auth), 429, "rate_limited")
    assert client.post(f"{url}/advance", json={}, headers=auth).status_code == 200
    state = client.get(url).get_json()["state"]
    x, y = state["legal"]["lines"][0]
    assert client.post(f"{url}/lines", json={"x": x, "y": y}, headers=auth).status_code == 200
    assert client.post(f"{url}/advance", json={}, headers=auth).status_code == 200
    before = client.get(url).get_json()["state"]["version"]
    assert_error(client.post(f"{url}/advance", json={}, headers=auth), 429, "rate_limited")
    assert client.get(url).get_json()["state"]["version"] == before  # reads are not limited


def test_limits_can_be_switched_off(sqlite_database_url: str) -> None:
    app = _app(sqlite_database_url, SQUARES_LIMIT_CREATE="1 per minute",
               SQUARES_RATELIMIT_ENABLED="0")
    try:
        client = app.test_client()
        for _ in range(3):
            create_game(client, height=7, width=7)
    finally:
        close_app(app)


def test_readyz_checks_the_database_and_its_schema(client: CheckedClient,
                                                   sqlite_database_url: str) -> None:
    assert client.get("/readyz").get_json() == {"status": "ok"}
    assert client.get("/healthz").get_json() == {"status": "ok"}
    downgrade(sqlite_database_url, "0002")
    response = client.get("/readyz")
    details = assert_error(response, 503, "not_ready")
    assert details == {}
    assert f"not {head_revisions()[0]}" in response.get_json()["error"]["message"]
    assert client.get("/healthz").status_code == 200  # liveness says nothing of the database


def test_readyz_when_the_database_does_not_answer() -> None:
    app = _app("postgresql://nobody@127.0.0.1:1/nothing")
    try:
        response = app.test_client().get("/readyz")
        assert_error(response, 503, "not_ready")
        assert "does not answer" in response.get_json()["error"]["message"]
    finally:
        close_app(app)


@pytest.mark.parametrize("page", ["0", "-3", "999999999999999999999", "107374183"])
def test_games_page_numbers_out_of_range_are_400(client: CheckedClient, page: str) -> None:
    response = client.get(f"/games?page={page}", headers={"Accept": "text/html"})
    assert response.status_code == 400
    assert b"page must be a number from 1 to" in response.data


def test_a_hint_is_computed_once_per_version(client: CheckedClient, services: Services,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    game = create_game(client, height=9, width=11, seed=4)
    calls: list[int] = []
    real = ai.hint

    def counted(state: Any) -> Any:
        calls.append(state.version)
        return real(state)

    monkeypatch.setattr(ai, "hint", counted)
    url, auth = f"/api/games/{game['game_id']}/hint", bearer(game["token"])
    first = client.get(url, headers=auth).get_json()
    assert first["version"] == 2  # RULES E1: the first hint appended hint_used ...
    assert client.get(url, headers=auth).get_json() == first
    assert calls == [1]  # ... and the hint computed at 1 serves version 2 too
    client.post(f"/api/games/{game['game_id']}/advance", json={}, headers=auth)
    client.get(url, headers=auth)
    assert calls == [1, 3]


def test_RULES_E1_one_table_per_field_size_the_default_field_by_default(
        client: CheckedClient, services: Services) -> None:
    from tests.factories import GameFactory

    game = GameFactory.create(services=services, finished=True, small=True)  # 7 x 9
    table = client.get("/api/highscores?limit=100").get_json()["high_scores"]
    # the default field's table: RULES E2's rows, "from the original game", no replay
    assert {(e["game_id"], e["height"], e["width"], e["source"]) for e in table} == {
        (None, 19, 33, "original")}
    assert client.get("/api/highscores?height=19&width=33&limit=100").get_json() == {
        "high_scores": table}
    small = client.get("/api/highscores?height=7&width=9").get_json()["high_scores"]
    assert [(e["game_id"], e["height"], e["width"], e["source"], e["mode"], e["rank"])
            for e in small] == [(game.game_id, 7, 9, "game", "vs_computer", 1)]
    assert client.get("/api/highscores?height=9&width=13").get_json()["high_scores"] == []
    for query in ("width=999999999999999999999", "height=7", "width=9&height=", "mode=x",
                  "mode=computer_vs_computer", "height=6&width=9"):
        assert_error(client.get(f"/api/highscores?{query}"), 400, "invalid_request")
    summary = client.get(f"/api/games/{game.game_id}").get_json()["summary"]
    assert (summary["height"], summary["width"]) == (7, 9)


def _row(html: str, game_id: str) -> str:
    """The table row of `game_id` in a games list page."""
    match = re.search(rf'<tr data-game-id="{game_id}".*?</tr>', html, re.S)
    assert match, game_id
    return match.group(0)


def test_pages_mark_practice_games(client: CheckedClient) -> None:
    practice = create_game(client, seed=42)["game_id"]
    ranked = create_game(client, seed=None)["game_id"]
    tag = re.compile(r'<span class="tag tag-practice"[^>]*>practice</span>')
    for path in ("/games", "/live"):
        html = client.get(path).get_data(as_text=True)
        assert 'data-ranked="false"' in _row(html, practice)
        assert tag.search(_row(html, practice))
        assert 'data-ranked="true"' in _row(html, ranked)
        assert not tag.search(_row(html, ranked))
    for path in ("/games/{}", "/watch/{}"):
        title = re.compile(r'<h1 class="replay-title">.*?</h1>', re.S)
        shown = title.search(client.get(path.format(practice)).get_data(as_text=True))
        assert shown and tag.search(shown.group(0)), path
        shown = title.search(client.get(path.format(ranked)).get_data(as_text=True))
        assert shown and not tag.search(shown.group(0)), path


@pytest.mark.parametrize("hints", [False, True])
def test_the_join_page_says_who_moves_first_and_whether_hints_are_on(
    client: CheckedClient, hints: bool
) -> None:
    created = create_game(client, seed=None, mode="online", hints=hints)
    first = created["state"]["first_seat"]
    html = client.get(f"/join/{created['game_id']}").get_data(as_text=True)
    intro = re.sub(r"\s+", " ", html)
    assert ("Ayşe moves first" if first == 1 else "you move first") in intro
    assert f"hints are {'on' if hints else 'off'}" in intro
    assert "practice" not in intro
