"""The worst request on crafted positions (prints figures, asserts nothing).

Positions from `squares_testing.worst` (corridors, dominoes, many three-sided
boxes, dense boards) on 19 x 33 and 41 x 81, one vs_computer game per position and
computer level, stored straight through the event store (their initial lines are
chosen, not drawn from a seed). Through the Flask test client (in process, so the
figures are the server's own work: wall time and CPU time of the request), it times:

- ``GET /api/games/{id}/hint`` (the human's hint; cached per version, so the first
  request of a version is the one timed),
- ``GET /api/games/{id}`` and ``GET /api/games/{id}/replay/1``,
- the human's turn: ``POST …/advance`` (stage 1 -> 2), ``POST …/lines`` (the stage-2
  line the hint suggests), ``POST …/advance`` (the random pieces), and the final
  ``POST …/advance``, which plays the computer's whole turn on the crafted board.

Usage: ``.venv/bin/python benchmarks/worst_case.py [--sizes 19x33,41x81] [--levels ...]
[--json PATH]``; ``--quick``: 19 x 33 only (seconds).
Target: the worst request on any field size <= 250 ms.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import replace
from typing import Any

from service.domain.events import Seat
from service.domain.fold import fold
from service.domain.start import LEVELS
from service.http.app import create_app
from service.ops import lifecycle
from service.services import security
from service.store import migrate
from squares_testing import results as _results
from squares_testing import worst

TARGET_MS = 250.0


def stored_game(app: Any, kind: str, height: int, width: int, level: str) -> tuple[str, str]:
    """A vs_computer game at a crafted position; returns (game id, token)."""
    created = worst.position(kind, height, width, seed=1).game
    created = replace(created, mode="vs_computer", difficulty=level,
                      seats=(Seat("Bench", "human"), Seat("Computer", "computer", level)))
    token, salt, token_hash = security.new_token_hash()
    game_id = uuid.uuid4().hex
    app.extensions["squares"].store.add_game(game_id, [created], fold([created]),
                                             token_hash=token_hash, token_salt=salt)
    return game_id, token


def timed(client: Any, method: str, path: str, **kwargs: Any) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    response = client.open(path, method=method, **kwargs)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if response.status_code >= 500:
        raise RuntimeError(f"{method} {path}: {response.status_code} {response.data[:300]!r}")
    return wall * 1000, cpu * 1000, response.get_json(silent=True)


def play_one(client: Any, game_id: str, token: str) -> list[tuple[str, float, float]]:
    url, auth = f"/api/games/{game_id}", {"Authorization": f"Bearer {token}"}
    rows = []

    def run(name: str, method: str, path: str, **kwargs: Any) -> Any:
        wall, cpu, body = timed(client, method, path, **kwargs)
        rows.append((name, wall, cpu))
        return body

    run("GET game", "GET", url)
    run("GET replay/1", "GET", f"{url}/replay/1")
    run("GET hint (stage 1)", "GET", f"{url}/hint", headers=auth)  # writes hint_used
    run("POST advance (1 -> 2)", "POST", f"{url}/advance", json={}, headers=auth)
    hint = run("GET hint (stage 2)", "GET", f"{url}/hint", headers=auth)
    if hint and hint.get("action") == "line":
        run("POST lines (stage 2)", "POST", f"{url}/lines",
            json={"x": hint["x"], "y": hint["y"]}, headers=auth)
    run("POST advance (pieces)", "POST", f"{url}/advance", json={}, headers=auth)
    run("POST advance (computer's turn)", "POST", f"{url}/advance", json={}, headers=auth)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=None, help="(19x33,41x81)")
    parser.add_argument("--levels", default=",".join(LEVELS))
    _results.add_run_options(parser, quick="seconds: 19 x 33 only")
    args = parser.parse_args()
    _results.fill_defaults(args, sizes=("19x33,41x81", "19x33"))
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.sizes.split(",")]
    levels = args.levels.split(",")
    worst_of: dict[str, tuple[float, float, str]] = defaultdict(lambda: (0.0, 0.0, ""))
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/worst.db"
        migrate(url)
        app = create_app({"DATABASE_URL": url, "SQUARES_RATELIMIT_ENABLED": "0"})
        client = app.test_client()
        for height, width in sizes:
            for kind in worst.KINDS:
                for level in levels:
                    game_id, token = stored_game(app, kind, height, width, level)
                    where = f"{kind} {height}x{width} {level}"
                    for name, wall, cpu in play_one(client, game_id, token):
                        if wall > worst_of[name][0]:
                            worst_of[name] = (wall, cpu, where)
        lifecycle.close(app)  # its threads (the analyst, the sweeper) stop first
    print(f"worst request per endpoint ({', '.join(f'{h}x{w}' for h, w in sizes)}; "
          f"{', '.join(worst.KINDS)}; levels {', '.join(levels)})")
    for name, (wall, cpu, where) in worst_of.items():
        print(f"  {name:34s} {wall:8.1f} ms wall {cpu:8.1f} ms CPU   ({where})")
    overall = max(wall for wall, _, _ in worst_of.values())
    met = "met" if overall <= TARGET_MS else "MISSED"
    print(f"worst request: {overall:.1f} ms (target <= {TARGET_MS:.0f} ms: {met})")
    figures: _results.Figures = {}
    for name, (wall, cpu, _where) in worst_of.items():
        figures[f"{name} wall"] = _results.figure(wall, "ms")
        figures[f"{name} CPU"] = _results.figure(cpu, "ms")
    figures["worst request"] = _results.figure(overall, "ms", f"<= {TARGET_MS:.0f} ms")
    _results.save("worst_case", figures, args,
                  details={name: where for name, (_, _, where) in worst_of.items()})
    return 0


if __name__ == "__main__":
    sys.exit(main())
