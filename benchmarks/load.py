"""Load benchmark: the real service under gunicorn, N clients each playing whole games.

    .venv/bin/python benchmarks/load.py                  # SQLite, 2 workers, 32 clients, 20 s
    .venv/bin/python benchmarks/load.py --postgres       # a throwaway local PostgreSQL
    .venv/bin/python benchmarks/load.py --quick          # CI-sized: 8 clients, 3 s (--short)
    .venv/bin/python benchmarks/load.py --workers 1 --profile /tmp/prof --profile-clock cpu

The script migrates a fresh database (a temp SQLite file, or a database in a
throwaway PostgreSQL cluster it starts itself), starts ``gunicorn -w 2 wsgi:app`` on
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
the workers under cProfile (`_server.profiled_app`) and prints where their time went.
Speed is printed, never asserted; the exit status is 1 only for correctness failures
(a 5xx, a connection error, or an acknowledged event missing from the store afterwards).

Only 127.0.0.1 is used; every request loop is bounded in time and in count.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import _results  # noqa: E402
from benchmarks._server import (  # noqa: E402
    HOST,
    PROFILE_CLOCK_ENV,
    PROFILE_DIR_ENV,
    PROFILED_APP,
    Server,
    running_server,
)
from service.asgi import THREADS  # noqa: E402

TARGET_MOVES_PER_S = 400
TARGET_P99_MS = 100
TARGET_RSS_MB = 150
MOVE_KINDS = ("line", "advance")


# -- one HTTP client --------------------------------------------------------------


class ConnectionFailed(Exception):
    """No HTTP answer (refused, reset, timed out): the outcome of the request is unknown."""


@dataclass
class Reply:
    status: int
    data: Any  # the decoded JSON body, or None
    body: bytes
    content_type: str
    elapsed: float  # seconds


class ApiClient:
    """A keep-alive HTTP/1.1 client for 127.0.0.1:`port` (reconnects when needed)."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.port = port
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def call(self, method: str, path: str, body: Any = None, *, token: str | None = None,
             raw: bytes | None = None, headers: dict[str, str] | None = None) -> Reply:
        sent_headers = {"Accept": "application/json"}
        payload: bytes | None = raw
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
        if payload is not None:
            sent_headers["Content-Type"] = "application/json"
        if token is not None:
            sent_headers["Authorization"] = f"Bearer {token}"
        sent_headers.update(headers or {})
        if self._conn is None:
            self._conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        started = time.perf_counter()
        try:
            self._conn.request(method, path, body=payload, headers=sent_headers)
            response = self._conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            raise ConnectionFailed(f"{method} {path}: {exc!r}") from exc
        elapsed = time.perf_counter() - started
        if response.will_close:
            self.close()
        content_type = response.getheader("Content-Type", "")
        decoded: Any = None
        if "json" in content_type:
            try:
                decoded = json.loads(data)
            except ValueError:
                decoded = None
        return Reply(response.status, decoded, data, content_type, elapsed)


# -- what the clients saw ------------------------------------------------------------


@dataclass
class Stats:
    counts: Counter[str] = field(default_factory=Counter)  # "kind status" -> n
    latencies: dict[str, list[float]] = field(default_factory=dict)  # kind -> seconds
    moves: int = 0
    move_times: list[float] = field(default_factory=list)  # time.monotonic() of each 2xx move
    games_started: int = 0
    games_finished: int = 0

    def record(self, kind: str, reply: Reply | None) -> None:
        status = "conn_error" if reply is None else str(reply.status)
        self.counts[f"{kind} {status}"] += 1
        if reply is not None:
            self.latencies.setdefault(kind, []).append(reply.elapsed)

    def merge(self, other: Stats) -> None:
        self.counts.update(other.counts)
        for kind, values in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(values)
        self.moves += other.moves
        self.move_times.extend(other.move_times)
        self.games_started += other.games_started
        self.games_finished += other.games_finished


@dataclass
class Ledger:
    """Per game: its token and every event a 2xx answer returned (seq -> (type, data))."""

    tokens: dict[str, str] = field(default_factory=dict)
    events: dict[str, dict[int, tuple[str, Any]]] = field(default_factory=dict)

    def add(self, game_id: str, events: list[dict[str, Any]]) -> None:
        mine = self.events.setdefault(game_id, {})
        for e in events:
            mine[int(e["seq"])] = (e["type"], e["data"])

    def merge(self, other: Ledger) -> None:
        self.tokens.update(other.tokens)
        for game_id, events in other.events.items():
            self.events.setdefault(game_id, {}).update(events)

    @property
    def acknowledged(self) -> int:
        return sum(len(v) for v in self.events.values())


def _call(client: ApiClient, stats: Stats, kind: str, method: str, path: str,
          body: Any = None, token: str | None = None) -> Reply | None:
    try:
        reply = client.call(method, path, body, token=token)
    except ConnectionFailed:
        stats.record(kind, None)
        return None
    stats.record(kind, reply)
    return reply


def play_games(port: int, *, name: str, seed: int, deadline: float, max_requests: int,
               height: int = 9, width: int = 13, difficulty: str = "easy",
               stop: threading.Event | None = None) -> tuple[Stats, Ledger]:
    """Play whole games through the API until `deadline` or `max_requests` requests."""
    client = ApiClient(port)
    stats, ledger = Stats(), Ledger()
    budget = max_requests
    game_no = 0

    def go_on() -> bool:
        return budget > 0 and time.monotonic() < deadline and not (stop and stop.is_set())

    try:
        while go_on():
            budget -= 1
            game_no += 1
            created = _call(client, stats, "create", "POST", "/api/games", {
                "player_name": f"{name} #{game_no}", "difficulty": difficulty,
                "height": height, "width": width, "seed": seed * 10_000 + game_no,
            })
            if created is None or created.status != 201:
                time.sleep(0.05)  # server down (crash test) or refusing: do not spin
                continue
            stats.games_started += 1
            game_id, token = created.data["game_id"], created.data["token"]
            ledger.tokens[game_id] = token
            ledger.add(game_id, created.data["events"])
            state = created.data["state"]
            version, over = int(state["version"]), bool(state["over"])
            base = f"/api/games/{game_id}"
            while not over and go_on():
                budget -= 2
                hint = _call(client, stats, "hint", "GET", f"{base}/hint")
                if hint is None or hint.status != 200:
                    time.sleep(0.05 if hint is None else 0)
                    refreshed = _call(client, stats, "get", "GET", base)
                    if refreshed is not None and refreshed.status == 200:
                        version = int(refreshed.data["state"]["version"])
                        over = bool(refreshed.data["state"]["over"])
                    continue
                action = hint.data["action"]
                if action == "line":
                    path, body = f"{base}/lines", {"x": hint.data["x"], "y": hint.data["y"],
                                                   "expected_version": version}
                else:
                    path, body = f"{base}/advance", {"expected_version": version}
                moved = _call(client, stats, action, "POST", path, body, token)
                if moved is not None and 200 <= moved.status < 300:
                    stats.moves += 1
                    stats.move_times.append(time.monotonic())
                    ledger.add(game_id, moved.data["events"])
                    version = int(moved.data["state"]["version"])
                    over = bool(moved.data["state"]["over"])
                    if over:
                        stats.games_finished += 1
                elif moved is None or moved.status >= 400:
                    # unknown outcome (connection lost) or refused: re-read the game
                    time.sleep(0.05 if moved is None else 0)
                    refreshed = _call(client, stats, "get", "GET", base)
                    if refreshed is not None and refreshed.status == 200:
                        version = int(refreshed.data["state"]["version"])
                        over = bool(refreshed.data["state"]["over"])
    finally:
        client.close()
    return stats, ledger


def hit_healthz(port: int, *, deadline: float, max_requests: int) -> Stats:
    client = ApiClient(port)
    stats = Stats()
    try:
        for _ in range(max_requests):
            if time.monotonic() >= deadline:
                break
            _call(client, stats, "healthz", "GET", "/healthz")
    finally:
        client.close()
    return stats


@dataclass
class PhaseResult:
    stats: Stats
    ledger: Ledger
    elapsed: float
    client_cpu: float = 0.0  # CPU seconds the client process used
    server_cpu: float = 0.0  # CPU seconds the gunicorn processes used (set by the caller)
    machine_cpu: float = 0.0  # CPU seconds every process on the machine used (the caller)
    wall: float = 0.0  # seconds the caller measured around the phase (>= elapsed)

    @property
    def others_cores(self) -> float:
        """Cores used by other processes meanwhile (a shared machine's noise)."""
        if not self.wall:
            return float("nan")
        return max(0.0, self.machine_cpu - self.server_cpu - self.client_cpu) / self.wall


def run_clients(port: int, *, clients: int, seconds: float, phase: str = "play",
                max_requests: int = 100_000, height: int = 9, width: int = 13,
                difficulty: str = "easy", seed: int = 1,
                stop: threading.Event | None = None) -> PhaseResult:
    """`clients` threads in this process: each plays games (or hits /healthz)."""
    results: list[tuple[Stats, Ledger]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)
    timing: dict[str, float] = {}

    def worker(index: int) -> None:
        barrier.wait(timeout=60)
        deadline = timing["deadline"]
        if phase == "play":
            result = play_games(port, name=f"load {index}", seed=seed * 1000 + index,
                                deadline=deadline, max_requests=max_requests,
                                height=height, width=width, difficulty=difficulty, stop=stop)
        else:
            result = (hit_healthz(port, deadline=deadline, max_requests=max_requests),
                      Ledger())
        with lock:
            results.append(result)

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    timing["deadline"] = time.monotonic() + seconds
    started = time.monotonic()
    cpu_started = time.process_time()
    barrier.wait(timeout=60)
    for t in threads:
        t.join(timeout=seconds + 120)
    elapsed = time.monotonic() - started
    client_cpu = time.process_time() - cpu_started
    stats, ledger = Stats(), Ledger()
    for s, g in results:
        stats.merge(s)
        ledger.merge(g)
    if len(results) != clients:
        stats.counts["client_thread_lost"] += clients - len(results)
    return PhaseResult(stats, ledger, elapsed, client_cpu)


def in_subprocess(fn: Callable[..., Any], /, **kwargs: Any) -> Any:
    """Run `fn(**kwargs)` in a second process (fork) and return its result."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)

    def target() -> None:
        try:
            child.send(("ok", fn(**kwargs)))
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            child.send(("error", repr(exc)))
        finally:
            child.close()

    proc = ctx.Process(target=target, daemon=True)
    proc.start()
    child.close()
    timeout = float(kwargs.get("seconds", 60)) + 180
    try:
        if not parent.poll(timeout):
            raise RuntimeError("the load process did not answer in time")
        kind, value = parent.recv()
    finally:
        proc.join(timeout=30)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=10)
    if kind != "ok":
        raise RuntimeError(f"the load process failed: {value}")
    return value


# -- checks and figures -----------------------------------------------------------------


def missing_acknowledged(port: int, ledger: Ledger, *, max_requests: int = 100_000) -> list[str]:
    """Every acknowledged event must be stored unchanged; returns the problems found."""
    client = ApiClient(port)
    problems: list[str] = []
    try:
        for count, (game_id, acked) in enumerate(sorted(ledger.events.items())):
            if count >= max_requests:
                problems.append("too many games to check")
                break
            reply = client.call("GET", f"/api/games/{game_id}/events")
            if reply.status != 200:
                problems.append(f"{game_id}: GET events answered {reply.status}")
                continue
            stored = {int(e["seq"]): (e["type"], e["data"]) for e in reply.data["events"]}
            seqs = sorted(stored)
            if seqs != list(range(1, len(seqs) + 1)):
                problems.append(f"{game_id}: stored seqs are not 1..n: {seqs}")
            for seq, event in sorted(acked.items()):
                if seq not in stored:
                    problems.append(f"{game_id}: acknowledged event {seq} is not stored")
                elif stored[seq] != event:
                    problems.append(f"{game_id}: event {seq} differs from the acknowledged one")
    finally:
        client.close()
    return problems


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def count_5xx(stats: Stats) -> int:
    return sum(n for key, n in stats.counts.items() if key.split()[-1].startswith("5"))


def count_conn_errors(stats: Stats) -> int:
    return sum(n for key, n in stats.counts.items() if key.endswith("conn_error"))


def report(play: PhaseResult, health: PhaseResult, peaks_kb: dict[int, int], *,
           database: str, clients: int, workers: int, threads: int,
           lost: list[str], figures: _results.Figures | None = None) -> list[str]:
    """Print the figures (and add them to `figures`); return the correctness failures."""
    moves_s = play.stats.moves / play.elapsed
    move_lat = [v for k in MOVE_KINDS for v in play.stats.latencies.get(k, [])]
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
    print(f"\n== Squares load: {database}, gunicorn {workers} workers x {shown_threads} threads, "
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
        log = Path(tmp) / "gunicorn.log"
        if args.postgres:
            from scripts.throwaway_postgres import throwaway_postgres

            with throwaway_postgres() as url:
                if url is None:
                    print("PostgreSQL server binaries not found", file=sys.stderr)
                    return 2
                return run_against(url, "PostgreSQL (throwaway cluster)", log, args)
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        sync = os.environ.get("SQUARES_SQLITE_SYNCHRONOUS", "FULL")
        return run_against(url, f"SQLite (synchronous={sync})", log, args)


def print_profile(directory: Path, clock: str, lines: int = 30) -> None:
    """The workers' cProfile stats (see `_server.profiled_app`), summed."""
    import pstats

    files = sorted(directory.glob("worker-*.prof"))
    if not files:
        print(f"no profiles were written to {directory} (did the workers exit cleanly?)")
        return
    stats = pstats.Stats(*(str(f) for f in files), stream=sys.stdout)
    stats.strip_dirs()
    print(f"\n== server profile: {len(files)} worker(s), both phases, {clock} clock "
          f"(files in {directory}) ==")
    stats.sort_stats("cumulative").print_stats(lines)
    stats.sort_stats("tottime").print_stats(lines)


def run_against(url: str, database: str, log: Path, args: argparse.Namespace) -> int:
    app, env = args.app, {}
    if args.profile is not None:
        app, env = PROFILED_APP, {PROFILE_DIR_ENV: str(Path(args.profile).resolve()),
                                  PROFILE_CLOCK_ENV: args.profile_clock}
    try:
        return drive(url, database, log, args, app, env)
    finally:
        if args.profile is not None:
            print_profile(Path(args.profile), args.profile_clock)


def machine_cpu_seconds() -> float:
    """CPU seconds used by every process since boot (the first line of /proc/stat)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def measured(server: Server, fn: Callable[..., PhaseResult], /, **kwargs: Any) -> PhaseResult:
    """`fn(**kwargs)` in a second process, with the server's and the machine's CPU use."""
    server_cpu, machine_cpu = server.cpu_seconds(), machine_cpu_seconds()
    started = time.monotonic()
    result: PhaseResult = in_subprocess(fn, **kwargs)
    result.wall = time.monotonic() - started
    result.server_cpu = server.cpu_seconds() - server_cpu
    result.machine_cpu = machine_cpu_seconds() - machine_cpu
    return result


def drive(url: str, database: str, log: Path, args: argparse.Namespace, app: str | None,
          env: dict[str, str]) -> int:
    if args.threads:
        env = {**env, "SQUARES_THREADS": str(args.threads)}
    with running_server(url, log_path=log, workers=args.workers, app=app,
                        env=env) as server:
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
            "workers": args.workers, "threads": args.threads, "app": args.app,
            "profiled": args.profile is not None})
        if failures:
            print("\nCORRECTNESS FAILURES:\n  " + "\n  ".join(failures))
            print("gunicorn log tail:\n" + server.log_tail())
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
    parser.add_argument("--app", default=None,
                        help="a WSGI app for plain gunicorn instead of squares serve's "
                             "server (default: that server)")
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
        args.clients, args.seconds = min(args.clients, 8), min(args.seconds, 3.0)
    if args.healthz_seconds is None:
        args.healthz_seconds = max(2.0, min(5.0, args.seconds / 4))
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
