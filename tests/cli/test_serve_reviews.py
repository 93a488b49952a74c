"""``squares serve`` with its defaults reviews the games that end: the analyst runs in
the background of the server's workers."""

from __future__ import annotations

import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.cli.conftest import SQUARES
from tests.cli.test_serve import free_port, stop, wait_for_health

READY_WITHIN_S = 30


def _call(port: int, method: str, path: str, body: Any = None,
          token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_the_served_app_reviews_a_game_once_it_ends(db_url: str, tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SQUARES_ANALYST")}
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(SQUARES), "--database-url", db_url, "serve", "--port", str(port)],
            stdout=out, stderr=subprocess.STDOUT, env=env)
    try:
        wait_for_health(port, process, log)
        status, created = _call(port, "POST", "/api/games", {
            "player_name": "Ada", "mode": "computer_vs_computer", "difficulty": "easy",
            "second_level": "easy", "height": 7, "width": 9})
        assert status == 201, created
        game_id, token = created["game_id"], created["token"]
        assert _call(port, "GET", f"/api/games/{game_id}/analysis")[0] == 409
        state = created["state"]
        while not state["over"]:
            status, moved = _call(port, "POST", f"/api/games/{game_id}/computer-turn",
                                  token=token)
            assert status == 200, moved
            state = moved["state"]
        deadline = time.monotonic() + READY_WITHIN_S
        while True:
            status, analysis = _call(port, "GET", f"/api/games/{game_id}/analysis")
            if status == 200:
                break
            assert status == 202 and analysis["status"] == "pending"
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert analysis["status"] == "ready" and analysis["game_id"] == game_id
        assert [s["seat"] for s in analysis["seats"]] == [1, 2]
        assert analysis["turns"] and analysis["turns"][0]["start_seq"] >= 1
    finally:
        stop(process)
