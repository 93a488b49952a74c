"""Load benchmark: the real service (``squares serve``), N clients each playing whole games.

    .venv/bin/python benchmarks/load.py                  # SQLite, 2 workers, 32 clients, 20 s
    .venv/bin/python benchmarks/load.py --postgres       # a throwaway local PostgreSQL
    .venv/bin/python benchmarks/load.py --quick          # CI-sized: 8 clients, 1.5 s (--short)
    .venv/bin/python benchmarks/load.py --workers 1 --profile /tmp/prof --profile-clock cpu

The script migrates a fresh database (a temp SQLite file, or a database in a
throwaway PostgreSQL cluster it starts itself), starts ``squares serve`` as shipped (2 app workers) on
a free 127.0.0.1 port and drives it from a second process: every client thread asks
``GET /api/games/{id}/hint`` for its move and plays it with ``POST .../lines`` or
``POST .../advance`` (``expected_version`` set, ``Authorization: Bearer <token>``),
starting a new game (9 x 13, easy) whenever one ends, until the time is up. Then, in
the same run and with the same clients, it measures the bare ``GET /healthz`` rate.

Printed: moves/s, move latency p50/p95/p99, the status counts of every request
kind, the healthz rate and the ratio, the workers' peak RSS (VmHWM from
/proc/<pid>/status), the CPU used by the server, the clients and every other process
on the machine (a shared machine's noise), the server's CPU time per move, and the
targets next to the figures; a full run writes them to
``build/benchmarks/load-<UTC time>.json`` (or ``--json PATH``). ``--profile DIR`` runs
the workers under cProfile (`squares_testing.profiling`) and prints where their time went.
Speed is printed, never asserted; the exit status is 1 only for correctness failures
(a 5xx, a connection error, or an acknowledged event missing from the store afterwards).

The clients, their counts and the check of the store are `squares_testing.traffic`'s
(the reliability tests play the same way); the server is `squares_testing.server`'s.
Only 127.0.0.1 is used; every request loop is bounded in time and in count.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from service.serve import app_server
from service.serve.app_server import THREADS
from squares_testing import results as _results
from squares_testing.net import HOST
from squares_testing.processes import Forked, machine_cpu_seconds
from squares_testing.profiling import (
    PROFILE_CLOCK_ENV,
    PROFILE_DIR_ENV,
    PROFILED_APP,
    print_profile,
)
from squares_testing.server import (
    PER_CLIENT_LIMITS_OFF,
    Server,
    migrate_database,
    running_server,
    serving,
)
from squares_testing.stats import percentile
from squares_testing.traffic import (
    PhaseResult,
    count_5xx,
    count_conn_errors,
    missing_acknowledged,
    run_clients,
)

TARGET_MOVES_PER_S = 400
TARGET_P99_MS = 100
TARGET_RSS_MB = 150


def report(play: PhaseResult, health: PhaseResult, peaks_kb: dict[int, int], *,
           database: str, clients: int, workers: int, threads: int,
           lost: list[str], figures: _results.Figures | None = None) -> list[str]:
    """Print the figures (and add them to `figures`); return the correctness failures."""
    moves_s = play.stats.moves / play.elapsed
    move_lat = play.stats.move_latencies()
    hint_lat = play.stats.latencies.get("hint", [])
    health_n = sum(n for k, n in health.stats.counts.items() if k == "healthz 200")
    health_s = health_n / health.elapsed if health.elapsed else float("nan")
    all_requests = sum(play.stats.counts.values())
    p50, p95, p99 = (percentile(move_lat, q) * 1000 for q in (50, 95, 99))
    fives = count_5xx(play.stats) + count_5xx(health.stats)
    conn_errors = count_conn_errors(play.stats) + count_conn_errors(health.stats)
    rss_mb = {pid: kb / 1024 for pid, kb in peaks_kb.items()}
    worst = max(rss_mb.values(), default=float("nan"))

    def mark(ok: bool) -> str:
        return "ok" if ok else "MISSED"

    shown_threads = threads or f"{THREADS} (squares serve's default)"
    print(f"\n== Squares load: {database}, squares serve: {workers} app workers x {shown_threads} threads, "
          f"{clients} clients, "
          f"{play.elapsed:.1f} s (machine: {os.cpu_count()} cores, shared) ==")
    print(f"games started {play.stats.games_started}, finished {play.stats.games_finished}; "
          f"moves {play.stats.moves}; requests {all_requests} "
          f"({all_requests / play.elapsed:.0f}/s incl. hints and creates)")
    print(f"{'moves/s':<28}{moves_s:>10.1f}   target >= {TARGET_MOVES_PER_S}   "
          f"{mark(moves_s >= TARGET_MOVES_PER_S)}")
    print(f"{'move latency p50':<28}{p50:>10.1f} ms")
    print(f"{'move latency p95':<28}{p95:>10.1f} ms")
    print(f"{'move latency p99':<28}{p99:>10.1f} ms   target < {TARGET_P99_MS} ms   "
          f"{mark(p99 < TARGET_P99_MS)}")
    if hint_lat:
        print(f"{'hint latency p50 / p99':<28}{percentile(hint_lat, 50) * 1000:>10.1f} / "
              f"{percentile(hint_lat, 99) * 1000:.1f} ms")
    print(f"{'5xx answers':<28}{fives:>10}   target 0   {mark(fives == 0)}")
    print(f"{'connection errors':<28}{conn_errors:>10}")
    print(f"{'bare GET /healthz':<28}{health_s:>10.1f} req/s  (same clients, "
          f"{health.elapsed:.1f} s)")
    if health_s:
        print(f"{'moves/s : healthz/s':<28}{moves_s / health_s:>10.3f}   "
              f"(a move costs {health_s / moves_s if moves_s else float('nan'):.1f} "
              f"bare requests, its hint not counted)")
    per_worker = ", ".join(f"{mb:.1f}" for mb in sorted(rss_mb.values()))
    print(f"{'peak RSS per worker':<28}{worst:>10.1f} MB  [{per_worker}]   "
          f"target < {TARGET_RSS_MB} MB   {mark(worst < TARGET_RSS_MB)}")
    print(f"{'peak RSS, workers summed':<28}{sum(rss_mb.values()):>10.1f} MB")
    others = ("other processes (the PostgreSQL server included)"
              if database.startswith("PostgreSQL") else "other processes")
    for label, phase in (("moves phase", play), ("healthz phase", health)):
        print(f"{'CPU use, ' + label:<28}{'':>10}   server {phase.server_cpu / phase.elapsed:.2f}"
              f" cores, client {phase.client_cpu / phase.elapsed:.2f} cores, "
              f"{others} {phase.others_cores:.2f} cores")
    if play.stats.moves:
        print(f"{'server CPU per move':<28}{play.server_cpu / play.stats.moves * 1000:>10.2f} ms"
              f"   (its hint and a share of the game creations included)")
    if health_n:
        print(f"{'server CPU per healthz':<28}{health.server_cpu / health_n * 1000:>10.2f} ms")
    print("status counts (kind status: n):")
    for key, n in sorted((play.stats.counts + health.stats.counts).items()):
        print(f"    {key:<24}{n:>8}")
    print(f"acknowledged events checked in the store: {play.ledger.acknowledged} "
          f"in {len(play.ledger.events)} games; missing or changed: {len(lost)}")
    if figures is not None:
        figure = _results.figure
        figures |= {
            "moves/s": figure(moves_s, "moves/s", f">= {TARGET_MOVES_PER_S}"),
            "move latency p50": figure(p50, "ms"),
            "move latency p95": figure(p95, "ms"),
            "move latency p99": figure(p99, "ms", f"< {TARGET_P99_MS} ms"),
            "hint latency p50": figure(percentile(hint_lat, 50) * 1000, "ms"),
            "hint latency p99": figure(percentile(hint_lat, 99) * 1000, "ms"),
            "5xx answers": figure(fives, "answers", "0"),
            "connection errors": figure(conn_errors, "requests"),
            "bare GET /healthz": figure(health_s, "req/s"),
            "moves/s : healthz/s": figure(moves_s / health_s if health_s else None, "x"),
            "peak RSS per worker": figure(worst, "MB", f"< {TARGET_RSS_MB} MB"),
            "peak RSS, workers summed": figure(sum(rss_mb.values()), "MB"),
            "server CPU per move": figure(
                play.server_cpu / play.stats.moves * 1000 if play.stats.moves else None, "ms"),
            "server CPU per healthz": figure(
                health.server_cpu / health_n * 1000 if health_n else None, "ms"),
            "CPU use, moves phase, server": figure(play.server_cpu / play.elapsed, "cores"),
            "CPU use, moves phase, other processes": figure(play.others_cores, "cores"),
            "games finished": figure(play.stats.games_finished, "games"),
            "acknowledged events checked": figure(play.ledger.acknowledged, "events"),
            "acknowledged events missing or changed": figure(len(lost), "events", "0"),
        }
    failures = []
    if fives:
        failures.append(f"{fives} answers were 5xx")
    if conn_errors:
        failures.append(f"{conn_errors} requests got no answer")
    failures.extend(lost[:20])
    return failures


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="squares-load-") as tmp:
        log = Path(tmp) / "server.log"
        if args.postgres:
            from squares_testing.throwaway_postgres import throwaway_postgres

            with throwaway_postgres() as url:
                if url is None:
                    print("PostgreSQL server binaries not found", file=sys.stderr)
                    return 2
                return run_against(url, "PostgreSQL (throwaway cluster)", log, args)
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        sync = os.environ.get("SQUARES_SQLITE_SYNCHRONOUS", "FULL")
        return run_against(url, f"SQLite (synchronous={sync})", log, args)


def run_against(url: str, database: str, log: Path, args: argparse.Namespace) -> int:
    try:
        with serve(url, log, args) as server:
            return drive(server, database, args)
    finally:
        if args.profile is not None:
            print_profile(Path(args.profile), args.profile_clock)


@contextlib.contextmanager
def serve(url: str, log: Path, args: argparse.Namespace) -> Iterator[Server]:
    """``squares serve`` as shipped; with ``--profile``, its app server alone, each
    worker under cProfile (`squares_testing.profiling`)."""
    extra = ("--threads", str(args.threads)) if args.threads else ()
    if args.profile is None:
        with running_server(url, log_path=log, workers=args.workers,
                            extra_args=extra) as server:
            yield server
        return
    migrate_database(url)
    env = {**os.environ, **PER_CLIENT_LIMITS_OFF, "DATABASE_URL": url,
           PROFILE_DIR_ENV: str(Path(args.profile).resolve()),
           PROFILE_CLOCK_ENV: args.profile_clock}
    with serving(lambda port: app_server.command(HOST, port, args.workers,
                                                 args.threads or THREADS, PROFILED_APP),
                 log_path=log, env=env, workers=args.workers, database_url=url) as server:
        yield server


def measured(server: Server, fn: Callable[..., PhaseResult], /, **kwargs: Any) -> PhaseResult:
    """`fn(**kwargs)` in a second process, with the server's and the machine's CPU use."""
    server_cpu, machine_cpu = server.cpu_seconds(), machine_cpu_seconds()
    started = time.monotonic()
    result: PhaseResult = Forked(fn, **kwargs).result(float(kwargs.get("seconds", 60)) + 180)
    result.wall = time.monotonic() - started
    result.server_cpu = server.cpu_seconds() - server_cpu
    result.machine_cpu = machine_cpu_seconds() - machine_cpu
    return result


def drive(server: Server, database: str, args: argparse.Namespace) -> int:
    play = measured(server, run_clients, port=server.port, clients=args.clients,
                    seconds=args.seconds, phase="play")
    health = measured(server, run_clients, port=server.port, clients=args.clients,
                      seconds=args.healthz_seconds, phase="healthz")
    peaks = server.peak_rss_kb()
    lost = missing_acknowledged(server.port, play.ledger)
    figures: _results.Figures = {}
    failures = report(play, health, peaks, database=database, clients=args.clients,
                      workers=args.workers, threads=args.threads, lost=lost,
                      figures=figures)
    _results.save("load", figures, args, details={
        "database": database, "clients": args.clients, "seconds": args.seconds,
        "workers": args.workers, "threads": args.threads,
        "profiled": args.profile is not None})
    if failures:
        print("\nCORRECTNESS FAILURES:\n  " + "\n  ".join(failures))
        print("server log tail:\n" + server.log_tail())
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--healthz-seconds", type=float, default=None,
                        help="length of the bare /healthz phase (default: seconds / 4, 2..5)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0,
                        help="request threads per worker (default: squares serve's)")
    parser.add_argument("--postgres", action="store_true",
                        help="run on a throwaway local PostgreSQL cluster")
    parser.add_argument("--quick", "--short", dest="quick", action="store_true",
                        help="CI size: 8 clients, 3 s (--short is the old name)")
    parser.add_argument("--profile", metavar="DIR", default=None,
                        help="run every worker under cProfile, write DIR/worker-<pid>.prof "
                             "and print the summed top functions (slows the server down)")
    parser.add_argument("--profile-clock", choices=("wall", "cpu"), default="wall",
                        help="what --profile counts: wall time (default) or CPU time")
    _results.add_json_option(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.clients, args.seconds = min(args.clients, 8), min(args.seconds, 1.5)
    if args.healthz_seconds is None:
        args.healthz_seconds = 1.0 if args.quick else max(2.0, min(5.0, args.seconds / 4))
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
