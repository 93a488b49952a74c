"""The HTTP clients of `benchmarks/live.py`: the writer and the latency probe.

Each `BoundClient` connects from a loopback source address of its own (127.20.x.y;
Linux routes all of 127/8 to ``lo``) and takes a new one every `rotate` requests, so
the server's per-address rate limits (30 creations, 300 moves a minute) never refuse
the benchmark with its shipped defaults. A `Player` is the writer (a move on the hot
game every `--interval` s, every `--quiet-every`-th one on a quiet game, a new hot
game when one ends) or the probe (``GET /healthz`` and a move on its own game every
20 ms); it records the latencies, every event its moves committed (`Game.acks`: when
the move was sent and when its answer was read), and the requests not answered within
the timeout. Every request has a timeout; nothing here waits without end.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from _sse_clients import CLIENT_NET, loopback

from squares_testing.client import ApiClient, ConnectionFailed
from squares_testing.net import HOST

HEIGHT, WIDTH = 19, 33
# the hot game: large enough to last a whole run at a move every 100 ms, so that its
# streams stay open (a game over would end them all and open a burst of new ones)
HOT_SIZE = (41, 81)

_addresses, _addresses_lock = itertools.count(), threading.Lock()


class BoundClient(ApiClient):
    """`ApiClient` from its own loopback source address, a new one every `rotate`
    requests (under every per-address limit: 30 creations a minute, 20 unfinished
    games, 300 moves a minute)."""

    def __init__(self, port: int, timeout: float, rotate: int = 15) -> None:
        super().__init__(port, timeout)
        self.rotate, self.calls, self.source = rotate, rotate, ""

    def call(self, method: str, path: str, body: Any = None, **kwargs: Any) -> Any:
        if self.calls >= self.rotate:
            self.close()
            with _addresses_lock:
                self.calls, self.source = 0, loopback(next(_addresses), CLIENT_NET)
        if self._conn is None:
            self._conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout,
                                                    source_address=(self.source, 0))
        self.calls += 1
        return super().call(method, path, body, **kwargs)


class Game:
    def __init__(self, data: dict[str, Any]) -> None:
        self.game_id, self.token, self.state = data["game_id"], data["token"], data["state"]
        self.acks: dict[int, tuple[float, float]] = {}  # seq -> (move sent, answer read)

    @property
    def version(self) -> int:
        return int(self.state["version"])


def create_game(client: ApiClient, name: str, seed: int,
                size: tuple[int, int] = (HEIGHT, WIDTH)) -> Game:
    reply = client.call("POST", "/api/games", {"player_name": name, "height": size[0],
                                               "width": size[1], "seed": seed})
    if reply.status != 201:
        raise RuntimeError(f"creating a game: {reply.status} {reply.body[:300]!r}")
    return Game(reply.data)


def play_one(client: ApiClient, game: Game, line_times: list[float] | None = None) -> bool:
    """One move on `game` (a line when one is legal, else advance); False when none."""
    legal, base = game.state.get("legal") or {}, f"/api/games/{game.game_id}"
    if game.state["over"]:
        return False
    if legal.get("lines") or legal.get("can_advance"):
        x, y = random.choice(legal["lines"]) if legal.get("lines") else (None, None)
        path, body = (f"{base}/lines", {"x": x, "y": y}) if x is not None else (
            f"{base}/advance", {})
        sent = time.monotonic()
        reply = client.call("POST", path, body, token=game.token)
        if 200 <= reply.status < 300:
            answered = time.monotonic()
            if x is not None and line_times is not None:
                line_times.append(reply.elapsed)
            game.acks.update({int(e["seq"]): (sent, answered) for e in reply.data["events"]})
            game.state = reply.data["state"]
            return True
    reply = client.call("GET", base)
    if reply.status == 200:
        game.state = reply.data["state"]
    return False


class Player(threading.Thread):
    """The writer (moves on `game`, every `quiet_every`-th move on a quiet game, a new
    hot game when it ends) or, with `probe`, the probe (``GET /healthz`` and a move on
    its own game every 20 ms): latencies, moves, refusals, requests not answered."""

    def __init__(self, port: int, game: Game, quiet: list[Game], *, probe: bool,
                 args: argparse.Namespace) -> None:
        super().__init__(daemon=True)
        self.client, self.probe = BoundClient(port, args.request_timeout, rotate=100), probe
        self.hot, self.quiet, self.hot_games = game, quiet, [game]
        self.interval, self.quiet_every = (0.02, 0) if probe else (args.interval,
                                                                   args.quiet_every)
        self.stop = threading.Event()
        self.moves = self.refused = self.unanswered = 0
        self.healthz: list[float] = []
        self.lines: list[float] = []

    def run(self) -> None:
        rng, next_at = random.Random(7), time.monotonic()
        while not self.stop.is_set():
            n = self.moves + self.refused + self.unanswered + 1
            try:
                if self.probe and (reply := self.client.call("GET", "/healthz")).status == 200:
                    self.healthz.append(reply.elapsed)
                if self.hot.state["over"]:
                    self.hot = create_game(self.client, "Hot", rng.randrange(10**6))
                    self.hot_games.append(self.hot)
                game = (rng.choice(self.quiet) if self.quiet and self.quiet_every
                        and n % self.quiet_every == 0 else self.hot)
                if play_one(self.client, game, self.lines):
                    self.moves += 1
                else:
                    self.refused += 1
            except ConnectionFailed:
                self.unanswered += 1
            except RuntimeError:
                self.refused += 1
            next_at = max(next_at + self.interval, time.monotonic() - self.interval)
            self.stop.wait(max(0.0, next_at - time.monotonic()))
        self.client.close()


def play(players: list[Player], seconds: float, check: Callable[[], None] | None = None) -> float:
    """Run `players` for `seconds` (calling `check` every 0.25 s); the seconds played."""
    started = time.monotonic()
    for p in players:
        p.start()
    while time.monotonic() - started < seconds:
        time.sleep(min(0.25, max(0.0, seconds - (time.monotonic() - started))))
        if check:
            check()
    for p in players:
        p.stop.set()
    played = time.monotonic() - started
    for p in players:
        p.join(timeout=p.client.timeout + 0.5)
    return played
