"""Where a move's server CPU goes: the app's own share of it, by part.

    .venv/bin/python benchmarks/move_cost.py             # 60 games of 9 x 13, easy
    .venv/bin/python benchmarks/move_cost.py --quick     # 6 games

The same play as ``benchmarks/load.py`` (for each move ``GET .../hint``, then ``POST
.../lines`` or ``.../advance`` with ``expected_version`` and the token; a new 9 x 13
game against the easy computer whenever one ends), driven straight into the WSGI app
in this process on a fresh SQLite file, as shipped (limits on, set high enough that
one client is never refused), one request at a time. No HTTP server and no thread
hop: load.py's "server CPU per healthz" minus the app's own cost of one ``/healthz``
(printed here) is what those add to every request.

First the CPU per move is measured without a profiler; then the same play runs under
cProfile, and each function's own time (``tottime``) goes to the part its module
belongs to (`PARTS`): the profile gives the shares, the plain run the milliseconds.
cProfile slows call-heavy code more than the rest, so the shares are approximate.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from squares_testing import results as _results
from squares_testing.play import play_hints

HIGH_LIMITS = {key: "1000000 per minute" for key in
               ("SQUARES_LIMIT_CREATE", "SQUARES_LIMIT_HINT", "SQUARES_LIMIT_MOVE")}

# (part, module path fragments): a function's own time goes to the first part one of
# whose fragments is in its file name (or its built-in's description)
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("hint and computer turns (the AI)", ("/domain/ai/", "/domain/pieces.py", "random.py")),
    ("fold and copy (projection)", ("/domain/state.py", "/domain/events.py",
                                    "/domain/board.py")),
    ("decide (rules)", ("/domain/rules.py", "/domain/players.py", "/domain/")),
    ("commit (sqlite3 COMMIT, fsync)", ("'commit' of 'sqlite3",)),
    ("database statements (SQLAlchemy, sqlite3)", ("sqlalchemy/", "sqlite3", "/store/")),
    ("rate limiter (limits)", ("/service/limits.py", "/limits/")),
    ("headers, request id, access log, metrics", ("/service/headers.py", "access_log.py",
                                                  "request_ids.py", "/service/logs.py",
                                                  "/service/metrics.py", "prometheus_client/",
                                                  "logging/", "uuid.py")),
    ("serialization (marshmallow, webargs, JSON)", ("marshmallow/", "webargs/", "json/",
                                                   "flask_smorest/", "/api/views.py",
                                                   "/api/schemas.py", "/flask/json/")),
    ("service layer (use cases)", ("/service/services/", "/service/api/", "security.py",
                                   "hmac.py")),
    ("Flask and werkzeug (routing, request, response)", ("flask/", "werkzeug/")),
]
OTHER = "other (the standard library, called from nothing of the above)"
HELPER_DEPTH = 6


class App:
    """Requests straight into a WSGI app; each answer's status and JSON (a
    `squares_testing.play.Send`). `moves`: the moves sent so far."""

    def __init__(self, wsgi: Callable[..., Any]) -> None:
        self.wsgi = wsgi
        self.moves = 0

    def __call__(self, method: str, path: str, body: Any = None,
                 token: str | None = None) -> tuple[int, Any]:
        self.moves += method == "POST" and path.endswith(("/lines", "/advance"))
        raw = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(raw),
            "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True,
            "wsgi.run_once": False, "wsgi.version": (1, 0),
        }
        if body is not None:
            environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(raw)))
        if token is not None:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        status: list[str] = []
        answer = self.wsgi(environ, lambda s, _h, _e=None: status.append(s))
        try:
            data = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()
        return int(status[0].split()[0]), json.loads(data) if data.startswith(b"{") else None


def play(app: App, games: int, seed: int) -> int:
    """Play `games` whole games the way load.py's clients do; the moves made."""
    moves = 0
    for n in range(games):
        status, created = app("POST", "/api/games", {
            "player_name": f"Cost #{n}", "difficulty": "easy", "height": 9, "width": 13,
            "seed": seed + n})
        assert status == 201, created
        before = app.moves
        play_hints(app, created["game_id"], created["token"], created["state"])
        moves += app.moves - before
    return moves


def part_of(file_and_name: str) -> str:
    for part, fragments in PARTS:
        if any(fragment in file_and_name for fragment in fragments):
            return part
    return OTHER


def shares(profile: cProfile.Profile) -> dict[str, float]:
    """Each part's share of the profiled time: its functions' own time, and that of
    the built-ins and standard-library helpers they call (a helper's own time is split
    over its callers as they called it, up to `HELPER_DEPTH` callers up)."""
    stats: dict[Any, Any] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    by_part: dict[str, float] = {}

    def attribute(func: Any, seconds: float, depth: int) -> None:
        file, _line, name = func
        part = part_of(f"{file}:{name}")
        callers = stats.get(func, (0, 0, 0, 0, {}))[4]
        if part != OTHER or depth >= HELPER_DEPTH or not callers:
            by_part[part] = by_part.get(part, 0.0) + seconds
            return
        weights = {caller: timing[2] + timing[3] for caller, timing in callers.items()}
        total = sum(weights.values())
        for caller, weight in weights.items():
            share = weight / total if total else 1 / len(weights)
            attribute(caller, seconds * share, depth + 1)

    for func, (_cc, _nc, own, _cum, _callers) in stats.items():
        attribute(func, own, 0)
    total = sum(by_part.values()) or 1.0
    return {part: seconds / total for part, seconds in by_part.items()}


def healthz_cpu_ms(app: App, n: int) -> float:
    started = time.process_time()
    for _ in range(n):
        app("GET", "/healthz")
    return (time.process_time() - started) / n * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, help="games per phase (60)")
    _results.add_run_options(parser, quick="6 games per phase")
    args = parser.parse_args(argv)
    games = args.games or (6 if args.quick else 60)

    from service import lifecycle
    from service.app import create_app
    from service.store import migrate

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        migrate(url)
        flask_app = create_app({"DATABASE_URL": url, **HIGH_LIMITS})
        app = App(flask_app.wsgi_app)
        play(app, 2, seed=900)  # warm up: imports, caches, the first connections
        started = time.process_time()
        moves = play(app, games, seed=1000)
        per_move_ms = (time.process_time() - started) / moves * 1000
        healthz_ms = healthz_cpu_ms(app, 500 if args.quick else 3000)
        profile = cProfile.Profile(time.process_time)
        profile.enable()
        play(app, games, seed=1000 + games)
        profile.disable()
        lifecycle.close(flask_app)  # its threads (the analyst, the sweeper) stop first

    parts = sorted(shares(profile).items(), key=lambda item: -item[1])
    print(f"\n== Squares: a move's CPU in the app (in-process WSGI, SQLite, limits on; "
          f"{games} games, {moves} moves, each with its hint) ==")
    print(f"{'app CPU per move, its hint included':<52}{per_move_ms:>8.2f} ms")
    print(f"{'app CPU per bare GET /healthz':<52}{healthz_ms:>8.3f} ms")
    print(f"{'a move : a bare request (app only)':<52}{per_move_ms / healthz_ms:>8.1f} x")
    print(f"\n{'part (by cProfile own time)':<52}{'ms/move':>8}{'share':>8}")
    figures: _results.Figures = {
        "app CPU per move": _results.figure(per_move_ms, "ms"),
        "app CPU per healthz": _results.figure(healthz_ms, "ms"),
    }
    for part, share in parts:
        print(f"{part:<52}{share * per_move_ms:>8.2f}{share * 100:>7.1f}%")
        figures[f"move part: {part}"] = _results.figure(share * per_move_ms, "ms")
    _results.save("move_cost", figures, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
