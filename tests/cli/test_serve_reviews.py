"""``squares serve`` with its defaults reviews the games that end: the analyst runs in
a process of its own beside the servers."""

from __future__ import annotations

import os
import time
from pathlib import Path

from squares_testing.client import ApiClient
from squares_testing.play import api_send, play_computer_turns
from squares_testing.server import serving
from tests.cli.conftest import SQUARES

READY_WITHIN_S = 30


def test_the_served_app_reviews_a_game_once_it_ends(db_url: str, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQUARES_ANALYST")}
    log = tmp_path / "server.log"
    with serving(lambda port: [str(SQUARES), "--database-url", db_url, "serve", "--port",
                               str(port)], log_path=log, env=env, live=True) as server:
        _call = api_send(ApiClient(server.port))
        status, created = _call("POST", "/api/games", {
            "player_name": "Ada", "mode": "computer_vs_computer", "difficulty": "easy",
            "second_level": "easy", "height": 7, "width": 9})
        assert status == 201, created
        game_id, token = created["game_id"], created["token"]
        assert _call("GET", f"/api/games/{game_id}/analysis")[0] == 409
        play_computer_turns(_call, game_id, token, created["state"])
        deadline = time.monotonic() + READY_WITHIN_S
        while True:
            status, analysis = _call("GET", f"/api/games/{game_id}/analysis")
            if status == 200:
                break
            assert status == 202 and analysis["status"] == "pending"
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert analysis["status"] == "ready" and analysis["game_id"] == game_id
        assert [s["seat"] for s in analysis["seats"]] == [1, 2]
        assert analysis["turns"] and analysis["turns"][0]["start_seq"] >= 1
