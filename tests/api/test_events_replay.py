"""The event stream (``events?after=&limit=``) and replays (``replay/{k}``)."""

from __future__ import annotations

from typing import Any

import pytest

from service.api import response_schemas as s
from service.services import Services
from tests.factories import GameFactory

from .helpers import (
    CheckedClient,
    assert_error,
    assert_valid,
    create_game,
    move_after_first_read,
    play_unassisted,
)


@pytest.fixture
def finished(client: CheckedClient) -> dict[str, Any]:
    """A 7 x 9 vs_computer game played to its end through the API, no hint asked."""
    created = create_game(client, difficulty="easy", seed=None)  # ranked
    final = play_unassisted(client, created["game_id"], created["token"])
    return {"game_id": created["game_id"], "final": final}


def test_RULES_V1_events_are_gap_free_and_typed(client: CheckedClient,
                                               finished: dict[str, Any]) -> None:
    game_id = finished["game_id"]
    body = client.get(f"/api/games/{game_id}/events").get_json()
    assert_valid(s.EventListSchema, body)
    events, version = body["events"], body["version"]
    assert version == finished["final"]["version"]
    assert [e["seq"] for e in events] == list(range(1, version + 1))
    assert events[0]["type"] == "game_created"
    assert [e["type"] for e in events[-3:]] == ["game_over", "seed_revealed",
                                                "high_scores_entered"]
    assert all(e["v"] >= 1 and e["recorded_at"].endswith("Z") for e in events)


def test_events_after_pages_the_stream(client: CheckedClient,
                                       finished: dict[str, Any]) -> None:
    game_id = finished["game_id"]
    full = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    version = len(full)
    for page_size in (1, 3, 7):
        paged: list[dict[str, Any]] = []
        after = 0
        while True:
            body = client.get(f"/api/games/{game_id}/events?after={after}&limit={page_size}"
                              ).get_json()
            assert body["version"] == version
            assert len(body["events"]) <= page_size
            if not body["events"]:
                break
            assert body["events"][0]["seq"] == after + 1
            paged.extend(body["events"])
            after = body["events"][-1]["seq"]
        assert paged == full
    tail = client.get(f"/api/games/{game_id}/events?after={version - 2}").get_json()
    assert [e["seq"] for e in tail["events"]] == [version - 1, version]
    for after in (version, version + 1, 2**31 - 1):
        body = client.get(f"/api/games/{game_id}/events?after={after}").get_json()
        assert body == {"events": [], "version": version}


def test_events_of_a_new_game(client: CheckedClient) -> None:
    created = create_game(client)
    body = client.get(f"/api/games/{created['game_id']}/events?after=0&limit=10").get_json()
    assert body["version"] == 1
    assert body["events"] == created["events"]


def test_RULES_V2_replay_step_k_is_the_fold_of_the_first_k_events(
        client: CheckedClient, finished: dict[str, Any]) -> None:
    game_id, final = finished["game_id"], finished["final"]
    version = final["version"]
    events = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    previous_version = 0
    for step in range(1, version + 1):
        response = client.get(f"/api/games/{game_id}/replay/{step}")
        assert response.status_code == 200
        body = response.get_json()
        assert_valid(s.ReplaySchema, body)
        assert (body["step"], body["version"]) == (step, version)
        assert body["event"] == events[step - 1]
        assert body["state"]["version"] == step > previous_version
        previous_version = step
    first = client.get(f"/api/games/{game_id}/replay/1").get_json()["state"]
    assert first["scores"] == [0, 0] and first["over"] is False
    assert client.get(f"/api/games/{game_id}/replay/{version}").get_json()["state"] == final


def test_replay_of_a_stored_default_size_game(client: CheckedClient,
                                              services: Services) -> None:
    game = GameFactory.create(services=services, turns=3)
    version = services.queries.get_summary(game.game_id).version
    middle = client.get(f"/api/games/{game.game_id}/replay/{version // 2}").get_json()
    assert middle["state"]["version"] == version // 2
    assert (middle["state"]["height"], middle["state"]["width"]) == (19, 33)
    response = client.get(f"/api/games/{game.game_id}/replay/{version + 1}")
    assert assert_error(response, 404, "step_out_of_range")["version"] == version


def test_events_version_is_a_safe_cursor_when_a_move_lands_mid_request(
        client: CheckedClient, services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move appended while the endpoint reads must not make `version` run ahead of
    the events returned (a poller using after=version would skip events)."""
    created = create_game(client, height=9, width=11, seed=1)
    game_id, token = created["game_id"], created["token"]
    moved = move_after_first_read(monkeypatch, services, game_id, token)
    body = client.get(f"/api/games/{game_id}/events?after=0").get_json()
    assert moved == [2]
    assert [e["seq"] for e in body["events"]] == list(range(1, body["version"] + 1))
    monkeypatch.undo()
    rest = client.get(f"/api/games/{game_id}/events?after={body['version']}").get_json()
    assert [e["seq"] for e in body["events"] + rest["events"]] == [1, 2]
