"""The target of the bad-input tests (`test_bad_input`): a served instance with two
games, what must never change about them (`Target.snapshot`), and a plain socket for
the requests a client library would not send (`send_raw`)."""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from typing import Any

from squares_testing.client import ApiClient, Reply
from squares_testing.net import HOST
from squares_testing.server import Server
from tests.e2e.reliability_helpers import game_state, stored_events


@dataclass
class Target:
    server: Server
    client: ApiClient
    game: str  # the game the cases aim at
    token: str
    other_game: str
    other_token: str

    def snapshot(self) -> Any:
        """What must never change: both games' versions and events, and the game count."""
        listing = self.client.call("GET", "/api/games?limit=1")
        assert listing.status == 200, listing.body[:300]
        return (
            [(game_state(self.client, g)["version"], stored_events(self.client, g))
             for g in (self.game, self.other_game)],
            listing.data["total"],
        )

    def legal_line(self) -> tuple[int, int]:
        """A line the game would accept right now (so a wrongly coerced value would land)."""
        state = game_state(self.client, self.game)
        lines = state["legal"]["lines"]
        assert lines, state["legal"]
        x, y = lines[0]
        return int(x), int(y)

    def version(self) -> int:
        return int(game_state(self.client, self.game)["version"])


def send_raw(port: int, head: bytes, body: bytes, timeout: float = 10.0) -> Reply:
    """Send `head` then as much of `body` as the server takes; read its answer."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(head)
        try:
            for start in range(0, len(body), 64 * 1024):
                sock.sendall(body[start:start + 64 * 1024])
        except OSError:
            pass  # the server answered early and stopped reading: read that answer
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if _complete(b"".join(chunks)):
                    break
        except OSError:
            pass
    raw = b"".join(chunks)
    head_part, _, payload = raw.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    assert lines and lines[0].startswith("HTTP/1."), raw[:300]
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    content_type = headers.get("content-type", "")
    data = json.loads(payload) if "json" in content_type and payload else None
    return Reply(status, data, payload, content_type, 0.0)


def _complete(raw: bytes) -> bool:
    head, sep, payload = raw.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(payload) >= int(value.strip())
    return False
