"""Game review benchmark (issue 24): the three targets of the analyst.

1. **CPU per review**: computer-vs-computer games on the default 19 x 33 field,
   played in memory with the pure domain (levels mixed: easy, moderate, hard, equal
   and unequal pairings), each reviewed (`domain.review.review_game`) under
   ``time.process_time()``: median, p99, max, and the reviews that are not exact
   (a search ran out of its budget). Target: <= 1 s of CPU for every 19 x 33 game.
   **Crafted games** (issue 37): the games that make a review work hardest (a
   `two_players` game in which nobody ever takes a square, `squares_testing.crafted`,
   on the largest field and smaller ones, and two greedy players on the largest),
   each reviewed the same way: the max, and the turns left approximate by the
   review's work budget. Target: <= 2 s of CPU for every game, crafted ones included.
2. **One analyst's throughput on one core**: finished games stored through the
   service layer (as ``squares simulate --store`` stores them) in a fresh SQLite
   file, then one `Analyst(store).catch_up()` in this (single-threaded) process,
   timed on the wall clock and in CPU. Target: >= 60 games a minute.
3. **Latency under load**: the shipped server (``squares serve``: its app server
   with 2 workers and its analyst, a process of its own) on a fresh SQLite file; the
   load generator of ``benchmarks/load.py`` plays 9 x 13 games against it from a
   second process while driver threads here finish 19 x 33 computer-vs-computer
   games through the API (``POST /api/games``, then ``POST .../computer-turn`` with
   the game's token until the answer says it is over), then ask ``GET
   .../analysis`` every 0.1 s until it answers 200. Figure: from the answer that
   ended the game to the first 200, p50 / p99 / max. Target: p99 < 10 s. The load's
   own games end meanwhile and are reviewed by the same analyst, in order.

    .venv/bin/python benchmarks/review.py            # 120 + 40 + 24 games, 32 load clients
    .venv/bin/python benchmarks/review.py --quick    # a few games, 4 load clients
    .venv/bin/python benchmarks/review.py --parts cpu,throughput

A full run writes the figures to ``build/benchmarks/review-<UTC time>.json`` (or
``--json PATH``, also with ``--quick``). Speed is printed, never asserted; the exit
status is 1 only for correctness failures (a 5xx or a connection error, a game the
drivers could not finish, a review that never came, an analysis answer other than
409 while the game runs, or fewer reviews than stored games).

Only 127.0.0.1 is used; every loop is bounded in time and in count.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _review_games import PAIRINGS, mark, pairing

from cli.simulate import Setup, new_game, play_stored
from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.events import Event
from service.domain.review import review_game
from service.projections.analyst import Analyst
from service.services import Services
from service.store import migrate
from squares_testing import results as _results
from squares_testing.crafted import nobody_takes
from squares_testing.greedy import Greedy
from squares_testing.play import own_level, play_out
from squares_testing.stats import percentile

TARGET_CPU_S = 1.0  # per 19 x 33 review, every game
TARGET_CRAFTED_S = 2.0  # per review of any legal game
# (height, width, how nobody takes: `squares_testing.crafted`), or "greedy" players
CRAFTED = ((41, 81, "threes"), (41, 81, "safe"), (25, 51, "threes"), (19, 33, "first"),
           (41, 81, "greedy"))
TARGET_PER_MIN = 60.0  # one analyst, one core
HUMAN_LIKE_EVERY = 3  # every third CPU game has a greedy seat 1 (`game_events`)
PARTS = ("cpu", "crafted", "throughput", "latency")
def setup_for(i: int) -> Setup:
    level1, level2 = pairing(i)
    return Setup(level1, level2, DEFAULT_HEIGHT, DEFAULT_WIDTH)


# -- 1. CPU per review ----------------------------------------------------------------


def game_events(setup: Setup, seed: int, human_like: bool = False) -> list[Event]:
    """A whole computer-vs-computer game with the pure domain (as `cli.simulate`'s
    `play_in_memory` plays it): its events, those `Services` would store. With
    `human_like`, seat 1 plays `players.Greedy` instead (the first square it sees,
    a safe stage-2 line while one is left): it leaves chains behind, as people do,
    which makes the positions the review searches larger than the computer's."""
    greedy = Greedy()
    return play_out(new_game(setup, seed), lambda state: greedy if human_like and state.turn == 1
                    else own_level(state))[0]


@dataclass
class Reviewed:
    pairing: str
    events: int
    turns: int
    cpu_s: float
    exact: bool


def measure_cpu(games: int, seed: int, figures: _results.Figures) -> dict[str, Any]:
    print(f"\n== 1. CPU per review: {games} computer-vs-computer games (every "
          f"{HUMAN_LIKE_EVERY}rd with a greedy, human-like seat 1) on "
          f"{DEFAULT_HEIGHT} x {DEFAULT_WIDTH}, levels mixed, played in memory, each "
          "review under time.process_time() ==")
    done: list[Reviewed] = []
    playing = 0.0
    for i in range(games):
        setup = setup_for(i)
        human_like = i % HUMAN_LIKE_EVERY == HUMAN_LIKE_EVERY - 1
        t0 = time.process_time()
        events = game_events(setup, seed + i, human_like)
        playing += time.process_time() - t0
        t0 = time.process_time()
        review = review_game(events)
        cpu = time.process_time() - t0
        name = f"greedy/{setup.level2}" if human_like else f"{setup.level1}/{setup.level2}"
        done.append(Reviewed(name, len(events), len(review.turns), cpu, review.exact))
    print(f"(playing the games took {playing:.1f} s of CPU, not counted)")
    print(f"{'pairing':<20}{'games':>6}{'events':>8}{'turns':>7}{'median s':>10}"
          f"{'p99 s':>9}{'max s':>9}{'inexact':>9}")
    groups = {name: [r for r in done if r.pairing == name]
              for name in dict.fromkeys(r.pairing for r in done)}
    for name, rows in [*groups.items(), ("all", done)]:
        cpu = [r.cpu_s for r in rows]
        print(f"{name:<20}{len(rows):>6}{statistics.median(r.events for r in rows):>8.0f}"
              f"{statistics.median(r.turns for r in rows):>7.0f}"
              f"{statistics.median(cpu):>10.3f}{percentile(cpu, 99):>9.3f}{max(cpu):>9.3f}"
              f"{sum(not r.exact for r in rows):>9}")
    cpu = [r.cpu_s for r in done]
    inexact = sum(not r.exact for r in done)
    worst = max(cpu)
    print(f"{'review CPU median / p99 / max':<34}{statistics.median(cpu):.3f} / "
          f"{percentile(cpu, 99):.3f} / {worst:.3f} s   target max <= {TARGET_CPU_S:g} s   "
          f"{mark(worst <= TARGET_CPU_S)}")
    print(f"{'inexact reviews':<34}{inexact} of {len(done)}")
    figure = _results.figure
    figures |= {
        "review CPU median": figure(statistics.median(cpu), "s CPU"),
        "review CPU p99": figure(percentile(cpu, 99), "s CPU"),
        "review CPU max": figure(worst, "s CPU", f"<= {TARGET_CPU_S:g} s"),
        "inexact reviews": figure(inexact, "reviews"),
        "reviewed games (CPU)": figure(len(done), "games"),
    }
    return {"target": f"review CPU max, {DEFAULT_HEIGHT}x{DEFAULT_WIDTH}",
            "value": f"{worst:.3f} s (p99 {percentile(cpu, 99):.3f}, "
                     f"median {statistics.median(cpu):.3f})",
            "goal": f"<= {TARGET_CPU_S:g} s", "ok": worst <= TARGET_CPU_S}


def crafted_events(height: int, width: int, how: str) -> list[Event]:
    if how == "greedy":
        greedy = Greedy()
        command = Setup("hard", "hard", height, width)
        return play_out(new_game(command, 11), lambda _state: greedy)[0]
    return nobody_takes(height, width, how)


def measure_crafted(figures: _results.Figures) -> dict[str, Any]:
    print("\n== 1b. Crafted games: nobody ever takes a square (two players), or two "
          "greedy players; each review under time.process_time() ==")
    print(f"{'game':<20}{'events':>8}{'turns':>7}{'CPU s':>8}{'approximate turns':>19}")
    worst = 0.0
    approximate = 0
    for height, width, how in CRAFTED:
        events = crafted_events(height, width, how)
        t0 = time.process_time()
        review = review_game(events)
        cpu = time.process_time() - t0
        inexact = sum(not t.exact for t in review.turns)
        worst = max(worst, cpu)
        approximate += inexact
        print(f"{f'{height}x{width} {how}':<20}{len(events):>8}{len(review.turns):>7}"
              f"{cpu:>8.3f}{inexact:>19}")
    ok = worst <= TARGET_CRAFTED_S
    print(f"{'crafted review CPU max':<34}{worst:.3f} s   target <= {TARGET_CRAFTED_S:g} s   "
          f"{mark(ok)}")
    figure = _results.figure
    figures |= {
        "crafted review CPU max": figure(worst, "s CPU", f"<= {TARGET_CRAFTED_S:g} s"),
        "crafted approximate turns": figure(approximate, "turns"),
    }
    return {"target": "review CPU max, crafted games", "value": f"{worst:.3f} s",
            "goal": f"<= {TARGET_CRAFTED_S:g} s", "ok": ok}


# -- 2. one analyst's throughput ------------------------------------------------------------


def measure_throughput(games: int, seed: int, figures: _results.Figures,
                       failures: list[str]) -> dict[str, Any]:
    print(f"\n== 2. One analyst's throughput: {games} finished {DEFAULT_HEIGHT} x "
          f"{DEFAULT_WIDTH} games stored in a fresh SQLite file, then "
          "Analyst(store).catch_up() in this process (one thread) ==")
    with tempfile.TemporaryDirectory(prefix="squares-review-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        migrate(url)
        services = Services.from_url(url)
        try:
            started = time.perf_counter()
            for i in range(games):
                play_stored(services, setup_for(i), seed + i)
            stored_s = time.perf_counter() - started
            print(f"(storing the games took {stored_s:.1f} s, not counted)")
            wall0, cpu0 = time.perf_counter(), time.process_time()
            reviewed = Analyst(services.store).catch_up()
            wall = time.perf_counter() - wall0
            cpu = time.process_time() - cpu0
            with services.store.unit_of_work(write=False) as uow:
                stored_reviews = uow.reviews.count()
        finally:
            services.store.dispose()
    if reviewed != games or stored_reviews != games:
        failures.append(f"catch_up reviewed {reviewed} and stored {stored_reviews} "
                        f"reviews of {games} games")
    per_min = reviewed / wall * 60 if wall > 0 else float("nan")
    per_min_cpu = reviewed / cpu * 60 if cpu > 0 else float("nan")
    ok = per_min >= TARGET_PER_MIN
    print(f"{'games reviewed':<34}{reviewed} in {wall:.2f} s wall, {cpu:.2f} s CPU "
          f"({cpu / max(wall, 1e-9):.2f} cores)")
    print(f"{'per game':<34}{wall / max(reviewed, 1):.3f} s wall, "
          f"{cpu / max(reviewed, 1):.3f} s CPU (its reads, the review and its write)")
    print(f"{'analyst games/min (wall)':<34}{per_min:.0f}/min   target >= "
          f"{TARGET_PER_MIN:g}/min   {mark(ok)}")
    print(f"{'analyst games/min (CPU)':<34}{per_min_cpu:.0f}/min")
    figure = _results.figure
    figures |= {
        "analyst games/min": figure(per_min, "games/min", f">= {TARGET_PER_MIN:g}/min"),
        "analyst games/min by CPU": figure(per_min_cpu, "games/min"),
        "analyst wall per game": figure(wall / max(reviewed, 1), "s"),
        "analyst CPU per game": figure(cpu / max(reviewed, 1), "s CPU"),
        "games caught up": figure(reviewed, "games"),
    }
    return {"target": "one analyst, one core", "value": f"{per_min:.0f} games/min",
            "goal": f">= {TARGET_PER_MIN:g}/min", "ok": ok}


def summary(rows: list[dict[str, Any]]) -> None:
    print("\n== Summary (issue 24 targets; machine: "
          f"{os.cpu_count()} cores, shared) ==")
    print(f"{'target':<42}{'measured':<38}{'goal':<16}result")
    for row in rows:
        print(f"{row['target']:<42}{row['value']:<38}{row['goal']:<16}{mark(row['ok'])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None,
                        help="games reviewed for the CPU figures (120; quick 6)")
    parser.add_argument("--stored", type=int, default=None,
                        help="games stored for the analyst's catch-up (40; quick 4)")
    parser.add_argument("--server-games", type=int, default=None,
                        help="games finished through the API under load (24; quick 2)")
    parser.add_argument("--drivers", type=int, default=None,
                        help="threads finishing those games (4; quick 2)")
    parser.add_argument("--clients", type=int, default=None,
                        help="load.py clients meanwhile (32, load.py's default; quick 4)")
    parser.add_argument("--max-wait", type=float, default=60.0,
                        help="seconds a game's review may take before it counts as "
                             "never ready (default 60)")
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="bound on the load phase (300; quick 60)")
    parser.add_argument("--warmup", type=float, default=None,
                        help="seconds of load before the first game starts (2; quick 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game")
    parser.add_argument("--parts", default=",".join(PARTS),
                        help=f"which of {','.join(PARTS)} to run (default: all)")
    _results.add_run_options(parser, quick="seconds: a few games per part, 4 load clients")
    args = parser.parse_args(argv)
    _results.fill_defaults(args, games=(120, 6), stored=(40, 4), server_games=(24, 2),
                           drivers=(4, 2), clients=(32, 4), max_seconds=(300.0, 60.0),
                           warmup=(2.0, 1.0))
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"unknown parts: {', '.join(unknown)} (choose from {', '.join(PARTS)})")

    figures: _results.Figures = {}
    failures: list[str] = []
    rows = []
    if "cpu" in parts:
        rows.append(measure_cpu(args.games, args.seed, figures))
    if "crafted" in parts:
        rows.append(measure_crafted(figures))
    if "throughput" in parts:
        rows.append(measure_throughput(args.stored, args.seed + 100_000, figures, failures))
    if "latency" in parts:
        from _review_latency import measure_latency

        rows.append(measure_latency(args, figures, failures))
    summary(rows)
    _results.save("review", figures, args, details={
        "field": f"{DEFAULT_HEIGHT}x{DEFAULT_WIDTH}",
        "pairings": ["/".join(p) for p in PAIRINGS], "parts": parts,
        "crafted": [f"{h}x{w} {how}" for h, w, how in CRAFTED],
        "games": args.games, "stored": args.stored, "server_games": args.server_games,
        "drivers": args.drivers, "clients": args.clients, "seed": args.seed,
        "database": "SQLite (synchronous="
                    f"{os.environ.get('SQUARES_SQLITE_SYNCHRONOUS', 'FULL')})"})
    if failures:
        print("\nCORRECTNESS FAILURES:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
