"""Committed randomness (issue 23): with only public reads, nobody can compute the
next random piece of a running ranked game; its seed appears in no reader until the
game ends, and then it matches the commitment made at the start."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.domain.commands import Advance
from service.domain.event_codec import event_from_dict
from service.domain.fold import fold
from service.domain.replay_check import replay_check
from service.domain.rules import decide
from service.domain.seeds import SeedUnknown, commitment
from squares_testing.play import flask_send, play_own_moves

from .conftest import Live
from .sse import SseClient

# Every run of hex digits or decimal digits in a read: the candidates an attacker has.
TOKENS = re.compile(r"[0-9a-fA-F]+")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _to_the_last_stage_2(client: FlaskClient, game_id: str, token: str) -> dict[str, Any]:
    """Play hints until the human's stage-2 line is drawn: the next advance draws the
    turn's random pieces."""
    state = client.get(f"/api/games/{game_id}").get_json()["state"]
    while not (state["stage"] == 2 and not state["legal"]["lines"]):
        hint = client.get(f"/api/games/{game_id}/hint", headers=_bearer(token)).get_json()
        assert "action" in hint, (hint, state["stage"], state["legal"])
        if hint["action"] == "line":
            answer = client.post(f"/api/games/{game_id}/lines", headers=_bearer(token),
                                 json={"x": hint["x"], "y": hint["y"]})
        else:
            answer = client.post(f"/api/games/{game_id}/advance", headers=_bearer(token))
        assert answer.status_code == 200, answer.get_json()
        state = answer.get_json()["state"]
    return state


def _public_reads(live: Live, client: FlaskClient, game_id: str, version: int) -> list[str]:
    """Everything anyone may read about the game: API, pages, live feed, export (the
    hint is the player's only, with the token: RULES E1)."""
    paths = [f"/api/games/{game_id}", f"/api/games/{game_id}/events",
             f"/api/games/{game_id}/board.txt",
             "/api/games?limit=100", "/api/games?status=active", "/api/highscores",
             "/", "/games", "/live", f"/games/{game_id}", f"/watch/{game_id}",
             f"/play/{game_id}", "/highscores"]
    paths += [f"/api/games/{game_id}/replay/{step}" for step in range(1, version + 1)]
    reads = []
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        reads.append(response.get_data(as_text=True))
    feed = SseClient("127.0.0.1", live.port, f"/api/games/{game_id}/live")
    messages = []
    try:
        while len(messages) < version:  # the stream stays open: the game runs
            message = feed.next(timeout=10)
            assert message is not None
            if message.id is not None:
                messages.append(message)
    finally:
        feed.close()
    reads.append(repr([m.data for m in messages]))
    reads.append(live.services.admin.export_game(game_id))
    return reads


def test_RULES_I5_public_reads_cannot_predict_the_next_piece_of_a_ranked_game(
        live: Live) -> None:
    client = live.app.test_client()
    # the default field: the first turn's pieces are always still to come (on a small
    # field a random game may end before them)
    created = client.post("/api/games", json={"player_name": "Ada",
                                              "difficulty": "easy"}).get_json()
    game_id, token = created["game_id"], created["token"]
    state = _to_the_last_stage_2(client, game_id, token)
    with live.services.store.unit_of_work(write=False) as uow:
        secret = uow.games.get(game_id).seed_secret
    assert secret is not None and int(secret, 16).bit_length() > 100  # 128 random bits
    assert state["seed"] is None and state["seed_commitment"] == commitment(secret)

    reads = _public_reads(live, client, game_id, state["version"])
    assert not any(secret.lower() in read.lower() for read in reads)
    # no number or hex string anywhere in them is the committed seed
    candidates = {token for read in reads for token in TOKENS.findall(read)}
    assert len(candidates) > 50
    assert not [c for c in candidates if commitment(c) == state["seed_commitment"]]

    # the attack that worked before: fold the public events and run the rules
    raw = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    public = fold(event_from_dict(e) for e in raw)
    assert public.game.seed is None and public.secret_seed is None
    with pytest.raises(SeedUnknown):
        decide(public, Advance(public.turn))
    # whereas the server draws them from the secret, which alone determines them
    answer = client.post(f"/api/games/{game_id}/advance", headers=_bearer(token)).get_json()
    drawn = [e["data"] for e in answer["events"] if e["type"] == "piece_inserted"]
    public.know_secret_seed(secret)
    expected = [e.to_dict()["data"] for e in decide(public, Advance(public.turn))
                if e.TYPE == "piece_inserted"]
    assert len(drawn) == 3 and drawn == expected


def test_RULES_I5_an_ended_ranked_game_reveals_the_committed_seed(live: Live) -> None:
    client = live.app.test_client()
    created = client.post("/api/games", json={"player_name": "Ada", "difficulty": "easy",
                                              "height": 7, "width": 7}).get_json()
    game_id, token = created["game_id"], created["token"]
    state = play_own_moves(flask_send(client), game_id, token, created["state"])  # no hint
    raw = client.get(f"/api/games/{game_id}/events").get_json()["events"]
    types = [e["type"] for e in raw]
    assert types[-3:] == ["game_over", "seed_revealed", "high_scores_entered"]
    revealed = raw[-2]["data"]["seed"]
    assert state["seed"] == revealed
    assert commitment(revealed) == raw[0]["data"]["seed_commitment"] == state["seed_commitment"]
    # anyone re-derives every random outcome from the public stream alone
    events = [event_from_dict(e, strict=True) for e in raw]
    assert replay_check(events) == fold(events)
