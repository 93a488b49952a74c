"""Many API clients playing whole games against a server, and what they saw.

`play_games` is one client: it creates games (9 x 13, easy) and plays each to its end
by the hint endpoint (``GET .../hint`` with the token, then ``POST .../lines`` or ``.../advance``
with ``expected_version`` and the token), re-reading the game after a refused or
lost move, until a deadline (and, if asked, to the end of the game in play), a
request budget or `stop`. `run_clients` runs many of them in threads (or bare
``GET /healthz`` clients). `Stats` counts every answer by
kind and status with its latency; `Ledger` keeps every event a 2xx answer
acknowledged, and `missing_acknowledged` checks afterwards that the store holds
each of them unchanged. Used by ``benchmarks/load.py`` and ``benchmarks/review.py``
and by the reliability tests.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from squares_testing.client import ApiClient, ConnectionFailed, Reply

MOVE_KINDS = ("line", "advance")  # the request kinds that are moves
FINISH_S = 120.0  # the longest a client plays on past its deadline to end its game


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

    def move_latencies(self) -> list[float]:
        return [v for kind in MOVE_KINDS for v in self.latencies.get(kind, [])]

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
               stop: threading.Event | None = None,
               finish: bool = False) -> tuple[Stats, Ledger]:
    """Play whole games through the API until `deadline` or `max_requests` requests.
    With `finish`, the game in play at the deadline is played to its end (no new one
    starts; `max_requests`, `stop` and `FINISH_S` more seconds still bound it), so
    that the games end however slowly the machine answers."""
    client = ApiClient(port)
    stats, ledger = Stats(), Ledger()
    budget = max_requests
    game_no = 0

    def go_on(until: float = deadline) -> bool:
        return budget > 0 and time.monotonic() < until and not (stop and stop.is_set())

    game_until = deadline + FINISH_S if finish else deadline

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
            while not over and go_on(game_until):
                budget -= 2
                hint = _call(client, stats, "hint", "GET", f"{base}/hint", token=token)
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
    server_cpu: float = 0.0  # CPU seconds the server processes used (set by the caller)
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
                stop: threading.Event | None = None, finish: bool = False) -> PhaseResult:
    """`clients` threads in this process: each plays games (or hits /healthz); with
    `finish`, each plays the game it has going at the end to its end (`play_games`)."""
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
                                height=height, width=width, difficulty=difficulty, stop=stop,
                                finish=finish)
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
        t.join(timeout=seconds + 120 + (FINISH_S if finish else 0))
    elapsed = time.monotonic() - started
    client_cpu = time.process_time() - cpu_started
    stats, ledger = Stats(), Ledger()
    for s, g in results:
        stats.merge(s)
        ledger.merge(g)
    if len(results) != clients:
        stats.counts["client_thread_lost"] += clients - len(results)
    return PhaseResult(stats, ledger, elapsed, client_cpu)


# -- checks -------------------------------------------------------------------------


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


def count_5xx(counts: Stats | Mapping[str, int]) -> int:
    """The 5xx answers among counts by "kind status" (a `Stats`' or the like)."""
    found = counts.counts if isinstance(counts, Stats) else counts
    return sum(n for key, n in found.items() if key.split()[-1].startswith("5"))


def count_conn_errors(counts: Stats | Mapping[str, int]) -> int:
    """The requests without an answer among counts by "kind status"."""
    found = counts.counts if isinstance(counts, Stats) else counts
    return sum(n for key, n in found.items() if key.endswith("conn_error"))
