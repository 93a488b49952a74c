"""JSON API latency (prints figures, asserts nothing).

In one run, against one fresh migrated temp SQLite file, both over real HTTP
(``squares serve`` as shipped but with one app worker, on a 127.0.0.1 port; one
keep-alive connection) and through the Flask test client of an app in this process
(no sockets):

1. the median latency of a bare JSON endpoint, ``GET /healthz``;
2. the median latency of ``POST /api/games/{id}/lines`` (with ``expected_version``
   and the bearer token) playing legal stage-1 and stage-2 lines of fresh default
   19 x 33 games taken from the state's ``legal.lines``. A game is replaced (not
   measured) before its turn would end, so no computer turn is ever inside a
   measured request; stage 1 -> 2 advances are not measured either;
3. the ratio lines / healthz (target <= 3x);
4. the median latency of ``GET /api/games/{id}/replay/{k}`` at random distinct steps
   of a finished default-size game (played through the service layer, two easy
   computer seats) (target < 10 ms), with the process' snapshot cache as the
   requests leave it ("warm") and, through the test client only (the server's cache
   is in its own process), cleared before every request ("cold": a fold from the
   first event).

Usage: ``.venv/bin/python benchmarks/api.py [--n N] [--profile] [--json PATH]``;
``--quick``: 20 requests per figure (seconds). ``--profile``
adds a cProfile of the test-client line and replay requests (top functions by
cumulative time). The temp files are removed afterwards.
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import json
import pstats
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from service.http.app import create_app
from service.services import Services
from service.store import migrate
from squares_testing import results as _results
from squares_testing.play import finish_computer_game
from squares_testing.server import running_server

HOST = "127.0.0.1"
TARGET_RATIO = 3.0
TARGET_REPLAY_MS = 10.0
JSON_HEADERS = {"Content-Type": "application/json"}


# -- two ways to send a request -------------------------------------------------------

# (method, path, JSON body, headers) -> (status, the raw body, its media type)
Send = Callable[[str, str, dict[str, Any] | None, dict[str, str]], tuple[int, bytes, str]]


class HttpClient:
    """One keep-alive HTTP/1.1 connection to the server."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)

    def send(self, method: str, path: str, body: dict[str, Any] | None,
             headers: dict[str, str]) -> tuple[int, bytes, str]:
        data = None if body is None else json.dumps(body).encode()
        self.conn.request(method, path, body=data, headers={**JSON_HEADERS, **headers})
        response = self.conn.getresponse()
        raw = response.read()
        return response.status, raw, response.getheader("Content-Type", "")

    def close(self) -> None:
        self.conn.close()


class TestClient:
    def __init__(self, app: Any) -> None:
        self.client = app.test_client()

    def send(self, method: str, path: str, body: dict[str, Any] | None,
             headers: dict[str, str]) -> tuple[int, bytes, str]:
        response = self.client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_data(), response.content_type


# -- measurements ---------------------------------------------------------------------


def timed(send: Send, method: str, path: str, body: dict[str, Any] | None = None,
          headers: dict[str, str] | None = None, want: int = 200) -> tuple[float, Any]:
    """(milliseconds until the whole answer is received, the answer parsed afterwards)."""
    start = time.perf_counter()
    status, raw, media_type = send(method, path, body, headers or {})
    elapsed = (time.perf_counter() - start) * 1000
    payload = json.loads(raw) if media_type.startswith("application/json") else raw
    if status != want:
        raise RuntimeError(f"{method} {path}: {status} {payload!r:.300}")
    return elapsed, payload


def bench_healthz(send: Send, n: int) -> list[float]:
    for _ in range(20):
        timed(send, "GET", "/healthz")
    return [timed(send, "GET", "/healthz")[0] for _ in range(n)]


class LinePlayer:
    """Legal lines of fresh default-size games, never ending a turn."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.games = 0
        self.stages = {1: 0, 2: 0}
        self._new_game()

    def _new_game(self) -> None:
        _, created = timed(self.send, "POST", "/api/games",
                           {"player_name": "Bench", "difficulty": "easy"}, want=201)
        self.game_id: str = created["game_id"]
        self.auth = {"Authorization": f"Bearer {created['token']}"}
        self.state: dict[str, Any] = created["state"]
        self.games += 1

    def _ready(self) -> None:
        """Make sure a legal line exists that cannot end the turn (unmeasured)."""
        while True:
            state = self.state
            if state["over"] or state["stage"] == 3:
                self._new_game()
            elif state["stage"] == 1 and not state["legal"]["lines"]:
                _, result = timed(self.send, "POST", f"/api/games/{self.game_id}/advance",
                                  {"expected_version": state["version"]}, self.auth)
                self.state = result["state"]
            elif state["stage"] == 2 and not state["legal"]["lines"]:
                self._new_game()  # stage 2's line is placed: only advance is left
            else:
                return

    def measure_one(self) -> float:
        self._ready()
        state = self.state
        x, y = state["legal"]["lines"][0]
        elapsed, result = timed(self.send, "POST", f"/api/games/{self.game_id}/lines",
                                {"x": x, "y": y, "expected_version": state["version"]},
                                self.auth)
        if any(e["data"].get("seat") == 2 for e in result["events"]):
            raise RuntimeError("a computer turn ran inside a measured request")
        self.stages[state["stage"]] += 1
        self.state = result["state"]
        return elapsed


def bench_lines(send: Send, n: int) -> tuple[list[float], LinePlayer]:
    player = LinePlayer(send)
    for _ in range(10):
        player.measure_one()
    return [player.measure_one() for _ in range(n)], player


def finished_default_game(services: Services) -> tuple[str, int]:
    created = services.play.create_game(player_name="Bench", mode="computer_vs_computer",
                                   difficulty="easy", second_level="easy", seed=2024)
    finish_computer_game(services, created.game_id)
    return created.game_id, services.queries.get_summary(created.game_id).version


def bench_replay(send: Send, services: Services | None, game_id: str, version: int, n: int,
                 cold: bool, seed: int) -> list[float]:
    rng = random.Random(seed)
    steps = rng.sample(range(1, version + 1), min(n, version))
    times = []
    for step in steps:
        if cold and services is not None:
            services.store.snapshots.clear()
        elapsed, body = timed(send, "GET", f"/api/games/{game_id}/replay/{step}")
        assert body["state"]["version"] == step
        times.append(elapsed)
    return times


# -- report ---------------------------------------------------------------------------


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) >= 20 else max(values)


def row(label: str, values: list[float]) -> str:
    return (f"  {label:<44} median {median(values):7.3f} ms   p95 {p95(values):7.3f} ms"
            f"   (n={len(values)})")


def run_transport(name: str, send: Send, services: Services | None, game_id: str,
                  version: int, n: int) -> _results.Figures:
    """The figures of one transport; `services`: the app's own (in this process),
    whose snapshot cache is cleared for the cold replays, or None (a server's)."""
    health = bench_healthz(send, n * 3)
    lines, player = bench_lines(send, n)
    warm = bench_replay(send, services, game_id, version, n, cold=False, seed=1)
    cold = None if services is None else bench_replay(send, services, game_id, version, n,
                                                      cold=True, seed=2)
    ratio = median(lines) / median(health)
    print(f"{name}:")
    print(row("GET /healthz", health))
    print(row(f"POST lines ({player.stages[1]} stage 1, {player.stages[2]} stage 2)", lines))
    print(row(f"GET replay/k, warm cache (version {version})", warm))
    if cold is not None:
        print(row("GET replay/k, snapshot cache cleared", cold))
    print(f"  lines / healthz ratio: {ratio:.1f}x   (target <= {TARGET_RATIO:.0f}x: "
          f"{'met' if ratio <= TARGET_RATIO else 'MISSED'})")
    slowest = max(median(warm), median(cold) if cold else 0.0)
    print(f"  replay median: {median(warm):.2f} ms warm"
          + (f", {median(cold):.2f} ms cold" if cold else "")
          + f"   (target < {TARGET_REPLAY_MS:.0f} ms: "
          f"{'met' if slowest < TARGET_REPLAY_MS else 'MISSED'})")
    print(f"  fresh games used for the lines: {player.games}")
    figure = _results.figure
    figures = {"GET /healthz median": figure(median(health), "ms"),
               "GET /healthz p95": figure(p95(health), "ms"),
               "POST lines median": figure(median(lines), "ms"),
               "POST lines p95": figure(p95(lines), "ms"),
               "GET replay/k warm median": figure(median(warm), "ms",
                                                  f"< {TARGET_REPLAY_MS:.0f} ms"),
               "lines / healthz ratio": figure(ratio, "x", f"<= {TARGET_RATIO:.0f}x")}
    if cold is not None:
        figures["GET replay/k cold median"] = figure(median(cold), "ms",
                                                     f"< {TARGET_REPLAY_MS:.0f} ms")
    return figures


def profile(app: Any, services: Services, game_id: str, version: int, n: int) -> None:
    client = TestClient(app)
    player = LinePlayer(client.send)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(n):
        player.measure_one()
    profiler.disable()
    print("\ncProfile: POST lines through the test client (unmeasured new games included)")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    profiler = cProfile.Profile()
    profiler.enable()
    bench_replay(client.send, services, game_id, version, n, cold=True, seed=3)
    profiler.disable()
    print("\ncProfile: GET replay/k, snapshot cache cleared")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=None, help="requests per figure (200)")
    parser.add_argument("--profile", action="store_true", help="also print cProfile tables")
    _results.add_run_options(parser, quick="seconds: 20 requests per figure")
    args = parser.parse_args()
    _results.fill_defaults(args, n=(200, 20))
    figures: _results.Figures = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="squares-bench-api-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        migrate(url)
        app = create_app({"DATABASE_URL": url, "SQUARES_RATELIMIT_ENABLED": "0"})
        services: Services = app.extensions["squares"]
        # one client address makes every game here: no cap on its unfinished games
        services.active_games_per_client = 0
        t = time.perf_counter()
        game_id, version = finished_default_game(services)
        print(f"finished 19 x 33 computer_vs_computer game: {version} events "
              f"({time.perf_counter() - t:.2f} s)\n")
        with running_server(url, log_path=Path(tmp) / "server.log", migrate=False,
                            workers=1) as server:
            http_client = HttpClient(server.port)
            try:
                measured = run_transport(
                    f"HTTP (squares serve, one app worker; 127.0.0.1:{server.port}, "
                    f"keep-alive)", http_client.send, None, game_id, version, args.n)
                figures |= {f"HTTP {k}": v for k, v in measured.items()}
            finally:
                http_client.close()
        print()
        measured = run_transport("Flask test client (no sockets)", TestClient(app).send,
                                 services, game_id, version, args.n)
        figures |= {f"test client {k}": v for k, v in measured.items()}
        if args.profile:
            profile(app, services, game_id, version, args.n)
        services.store.dispose()
    print(f"\ntotal {time.perf_counter() - started:.1f} s")
    _results.save("api", figures, args, details={"requests per figure": args.n,
                                                 "replayed game's events": version})


if __name__ == "__main__":
    main()
