"""Many live streams (``GET /api/games/{id}/live``) on one node while games are played.

    .venv/bin/python benchmarks/live.py                     # SQLite (a temp file)
    .venv/bin/python benchmarks/live.py --postgres          # a throwaway local PostgreSQL
    .venv/bin/python benchmarks/live.py --watchers 500 --seconds 20
    .venv/bin/python benchmarks/live.py --spectators        # streams with ?viewers=1

Starts one gunicorn node (``gthread`` workers, enough threads for every stream, the
per-address and per-process stream caps raised through ``SQUARES_LIVE_PER_CLIENT`` /
``SQUARES_LIVE_TOTAL`` since every watcher comes from 127.0.0.1), then:

1. without streams: ``GET /healthz`` and ``POST …/lines`` latency while a writer plays;
2. opens `--watchers` Server-Sent Events streams (half on one hot game, the rest spread
   over `--quiet-games` quiet ones), all read by ONE client thread (a `selectors`
   loop over raw sockets, HTTP/1.0 so there is no chunked encoding to undo), and
   notes the workers' resident memory before and after;
3. for `--seconds`: a writer plays moves on the hot game (and every `--quiet-every`-th
   move on a quiet game) while the same latency probes run again.

Prints the delivery latency from commit (the writer's answer) to the client, p50 / p99
(and from just before the request was sent), events missed or received twice by any
stream (0 expected), memory per open stream, and the probes with and without streams.
With ``--spectators`` every stream is a spectator's (``?viewers=1``): the run also
prints the viewer count each quiet game's streams saw last (summed over both workers
through the database; it should equal that game's number of streams).
Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import selectors
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._server import HOST, Server, running_server, status_kb  # noqa: E402
from benchmarks.load import ApiClient, ConnectionFailed  # noqa: E402

HEIGHT, WIDTH = 19, 33


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (f"n={len(values)} p50 {ms(percentile(values, 0.5))}  p99 "
            f"{ms(percentile(values, 0.99))}  max {ms(max(values))}")


# -- games and the writer ------------------------------------------------------------


@dataclass
class Game:
    game_id: str
    token: str
    state: dict[str, Any]
    sent: dict[int, float] = field(default_factory=dict)  # seq -> request sent
    answered: dict[int, float] = field(default_factory=dict)  # seq -> answer read

    @property
    def version(self) -> int:
        return int(self.state["version"])

    @property
    def over(self) -> bool:
        return bool(self.state["over"])


def create_game(client: ApiClient, name: str, seed: int) -> Game:
    reply = client.call("POST", "/api/games", {"player_name": name, "height": HEIGHT,
                                               "width": WIDTH, "seed": seed})
    if reply.status != 201:
        raise RuntimeError(f"creating a game: {reply.status} {reply.body[:300]!r}")
    return Game(reply.data["game_id"], reply.data["token"], reply.data["state"])


def play_one(client: ApiClient, game: Game, line_times: list[float] | None = None) -> bool:
    """One move on `game` (a line when one is legal, else advance); False when none."""
    legal = game.state.get("legal") or {}
    base = f"/api/games/{game.game_id}"
    if game.over:
        return False
    if legal.get("lines"):
        x, y = random.choice(legal["lines"])
        path, body, kind = f"{base}/lines", {"x": x, "y": y}, "line"
    elif legal.get("can_advance"):
        path, body, kind = f"{base}/advance", {}, "advance"
    else:
        reply = client.call("GET", base)
        if reply.status == 200:
            game.state = reply.data["state"]
        return False
    sent = time.monotonic()
    reply = client.call("POST", path, body, token=game.token)
    answered = time.monotonic()
    if not 200 <= reply.status < 300:
        refreshed = client.call("GET", base)
        if refreshed.status == 200:
            game.state = refreshed.data["state"]
        return False
    if kind == "line" and line_times is not None:
        line_times.append(reply.elapsed)
    for event in reply.data["events"]:
        game.sent[int(event["seq"])] = sent
        game.answered[int(event["seq"])] = answered
    game.state = reply.data["state"]
    return True


class Writer(threading.Thread):
    """Plays the hot game (and now and then a quiet one) every `interval` seconds."""

    def __init__(self, port: int, hot: Game, quiet: list[Game], *, interval: float,
                 quiet_every: int) -> None:
        super().__init__(daemon=True)
        self.client = ApiClient(port)
        self.hot, self.quiet = hot, quiet
        self.hot_games = [hot]
        self.interval, self.quiet_every = interval, quiet_every
        self.stop = threading.Event()
        self.moves = 0
        self.failures = 0
        self.line_times: list[float] = []

    def run(self) -> None:
        rng = random.Random(7)
        next_at = time.monotonic()
        while not self.stop.is_set():
            n = self.moves + self.failures + 1
            if self.hot.over:  # the viewers move on to the next game
                try:
                    self.hot = create_game(self.client, "Hot", rng.randrange(10**6))
                    self.hot_games.append(self.hot)
                except (ConnectionFailed, RuntimeError):
                    self.failures += 1
            game = (rng.choice(self.quiet) if self.quiet and self.quiet_every
                    and n % self.quiet_every == 0 else self.hot)
            try:
                if play_one(self.client, game, self.line_times):
                    self.moves += 1
                else:
                    self.failures += 1
            except ConnectionFailed:
                self.failures += 1
            next_at += self.interval
            self.stop.wait(max(0.0, next_at - time.monotonic()))
        self.client.close()


class Probe(threading.Thread):
    """``GET /healthz`` every 20 ms and ``POST …/lines`` on its own game (moving on
    with advance when no line is legal); records both latencies."""

    def __init__(self, port: int, game: Game) -> None:
        super().__init__(daemon=True)
        self.client = ApiClient(port)
        self.game = game
        self.stop = threading.Event()
        self.healthz: list[float] = []
        self.lines: list[float] = []

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                reply = self.client.call("GET", "/healthz")
                if reply.status == 200:
                    self.healthz.append(reply.elapsed)
                if not play_one(self.client, self.game, self.lines) and self.game.over:
                    self.game = create_game(self.client, "Probe", random.randrange(10**6))
            except ConnectionFailed:
                pass
            self.stop.wait(0.02)
        self.client.close()


# -- the watchers: one selectors loop over raw sockets ---------------------------------


@dataclass
class Stream:
    game_id: str
    sock: socket.socket
    buffer: bytes = b""
    headers_done: bool = False
    status: int | None = None
    arrivals: list[tuple[int, float]] = field(default_factory=list)  # (seq, time)
    closed: bool = False
    opened_at: float = field(default_factory=time.monotonic)
    last_event: bytes = b""
    viewers: int | None = None  # the last viewer count received (spectator streams)


class Watchers(threading.Thread):
    """Every stream's socket in one selector; records each event's id and arrival."""

    def __init__(self, spectators: bool = False) -> None:
        super().__init__(daemon=True)
        self.query = "?viewers=1" if spectators else ""
        self.selector = selectors.DefaultSelector()
        self.streams: list[Stream] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def open(self, port: int, game_id: str) -> Stream:
        sock = socket.create_connection((HOST, port), timeout=10)
        sock.sendall(f"GET /api/games/{game_id}/live{self.query} HTTP/1.0\r\nHost: {HOST}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        stream = Stream(game_id, sock)
        with self.lock:
            self.streams.append(stream)
            self.selector.register(sock, selectors.EVENT_READ, stream)
        return stream

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                ready = self.selector.select(timeout=0.05) if self.streams else []
            if not ready:
                if not self.streams:
                    time.sleep(0.05)
                continue
            now = time.monotonic()
            for key, _ in ready:
                self._read(key.data, now)

    def _read(self, stream: Stream, now: float) -> None:
        try:
            chunk = stream.sock.recv(262144)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            stream.closed = True
            with self.lock:
                self.selector.unregister(stream.sock)
            stream.sock.close()
            return
        data = stream.buffer + chunk
        if not stream.headers_done:
            head, sep, rest = data.partition(b"\r\n\r\n")
            if not sep:
                stream.buffer = data
                return
            stream.status = int(head.split(b" ", 2)[1])
            stream.headers_done = True
            data = rest
        *lines, stream.buffer = data.split(b"\n")
        for line in lines:
            if line.startswith(b"id:"):
                stream.arrivals.append((int(line[3:].strip()), now))
            elif line.startswith(b"event:"):
                stream.last_event = line[6:].strip()
            elif line.startswith(b"data:") and stream.last_event == b"viewers":
                stream.viewers = json.loads(line[5:])["count"]

    def close(self) -> None:
        self.stop.set()
        self.join(timeout=5)
        for stream in self.streams:
            if not stream.closed:
                stream.sock.close()


# -- the run -------------------------------------------------------------------------


def rss_kb(server: Server) -> int:
    return sum(status_kb(pid, "VmRSS") or 0 for pid in server.worker_pids())


def threads_of(server: Server) -> list[int]:
    return [status_kb(pid, "Threads") or 0 for pid in server.worker_pids()]


def measure(server: Server, args: argparse.Namespace) -> None:
    port = server.port
    client = ApiClient(port)
    hot = create_game(client, "Hot", 3)
    quiet = [create_game(client, f"Quiet {i}", 100 + i) for i in range(args.quiet_games)]
    # a few moves everywhere first, so every stream has a small backlog
    for game in [hot, *quiet]:
        for _ in range(3):
            play_one(client, game)

    # 1. without streams
    client.close()
    baseline_game = create_game(client, "Baseline", 5)
    baseline_writer = Writer(port, baseline_game, [], interval=args.interval, quiet_every=0)
    probe = Probe(port, create_game(client, "Probe", 6))
    baseline_writer.start()
    probe.start()
    time.sleep(args.baseline_seconds)
    probe.stop.set()
    baseline_writer.stop.set()
    probe.join()
    baseline_writer.join()
    base_healthz, base_lines = probe.healthz, probe.lines

    # 2. open the streams
    time.sleep(0.5)
    rss_before, threads_before = rss_kb(server), threads_of(server)
    watchers = Watchers(args.spectators)
    watchers.start()
    hot_count = args.watchers // 2
    targets = [hot] * hot_count + [quiet[i % len(quiet)] for i in range(args.watchers - hot_count)]
    opened_at = time.monotonic()
    streams = [watchers.open(port, game.game_id) for game in targets]
    by_id = {game.game_id: game for game in [hot, *quiet]}
    finished_streams: list[Stream] = []
    # every stream answered 200 and delivered its backlog
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if all(s.headers_done and len(s.arrivals) >= by_id[s.game_id].version
               for s in streams):
            break
        time.sleep(0.05)
    open_s = time.monotonic() - opened_at
    time.sleep(1.0)
    rss_after, threads_after = rss_kb(server), threads_of(server)
    statuses: dict[Any, int] = {}
    for s in streams:
        statuses[s.status] = statuses.get(s.status, 0) + 1

    # 3. play while the streams are open
    writer = Writer(port, hot, quiet, interval=args.interval, quiet_every=args.quiet_every)
    client.close()  # idle too long: gunicorn's keep-alive has closed it
    probe = Probe(port, create_game(client, "Probe 2", 8))
    started = time.monotonic()
    server_cpu, client_cpu = server.cpu_seconds(), time.process_time()
    writer.start()
    probe.start()
    reopened = 0
    while time.monotonic() - started < args.seconds:
        time.sleep(0.05)
        # streams of a finished hot game end: open them again on the new hot game
        current = writer.hot
        for i, s in enumerate(streams):
            if s.closed and s.game_id != current.game_id and by_id[s.game_id].over \
                    and current.game_id not in (s.game_id,):
                by_id.setdefault(current.game_id, current)
                finished_streams.append(s)
                streams[i] = watchers.open(port, current.game_id)
                reopened += 1
    writer.stop.set()
    probe.stop.set()
    writer.join()
    probe.join()
    played_s = time.monotonic() - started
    server_cpu = server.cpu_seconds() - server_cpu
    client_cpu = time.process_time() - client_cpu
    # refresh versions (the computer's turns) and let the last events arrive
    client.close()
    for game in by_id.values():
        reply = client.call("GET", f"/api/games/{game.game_id}")
        game.state = reply.data["state"]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if all(len(s.arrivals) >= by_id[s.game_id].version or s.closed for s in streams):
            break
        time.sleep(0.05)
    time.sleep(0.5)
    watchers.close()
    client.close()

    # figures
    from_answer: list[float] = []
    from_sent: list[float] = []
    missed = duplicated = out_of_order = 0
    for s in [*streams, *finished_streams]:
        game = by_id[s.game_id]
        seqs = [seq for seq, _ in s.arrivals]
        duplicated += len(seqs) - len(set(seqs))
        missed += len(set(range(1, game.version + 1)) - set(seqs))
        out_of_order += sum(1 for a, b in zip(seqs, seqs[1:], strict=False) if b <= a)
        for seq, at in s.arrivals:
            # events committed while this stream was open (not its backlog)
            if seq in game.answered and game.sent[seq] >= s.opened_at:
                from_answer.append(at - game.answered[seq])
                from_sent.append(at - game.sent[seq])
    hot_events = sum(1 for g in writer.hot_games for seq in g.answered
                     if g.sent[seq] >= started)
    streams_open = len(streams)
    per_stream_kb = (rss_after - rss_before) / streams_open if streams_open else 0.0

    print(f"\nstreams: {streams_open} ({hot_count} on the hot game, the rest over "
          f"{len(quiet)} quiet games); HTTP statuses {statuses}; all open with their "
          f"backlog in {open_s:.2f} s")
    print(f"writer: {writer.moves} moves in {played_s:.1f} s ({writer.failures} refused), "
          f"{hot_events} events on {len(writer.hot_games)} successive hot game(s) "
          f"({reopened} streams moved on to the next one when one ended), "
          f"{len(from_answer)} deliveries measured")
    print(f"CPU while playing: server {server_cpu / played_s:.2f} cores, this client "
          f"(writer, probes, every stream's reader) {client_cpu / played_s:.2f} cores; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"delivery, writer's answer -> client:  {summary(from_answer)}")
    print(f"delivery, request sent -> client:     {summary(from_sent)}")
    print(f"events missed: {missed}, received twice: {duplicated}, out of order: "
          f"{out_of_order} (0 expected)")
    print(f"workers' RSS: {rss_before / 1024:.1f} MB before, {rss_after / 1024:.1f} MB "
          f"with the streams open: {per_stream_kb:.1f} kB per stream "
          f"(threads per worker {threads_before} -> {threads_after})")
    print(f"GET /healthz without streams:       {summary(base_healthz)}")
    print(f"GET /healthz with streams open:     {summary(probe.healthz)}")
    print(f"POST .../lines without streams:     {summary(base_lines)}")
    print(f"POST .../lines with streams open:   {summary(probe.lines)}")
    print(f"POST .../lines by the writer (streams open): {summary(writer.line_times)}")
    if args.spectators:
        per_game: dict[str, list[Stream]] = {}
        for s in streams:
            if s.game_id in {g.game_id for g in quiet}:
                per_game.setdefault(s.game_id, []).append(s)
        right = sum(1 for group in per_game.values() for s in group if s.viewers == len(group))
        total = sum(len(group) for group in per_game.values())
        print(f"viewer counts: {right} of the quiet games' {total} streams last saw their "
              f"game's exact number of spectators (summed over the workers)")


def run_against(url: str, database: str, tmp: Path, args: argparse.Namespace) -> None:
    threads = args.threads or max(300, args.watchers + 50)
    env = {"SQUARES_LIVE_PER_CLIENT": str(args.watchers + 100),
           "SQUARES_LIVE_TOTAL": str(args.watchers + 100)}
    extra = ("--worker-class", "gthread", "--threads", str(threads))
    print(f"{database}: gunicorn -w {args.workers} --worker-class gthread --threads "
          f"{threads}, {args.watchers} watchers, {args.seconds:.0f} s of play "
          f"(a move every {args.interval * 1000:.0f} ms)")
    with running_server(url, log_path=tmp / "gunicorn.log", workers=args.workers,
                        extra_args=extra, env=env) as server:
        measure(server, args)


def run(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="squares-live-") as name:
        tmp = Path(name)
        if args.postgres:
            from scripts.throwaway_postgres import throwaway_postgres

            with throwaway_postgres() as url:
                if url is None:
                    print("PostgreSQL server binaries not found", file=sys.stderr)
                    return 2
                run_against(url, "PostgreSQL (throwaway cluster)", tmp, args)
                return 0
        sync = os.environ.get("SQUARES_SQLITE_SYNCHRONOUS", "FULL")
        run_against(f"sqlite:///{tmp / 'squares.db'}", f"SQLite (synchronous={sync})",
                    tmp, args)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true",
                        help="run on a throwaway local PostgreSQL cluster")
    parser.add_argument("--watchers", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--baseline-seconds", type=float, default=5.0)
    parser.add_argument("--quiet-games", type=int, default=50)
    parser.add_argument("--quiet-every", type=int, default=10,
                        help="every N-th writer move is on a quiet game")
    parser.add_argument("--interval", type=float, default=0.1,
                        help="seconds between the writer's moves")
    parser.add_argument("--spectators", action="store_true",
                        help="open every stream with ?viewers=1 (counted, told the count)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=0,
                        help="gthread threads per worker (default: watchers + 50, >= 300)")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
