"""The third part of `benchmarks/review.py`: how long a game waits for its review on
the shipped server while `benchmarks/load.py` runs (see that module's docstring)."""

from __future__ import annotations

import argparse
import math
import os
import statistics
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _review_games import MODE, mark, pairing

from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.projections.analyst import POLL_S
from service.projections.catch_up import reviews_pending
from service.services import Services
from squares_testing import results as _results
from squares_testing.client import ApiClient, ConnectionFailed
from squares_testing.processes import Forked, machine_cpu_seconds
from squares_testing.server import Server, running_server
from squares_testing.stats import percentile
from squares_testing.traffic import PhaseResult, count_5xx, count_conn_errors, run_clients

TARGET_LATENCY_P99_S = 10.0  # game over -> review ready, under load
POLL_ANALYSIS_S = 0.1

# -- 3. latency under load -----------------------------------------------------------------


@dataclass
class Watched:
    game_id: str
    pairing: str
    turns: int = 0
    over_at: float | None = None  # time.monotonic() when the ending answer was read
    ready_at: float | None = None  # ... when the first 200 of /analysis was read
    polls: int = 0

    @property
    def latency(self) -> float:
        if self.over_at is None or self.ready_at is None:
            return float("inf")
        return self.ready_at - self.over_at


@dataclass
class Drivers:
    """What the driver and poller threads saw (under `lock`)."""

    games: list[Watched] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)  # "kind status" -> n
    problems: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, kind: str, status: int | str) -> None:
        with self.lock:
            self.counts[f"{kind} {status}"] += 1

    def problem(self, text: str) -> None:
        with self.lock:
            self.problems.append(text)


def _call(client: ApiClient, drivers: Drivers, kind: str, method: str, path: str,
          body: Any = None, token: str | None = None, tries: int = 5) -> Any:
    """One request; 429/503 and lost connections are tried again (a while later)."""
    for attempt in range(tries):
        try:
            reply = client.call(method, path, body, token=token)
        except ConnectionFailed:
            drivers.note(kind, "conn_error")
            time.sleep(0.2 * (attempt + 1))
            continue
        drivers.note(kind, reply.status)
        if reply.status in (429, 503):
            time.sleep(0.2 * (attempt + 1))
            continue
        return reply
    return None


def wait_for_review(port: int, game: Watched, drivers: Drivers, max_wait: float) -> None:
    """Ask for the game's analysis every 0.1 s until it answers 200 (or `max_wait`)."""
    client = ApiClient(port)
    assert game.over_at is not None
    try:
        while time.monotonic() - game.over_at < max_wait:
            reply = _call(client, drivers, "analysis", "GET",
                          f"/api/games/{game.game_id}/analysis", tries=1)
            game.polls += 1
            if reply is not None and reply.status == 200:
                if reply.data.get("status") != "ready" or not reply.data.get("turns"):
                    drivers.problem(f"{game.game_id}: 200 without a review: "
                                    f"{str(reply.data)[:200]}")
                game.ready_at = time.monotonic()
                return
            if reply is not None and reply.status != 202:
                drivers.problem(f"{game.game_id}: GET analysis answered {reply.status} "
                                "after the game ended")
                return
            time.sleep(POLL_ANALYSIS_S)
        drivers.problem(f"{game.game_id}: no review {max_wait:g} s after the game ended")
    finally:
        client.close()


def drive(port: int, plan: list[tuple[int, int]], drivers: Drivers, pollers: list[threading.Thread],
          max_wait: float, deadline: float) -> None:
    """Finish the games of `plan` ((index, seed)) one after the other through the API;
    each ended game gets a poller thread of its own."""
    client = ApiClient(port, timeout=60)
    try:
        for index, seed in plan:
            if time.monotonic() > deadline:
                drivers.problem(f"the drivers ran out of time before game {index}")
                return
            level1, level2 = pairing(index)
            created = _call(client, drivers, "create", "POST", "/api/games", {
                "player_name": f"review bench {index}", "difficulty": level1, "mode": MODE,
                "second_level": level2, "seed": seed})
            if created is None or created.status != 201:
                drivers.problem(f"game {index}: POST /api/games answered "
                                f"{None if created is None else created.status}")
                continue
            game_id, token = created.data["game_id"], created.data["token"]
            game = Watched(game_id, f"{level1}/{level2}")
            with drivers.lock:
                drivers.games.append(game)
            base = f"/api/games/{game_id}"
            running = _call(client, drivers, "analysis (running)", "GET", f"{base}/analysis")
            if running is None or running.status != 409:
                drivers.problem(f"{game_id}: GET analysis while running answered "
                                f"{None if running is None else running.status}, not 409")
            over = bool(created.data["state"]["over"])
            while not over and game.turns < 1000 and time.monotonic() < deadline:
                moved = _call(client, drivers, "computer-turn", "POST", f"{base}/computer-turn",
                              token=token)
                if moved is None or moved.status != 200:
                    # a lost answer may have played the turn: read the game again
                    got = _call(client, drivers, "get", "GET", base)
                    if got is None or got.status != 200:
                        break
                    over = bool(got.data["state"]["over"])
                    if over:  # the ending answer was lost: time from this one
                        game.over_at = time.monotonic()
                    continue
                game.turns += 1
                over = bool(moved.data["state"]["over"])
                if over:
                    game.over_at = time.monotonic()
            if not over or game.over_at is None:
                drivers.problem(f"{game_id}: not finished ({game.turns} computer turns)")
                continue
            poller = threading.Thread(target=wait_for_review,
                                      args=(port, game, drivers, max_wait), daemon=True)
            with drivers.lock:
                pollers.append(poller)
            poller.start()
    finally:
        client.close()


def _load(port: int, clients: int, seconds: float, stop: Any) -> tuple[PhaseResult, float, float]:
    """In the load process: the load's clients (`traffic.run_clients`) until `stop`."""
    started = time.monotonic()
    result = run_clients(port, clients=clients, seconds=seconds, phase="play", stop=stop)
    ended = time.monotonic()
    result.ledger.events.clear()  # not checked here: no need to send it back
    result.stats.move_times.clear()
    return result, started, ended


@dataclass
class LoadProcess:
    """The load's clients in a second process (forked before any thread here starts)."""

    forked: Forked
    stop: Any
    seconds: float

    @classmethod
    def start(cls, port: int, clients: int, seconds: float) -> LoadProcess:
        stop = Forked.event()
        forked = Forked(_load, port=port, clients=clients, seconds=seconds, stop=stop)
        return cls(forked, stop, seconds)

    def finish(self) -> tuple[PhaseResult, float, float]:
        self.stop.set()
        result: tuple[PhaseResult, float, float] = self.forked.result(self.seconds + 180)
        return result


def analyst_tally(url: str) -> tuple[int, int]:
    """(reviews stored, games ended and not yet reviewed) in the server's database."""
    services = Services.from_url(url)
    try:
        with services.store.unit_of_work(write=False) as uow:
            stored = uow.reviews.count()
        return stored, reviews_pending(services.store)
    finally:
        services.store.dispose()


def measure_latency(args: argparse.Namespace, figures: _results.Figures,
                    failures: list[str]) -> dict[str, Any]:
    print(f"\n== 3. Latency under load: squares serve (2 app workers, the analyst "
          f"process, poll {POLL_S:g} s) on a fresh SQLite file; load.py's {args.clients} "
          f"clients on 9 x 13 meanwhile; {args.server_games} {DEFAULT_HEIGHT} x "
          f"{DEFAULT_WIDTH} computer-vs-computer games finished by {args.drivers} "
          f"drivers; analysis polled every {POLL_ANALYSIS_S:g} s ==")
    with tempfile.TemporaryDirectory(prefix="squares-review-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        log = Path(tmp) / "server.log"
        # SQUARES_ANALYST=1 is the default; set here only so that a 0 in this shell
        # cannot turn the thing measured off.
        with running_server(url, log_path=log, env={"SQUARES_ANALYST": "1"}) as server:
            result = run_phase(server, args, failures)
            stored, pending = analyst_tally(url)
            server_log = log.read_text(errors="replace") if log.exists() else ""
            if failures:
                print("server log tail:\n" + server.log_tail(2000))
    analyst_errors = sum(1 for line in server_log.splitlines()
                         if "analyst step failed" in line or " not reviewed" in line)
    drivers, load, load_started, load_ended, server_cpu, machine_cpu, wall = result
    games = drivers.games
    latencies = [g.latency for g in games if g.over_at is not None]
    ready = [v for v in latencies if math.isfinite(v)]
    under_load = sum(1 for g in games if g.over_at is not None
                     and load_started <= g.over_at <= load_ended)
    p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
    worst = max(latencies, default=float("nan"))
    ok = math.isfinite(p99) and p99 < TARGET_LATENCY_P99_S
    load_moves = load.stats.moves / load.elapsed if load.elapsed else float("nan")
    move_lat = load.stats.move_latencies()
    fives = count_5xx(load.stats) + count_5xx(drivers.counts)
    conn_errors = count_conn_errors(load.stats) + count_conn_errors(drivers.counts)
    print(f"load: {load.elapsed:.1f} s, {load.stats.games_finished} 9 x 13 games finished, "
          f"{load_moves:.0f} moves/s, move latency p50 / p99 "
          f"{percentile(move_lat, 50) * 1000:.0f} / {percentile(move_lat, 99) * 1000:.0f} ms")
    print(f"server CPU {server_cpu / wall:.2f} cores, every process on the machine "
          f"{machine_cpu / wall:.2f} of {os.cpu_count()} cores, over {wall:.1f} s")
    print(f"{'pairing':<20}{'games':>6}{'turns':>7}{'p50 s':>8}{'max s':>8}")
    groups = {name: [g for g in games if g.pairing == name]
              for name in dict.fromkeys(g.pairing for g in games)}
    for name, rows in groups.items():
        lat = [g.latency for g in rows if g.over_at is not None]
        if lat:
            print(f"{name:<20}{len(rows):>6}{statistics.median(g.turns for g in rows):>7.0f}"
                  f"{percentile(lat, 50):>8.2f}{max(lat):>8.2f}")
    print(f"{'games ended (under load)':<34}{len(latencies)} of {args.server_games} "
          f"({under_load} while the load ran); reviewed in time {len(ready)}")
    print(f"{'game over -> review ready p50':<34}{p50:.2f} s")
    print(f"{'game over -> review ready p99':<34}{p99:.2f} s   target < "
          f"{TARGET_LATENCY_P99_S:g} s   {mark(ok)}")
    print(f"{'game over -> review ready max':<34}{worst:.2f} s")
    ended = load.stats.games_finished + len(latencies)
    print(f"{'analyst under load':<34}{stored} reviews stored ({stored / wall * 60:.0f}/min) "
          f"of {ended} games ended ({ended / wall * 60:.0f}/min, the load's included); "
          f"still pending at the end {pending}")
    print(f"{'analyst errors in the server log':<34}{analyst_errors}")
    print(f"{'5xx / connection errors':<34}{fives} / {conn_errors}")
    print("driver status counts (kind status: n):")
    for key, n in sorted(drivers.counts.items()):
        print(f"    {key:<32}{n:>8}")
    if fives:
        failures.append(f"{fives} answers were 5xx")
    if conn_errors:
        failures.append(f"{conn_errors} requests got no answer")
    failures.extend(drivers.problems[:20])
    figure = _results.figure
    figures |= {
        "review latency p50": figure(p50, "s"),
        "review latency p99": figure(p99, "s", f"< {TARGET_LATENCY_P99_S:g} s"),
        "review latency max": figure(worst, "s"),
        "games ended through the API": figure(len(latencies), "games"),
        "games ended while the load ran": figure(under_load, "games"),
        "reviews never ready": figure(len(latencies) - len(ready), "games", "0"),
        "load moves/s": figure(load_moves, "moves/s"),
        "load move latency p99": figure(percentile(move_lat, 99) * 1000, "ms"),
        "load games finished": figure(load.stats.games_finished, "games"),
        "reviews stored": figure(stored, "reviews"),
        "analyst reviews/min under load": figure(stored / wall * 60, "games/min"),
        "games ended/min under load": figure(ended / wall * 60, "games/min"),
        "analyst errors logged": figure(analyst_errors, "lines"),
        "reviews pending at the end": figure(pending, "games"),
        "CPU use, server": figure(server_cpu / wall, "cores"),
        "5xx answers": figure(fives, "answers", "0"),
        "connection errors": figure(conn_errors, "requests", "0"),
    }
    return {"target": "game over -> review ready, under load",
            "value": f"p99 {p99:.2f} s (p50 {p50:.2f}, max {worst:.2f})",
            "goal": f"p99 < {TARGET_LATENCY_P99_S:g} s", "ok": ok}


def run_phase(server: Server, args: argparse.Namespace, failures: list[str]) -> tuple[Any, ...]:
    cpu0, machine0, wall0 = server.cpu_seconds(), machine_cpu_seconds(), time.monotonic()
    load = LoadProcess.start(server.port, args.clients, args.max_seconds)
    time.sleep(args.warmup)  # the load is on before the first game ends
    drivers = Drivers()
    pollers: list[threading.Thread] = []
    deadline = time.monotonic() + args.max_seconds
    plans = [[(i, args.seed + 500_000 + i) for i in range(d, args.server_games, args.drivers)]
             for d in range(args.drivers)]
    threads = [threading.Thread(target=drive, daemon=True,
                                args=(server.port, plan, drivers, pollers, args.max_wait,
                                      deadline))
               for plan in plans if plan]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.max_seconds + 120)
        for p in list(pollers):
            p.join(timeout=args.max_wait + 30)
    finally:
        load_result, started, ended = load.finish()
    wall = time.monotonic() - wall0
    if any(t.is_alive() for t in threads):
        failures.append("a driver thread did not finish")
    return (drivers, load_result, started, ended, server.cpu_seconds() - cpu0,
            machine_cpu_seconds() - machine0, wall)


# -- the run ---------------------------------------------------------------------------


