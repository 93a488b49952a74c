"""The app server candidates side by side (issue 36): what each adds to a request.

    .venv/bin/python benchmarks/servers.py            # 2,000 requests of each kind
    .venv/bin/python benchmarks/servers.py --quick    # 100

The same WSGI app (`service.serve.app_server.create`, as ``squares serve`` runs it)
under each candidate, one worker with 4 threads, on a fresh SQLite file; one
keep-alive client sends its requests one at a time, so that the only difference is
the server. For each kind of request, the server's CPU time per request (every
process of the server, from /proc):

- ``GET /healthz``: the app does almost nothing;
- ``GET /api/games/{id}``: a 9 x 13 game's state;
- a move: ``GET .../hint`` then ``POST .../lines`` or ``.../advance`` of 9 x 13 games
  against the easy computer, as ``benchmarks/load.py``'s clients play (per move).

The candidates: granian (shipped: `service.serve.app_server.command`), gunicorn's
``gthread`` worker, and uvicorn with the app under the a2wsgi adapter (one ASGI
server for the app and the streams, the issue's design (b)). Figures only.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from service.serve import app_server
from squares_testing import results as _results
from squares_testing.client import ApiClient
from squares_testing.net import HOST
from squares_testing.play import api_send, play_hints
from squares_testing.server import PER_CLIENT_LIMITS_OFF, Server, migrate_database, serving

THREADS = 4

CANDIDATES: dict[str, Callable[[int], Sequence[str]]] = {
    "granian (shipped)": lambda port: app_server.command(HOST, port, 1, THREADS),
    "gunicorn gthread": lambda port: [
        sys.executable, "-m", "gunicorn", "--workers", "1", "--threads", str(THREADS),
        "--worker-class", "gthread", "--bind", f"{HOST}:{port}", "--no-control-socket",
        "service.serve.app_server:create()"],
    "uvicorn + a2wsgi": lambda port: [
        sys.executable, "-m", "uvicorn", "--factory", "--host", HOST, "--port", str(port),
        "--log-level", "warning", "--no-access-log",
        "squares_testing.asgi_adapter:flask_over_a2wsgi"],
}


def per_request_ms(server: Server, requests: int, send: Callable[[], int]) -> float:
    """The server's CPU milliseconds per request of `send` (which sends some and says
    how many), after a warm-up."""
    send()
    before, sent = server.cpu_seconds(), 0
    while sent < requests:
        sent += send()
    return (server.cpu_seconds() - before) / sent * 1000


def measure(name: str, command: Callable[[int], Sequence[str]], url: str, tmp: Path,
            requests: int) -> dict[str, float]:
    import os

    env = {**os.environ, **PER_CLIENT_LIMITS_OFF, "DATABASE_URL": url}
    with serving(command, log_path=tmp / f"{name.split()[0]}.log", env=env,
                 database_url=url) as server:
        client = ApiClient(server.port)
        send = api_send(client)
        created = client.call("POST", "/api/games", {
            "player_name": "Bench", "height": 9, "width": 13, "difficulty": "easy"}).data
        path = f"/api/games/{created['game_id']}"

        def healthz() -> int:
            for _ in range(50):
                client.call("GET", "/healthz")
            return 50

        def game() -> int:
            for _ in range(50):
                client.call("GET", path)
            return 50

        def moves() -> int:
            status, made = send("POST", "/api/games", {
                "player_name": "Bench", "height": 9, "width": 13, "difficulty": "easy"})
            assert status == 201, made
            counted = [0]

            def counting(method: str, where: str, body: object = None,
                         token: str | None = None) -> tuple[int, object]:
                counted[0] += method == "POST" and where.endswith(("/lines", "/advance"))
                return send(method, where, body, token)

            play_hints(counting, made["game_id"], made["token"], made["state"])
            return counted[0]

        figures = {"GET /healthz": per_request_ms(server, requests, healthz),
                   "GET a game": per_request_ms(server, requests, game),
                   "a move with its hint": per_request_ms(server, requests // 10, moves)}
        client.close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=None,
                        help="requests of each kind (2,000)")
    _results.add_run_options(parser, quick="100 requests of each kind")
    args = parser.parse_args(argv)
    requests = args.requests or (100 if args.quick else 2000)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="squares-servers-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        migrate_database(url)
        for name, command in CANDIDATES.items():
            started = time.monotonic()
            results[name] = measure(name, command, url, Path(tmp), requests)
            print(f"measured {name} in {time.monotonic() - started:.1f} s", file=sys.stderr)
    kinds = list(next(iter(results.values())))
    shipped = results["granian (shipped)"]
    print(f"\n== Squares: the app server's CPU per request, one worker x {THREADS} threads, "
          f"one keep-alive client, {requests} requests of each kind ==")
    print(f"{'server':<20}" + "".join(f"{kind:>24}" for kind in kinds))
    figures: _results.Figures = {}
    for name, measured in results.items():
        cells = "".join(f"{measured[k]:>14.3f} ms ({measured[k] / shipped[k]:4.2f}x)"
                        for k in kinds)
        print(f"{name:<20}{cells}")
        for kind in kinds:
            figures[f"{name}: {kind}"] = _results.figure(measured[kind], "ms")
    _results.save("servers", figures, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
