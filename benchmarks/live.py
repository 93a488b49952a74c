"""Many live streams (``GET /api/games/{id}/live``) on one node while games are played.

    .venv/bin/python benchmarks/live.py --watchers 5000     # SQLite (a temp file)
    .venv/bin/python benchmarks/live.py --postgres          # a throwaway local PostgreSQL
    .venv/bin/python benchmarks/live.py --quick             # 200 watchers, 1.5 s: a smoke run
    .venv/bin/python benchmarks/live.py --spectators        # streams with ?viewers=1
    .venv/bin/python benchmarks/live.py --server-command C  # C, not squares serve: comparisons only

Starts the server as shipped: ``squares serve --port <free port>`` and no other flag,
in its own process group (SIGTERM, then SIGKILL at exit), with this environment less
every ``SQUARES_*``, ``GUNICORN_CMD_ARGS`` and ``WEB_CONCURRENCY``, plus
``DATABASE_URL`` (``squares serve`` migrates it). The rate limits stay on: each HTTP
client here has its own loopback source address (127.20.x.y), a new one before any
per-address limit could refuse it. Then:

1. without streams, `--baseline-seconds`: ``GET /healthz`` and ``POST …/lines`` latency
   (a probe) while a writer moves every `--interval` s;
2. opens `--watchers` streams, `--hot-share` on one hot game (41 x 81, so that it
   lasts the whole run), the rest (19 x 33) over
   `--quiet-games` quiet ones, all read by ONE process (`benchmarks/_sse_clients.py`:
   epoll over raw sockets, 4 streams per source address 127.10.x.y, at most
   `--open-concurrency` opening at once, "no answer" after `--open-timeout` s); the
   workers' RSS before and after (the writer and the probe: `_live_players.py`);
3. `--seconds`: the writer moves on the hot game (every `--quiet-every`-th move on a
   quiet one; when the hot game ends its streams follow the next) while the probe runs
   again; then at most `--drain-seconds` for the last events.

Prints a table, each figure next to its target: the streams' answers (200 / 429 /
503 / no_answer / error) and how many are held open; delivery from the writer's answer
(the commit acknowledged) to each client, p50 / p99 / max; events missed or received
twice; the workers' RSS per open stream; ``/healthz`` and ``POST …/lines`` p50 / p99
without and with the streams; the server's CPU (master + workers) while playing; with
``--spectators``, whether each quiet game's streams see their exact viewer count. A
full run (not ``--quick``) writes the figures to ``build/benchmarks/live-<UTC
time>.json`` (or ``--json PATH``, also with ``--quick``; the measurements as they were
before under ``details``). Every phase is bounded in time; asserts
nothing: exit 0 once the figures are printed, 1 when the server did not start.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _live_players import (
    HOT_SIZE,
    BoundClient,
    Player,
    create_game,
    play,
    play_one,
)
from _sse_clients import PENDING, StreamProcess, raise_nofile, stream_figures

from squares_testing import results as _results
from squares_testing.client import ConnectionFailed
from squares_testing.processes import child_pids, cpu_seconds, descendants, status_kb
from squares_testing.server import Server, launch, squares_command
from squares_testing.stats import percentile

QUICK = {"watchers": 200, "seconds": 1.5, "baseline_seconds": 0.75, "quiet_games": 10,
         "open_timeout": 5.0, "drain_seconds": 2.0, "request_timeout": 2.0}
FULL = {"watchers": 5000, "seconds": 20.0, "baseline_seconds": 5.0, "quiet_games": 200,
        "open_timeout": 10.0, "drain_seconds": 10.0, "request_timeout": 5.0}


def dist_ms(values: list[float]) -> dict[str, Any]:
    stats = {"p50": 50, "p99": 99, "max": 100}
    return {"n": len(values), **{k: round(1000 * percentile(values, q), 2) if values else None
                                 for k, q in stats.items()}}


# -- the server: `squares serve` as shipped --------------------------------------------


def workers(server: Server) -> list[int]:
    """The processes under the master without children of their own (squares serve:
    the app server's workers, the streams server, the analyst)."""
    return [p for p in descendants(server.master_pid) if not child_pids(p)]


def process_names(server: Server) -> str:
    """What runs under the master, e.g. ``granian x 2, service.serve.streams_server``."""
    names: list[str] = []
    for pid in workers(server):
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            words = [w for w in argv.split("\0") if w]
            names.append(words[words.index("-m") + 1] if "-m" in words else words[0])
    counted = {name: names.count(name) for name in dict.fromkeys(names)}
    return ", ".join(name if n == 1 else f"{name} x {n}" for name, n in counted.items())


def start_serve(url: str, log_path: Path, timeout: float = 60.0,
                command: str | None = None) -> Server:
    """``squares serve --port <free port>`` as shipped (or the shell line `command`,
    {port} and {database_url} filled in), once /healthz answers and no new worker
    appeared for a second."""
    tuning = [k for k in os.environ
              if k.startswith(("SQUARES_", "GUNICORN_")) or k == "WEB_CONCURRENCY"]
    env = {**{k: v for k, v in os.environ.items() if k not in tuning}, "DATABASE_URL": url}
    if tuning:
        print(f"(not passed to the server: {', '.join(sorted(tuning))})")

    def argv(port: int) -> list[str] | str:
        if command is None:
            return [*squares_command(), "serve", "--port", str(port)]
        return command.replace("{port}", str(port)).replace("{database_url}", shlex.quote(url))

    server = launch(argv, log_path=log_path, env=env, timeout=timeout, database_url=url,
                    live=command is None)
    since = started = time.monotonic()  # every worker up: a second without a new one
    while time.monotonic() - since < 1.0 and time.monotonic() - started < timeout:
        if (now := len(workers(server))) != server.workers:
            server.workers, since = now, time.monotonic()
        time.sleep(0.1)
    return server


def server_figures(server: Server) -> tuple[int, list[int], float]:
    """The workers' RSS (kB) and threads, CPU s of the master and every process under it."""
    return (sum(status_kb(p, "VmRSS") or 0 for p in workers(server)),
            [status_kb(p, "Threads") or 0 for p in workers(server)],
            sum(map(cpu_seconds, [server.master_pid, *descendants(server.master_pid)])))


# -- the run -------------------------------------------------------------------------


def wait_streams(streams: StreamProcess, seconds: float,
                 versions: dict[str, int] | None = None) -> dict[str, Any]:
    """Until no stream is opening and every open one has its events, or `seconds`:
    the last progress and when none was opening any more (``answered_s``)."""
    started, answered = time.monotonic(), None
    while True:
        progress, waited = streams.progress(versions), round(time.monotonic() - started, 2)
        pending = sum(progress["states"].get(k, 0) for k in PENDING)
        answered = answered if answered is not None or pending else waited
        if (not pending and not progress["behind"]) or waited > seconds:
            return {**progress, "answered_s": answered, "waited_s": waited}
        time.sleep(0.1)


def measure(server: Server, streams: StreamProcess, args: argparse.Namespace) -> dict[str, Any]:
    port, client = server.port, BoundClient(server.port, args.request_timeout)
    hot = create_game(client, "Game 0", 100, HOT_SIZE)
    quiet = [create_game(client, f"Game {i}", 100 + i) for i in range(1, args.quiet_games + 1)]
    for game in [hot, *quiet]:  # a small backlog for every stream
        for _ in range(3):
            play_one(client, game)
    base, probe_game, probe_game0 = (create_game(client, "Probe", i) for i in range(3))

    # 1. without streams (every game made already: a server full of streams may hang)
    writer0, probe0 = (Player(port, g, [], probe=p, args=args)
                       for g, p in ((base, False), (probe_game0, True)))
    play([writer0, probe0], args.baseline_seconds)

    # 2. open the streams
    time.sleep(0.5)
    rss_before, threads_before, _ = server_figures(server)
    hot_count = round(args.watchers * args.hot_share) if quiet else args.watchers
    spread = [quiet[i % len(quiet)] for i in range(args.watchers - hot_count)]
    streams.open([(g.game_id, g.version) for g in [hot] * hot_count + spread])
    opening = wait_streams(streams, args.open_timeout + 15 + args.watchers / 250)
    time.sleep(1.0)
    rss_after, threads_after, cpu0 = server_figures(server)

    # 3. play while the streams are open; streams of an ended hot game follow the next
    writer, probe = Player(port, hot, quiet, probe=False, args=args), Player(
        port, probe_game, [], probe=True, args=args)
    follow, reopened = [], [0]
    reader0, client0 = streams.progress()["cpu"], time.process_time()

    def check() -> None:
        ids = {g.game_id for g in writer.hot_games}
        follow.extend(gid for _, gid, over in streams.progress()["ended"] if over and gid in ids)
        if follow and not writer.hot.state["over"] and writer.hot.game_id not in follow:
            streams.open([(writer.hot.game_id, writer.hot.version)] * len(follow))
            reopened[0] += len(follow)
            follow.clear()

    played = play([writer, probe], args.seconds, check)
    server_cores = (server_figures(server)[2] - cpu0) / played
    client_cores = (time.process_time() - client0 + streams.progress()["cpu"] - reader0) / played

    # 4. the final versions (the computer's turns too), then the last events
    games = {g.game_id: g for g in [hot, *quiet, *writer.hot_games]}
    until, client = time.monotonic() + args.drain_seconds, BoundClient(port, args.drain_seconds)
    with contextlib.suppress(ConnectionFailed):
        for game in games.values():
            if time.monotonic() < until and (reply := client.call(
                    "GET", f"/api/games/{game.game_id}")).status == 200:
                game.state = reply.data["state"]
    versions = {gid: max([g.version, *g.acks]) for gid, g in games.items()}
    wait_streams(streams, args.drain_seconds, versions)
    seen = stream_figures(streams.stop(), {gid: g.acks for gid, g in games.items()},
                          versions, {g.game_id for g in quiet})
    return {
        "processes": process_names(server), "workers": server.workers,
        "watchers": args.watchers, "hot_streams": hot_count, "quiet_games": len(quiet),
        "answers": seen["answers"], "open_timeout_s": args.open_timeout,
        "opened": opening["states"].get("open", 0), "held_open": seen["open"],
        "all_answered_s": opening["answered_s"], "with_backlog_s": opening["waited_s"],
        "ended_at_game_over": seen["ended_at_game_over"], "dropped": seen["dropped"],
        "moved_to_next_hot_game": reopened[0], "delivery_ms": dist_ms(seen["delivery"]),
        **{k: seen[k] for k in ("missed", "twice", "out_of_order")},
        "rss_mb": [round(rss_before / 1024, 1), round(rss_after / 1024, 1)],
        "kb_per_stream": round((rss_after - rss_before) / opening["states"]["open"], 1)
        if opening["states"].get("open") else None, "threads": [threads_before, threads_after],
        "healthz_ms": [dist_ms(probe0.healthz), dist_ms(probe.healthz)],
        "lines_ms": [dist_ms(probe0.lines), dist_ms(probe.lines)],
        "writer_lines_ms": dist_ms(writer.lines),
        "unanswered": [writer0.unanswered + probe0.unanswered,
                       writer.unanswered + probe.unanswered],
        "writer": {"moves": writer.moves, "refused": writer.refused, "seconds": round(
            played, 1), "hot_games": len(writer.hot_games)},
        "server_cores": round(server_cores, 2), "client_cores": round(client_cores, 2),
        "load_average": os.getloadavg()[0], "cpus": os.cpu_count(),
        "viewer_counts_right": seen["viewer_counts_right"] if args.spectators else None}


def show(f: dict[str, Any], postgres: bool) -> None:
    def d(x: dict[str, Any]) -> str:
        return f"{x['p50']} / {x['p99']} ms, max {x['max']} (n={x['n']})" if x["n"] else "none"

    def ok(good: bool) -> str:
        return "ok" if good else "MISSED"

    def p99(x: dict[str, Any], most: float) -> str:
        return ok(bool(x["n"]) and x["p99"] < most)

    limit, (healthz0, healthz), (lines0, lines) = (
        250 if postgres else 350), f["healthz_ms"], f["lines_ms"]
    answers = ", ".join(f"{n} {k}" for k, n in sorted(f["answers"].items()))
    rows = [
        ("streams asked", f"{f['watchers']}: {f['hot_streams']} on the hot game, the rest "
         f"over {f['quiet_games']} quiet games", "", ""),
        ("  answers (moved streams included)", answers, "", ""),
        ("  open after opening, at the end", f"{f['opened']}, {f['held_open']}", "≥ 5,000",
         ok(f["held_open"] >= 5000) if f["watchers"] >= 5000 else "(fewer asked)"),
        ("  all answered / with backlog after", f"{f['all_answered_s']} / {f['with_backlog_s']} "
         f"s (no_answer: none in {f['open_timeout_s']:g} s)", "", ""),
        ("  ended at game over / dropped / moved on", f"{f['ended_at_game_over']} / "
         f"{f['dropped']} / {f['moved_to_next_hot_game']}", "", ""),
        ("delivery, answer -> client p50 / p99", d(f["delivery_ms"]), f"p99 < {limit} ms",
         p99(f["delivery_ms"], limit)),
        ("events missed / twice / out of order", f"{f['missed']} / {f['twice']} / "
         f"{f['out_of_order']}", "0 / 0", ok(f["missed"] == f["twice"] == 0)),
        ("workers' RSS before -> with streams", f"{f['rss_mb'][0]} -> {f['rss_mb'][1]} MB: "
         f"{f['kb_per_stream']} kB per stream", "≤ 50 kB",
         ok(f["kb_per_stream"] is not None and f["kb_per_stream"] <= 50)),
        ("  threads per worker", f"{f['threads'][0]} -> {f['threads'][1]}", "", ""),
        ("GET /healthz without streams", d(healthz0), "", ""),
        ("GET /healthz with streams", d(healthz), "p99 < 50 ms", p99(healthz, 50)),
        ("POST …/lines without streams", d(lines0), "", ""),
        ("POST …/lines with streams", d(lines), "p99 < 100 ms", p99(lines, 100)),
        ("  the writer's lines with streams", d(f["writer_lines_ms"]), "", ""),
        ("requests not answered without / with", f"{f['unanswered'][0]} / "
         f"{f['unanswered'][1]} (in {f['request_timeout_s']:g} s)", "0",
         ok(not sum(f["unanswered"]))),
        ("writer", f"{f['writer']['moves']} moves in {f['writer']['seconds']} s "
         f"({f['writer']['refused']} refused), {f['writer']['hot_games']} hot game(s)", "", ""),
        ("CPU while playing: server / client", f"{f['server_cores']} / {f['client_cores']} "
         f"cores (load {f['load_average']:.1f}, {f['cpus']} CPUs)", "", "")]
    if f["viewer_counts_right"] is not None:
        right, total = f["viewer_counts_right"]
        rows.append(("quiet streams with the exact count", f"{right} of {total}", "all",
                     ok(right == total)))
    width = max(len(r[0]) for r in rows)
    print(f"\n{f['database']}; server: {f['processes']}")
    for name, value, target, verdict in rows:
        print(f"{name:<{width}}  {value}" + (f"   [{target}: {verdict}]" if target else ""))


def flat(f: dict[str, Any], postgres: bool) -> _results.Figures:
    """The figures `show` prints, one number each, for `_results`."""
    figure = _results.figure
    found: _results.Figures = {
        "streams asked": figure(f["watchers"], "streams"),
        "streams open after opening": figure(f["opened"], "streams"),
        "streams open at the end": figure(f["held_open"], "streams", ">= 5,000"),
        "all streams answered after": figure(f["all_answered_s"], "s"),
        "events delivered": figure(f["delivery_ms"]["n"], "events"),
        "events missed": figure(f["missed"], "events", "0"),
        "events twice": figure(f["twice"], "events", "0"),
        "events out of order": figure(f["out_of_order"], "events"),
        "workers' RSS before streams": figure(f["rss_mb"][0], "MB"),
        "workers' RSS with streams": figure(f["rss_mb"][1], "MB"),
        "workers' RSS per stream": figure(f["kb_per_stream"], "kB", "<= 50 kB"),
        "writer moves": figure(f["writer"]["moves"], "moves"),
        "requests not answered without streams": figure(f["unanswered"][0], "requests", "0"),
        "requests not answered with streams": figure(f["unanswered"][1], "requests", "0"),
        "CPU while playing, server": figure(f["server_cores"], "cores"),
        "CPU while playing, client": figure(f["client_cores"], "cores"),
    }
    limit = 250 if postgres else 350
    dists = [("delivery, answer -> client", f["delivery_ms"], f"< {limit} ms"),
             ("GET /healthz without streams", f["healthz_ms"][0], None),
             ("GET /healthz with streams", f["healthz_ms"][1], "< 50 ms"),
             ("POST lines without streams", f["lines_ms"][0], None),
             ("POST lines with streams", f["lines_ms"][1], "< 100 ms"),
             ("the writer's lines with streams", f["writer_lines_ms"], None)]
    for name, dist, p99_target in dists:
        for key in ("p50", "p99", "max"):
            found[f"{name} {key}"] = figure(dist[key], "ms", p99_target if key == "p99" else None)
    if f["viewer_counts_right"] is not None:
        right, total = f["viewer_counts_right"]
        found["quiet streams with the exact viewer count"] = figure(right, "streams",
                                                                    f"all {total}")
    return found


def run(args: argparse.Namespace) -> int:
    print(f"open files: soft limit {raise_nofile()}")
    with tempfile.TemporaryDirectory(prefix="squares-live-") as tmp, \
            contextlib.ExitStack() as stack:
        url, database = f"sqlite:///{Path(tmp) / 'squares.db'}", "SQLite (a temp file)"
        if args.postgres:
            from squares_testing.throwaway_postgres import throwaway_postgres

            url, database = stack.enter_context(throwaway_postgres()), "PostgreSQL (throwaway)"
            if url is None:
                print("PostgreSQL server binaries not found", file=sys.stderr)
                return 2
        try:
            server = start_serve(url, Path(tmp) / "serve.log", command=args.server_command)
        except RuntimeError as exc:
            print(f"the server did not start: {exc}", file=sys.stderr)
            return 1
        streams = None
        try:
            shown = (args.server_command or "squares serve --port {port}").replace(
                "{port}", str(server.port))
            print(f"{database}: `{shown}`: {process_names(server)}; streams on port "
                  f"{server.live_port or server.port}; {args.watchers} watchers, "
                  f"{args.seconds:g} s", flush=True)
            streams = StreamProcess(server.live_port or server.port,  # forks: no
                                    spectators=args.spectators,
                                    open_limit=args.open_concurrency,  # thread may run yet
                                    open_timeout=args.open_timeout)
            figures = {"database": database, "request_timeout_s": args.request_timeout,
                       **measure(server, streams, args)}
        finally:
            if streams is not None:
                streams.kill()
            server.stop(grace=3.0 if args.quick else 15.0)
    show(figures, args.postgres)
    _results.save("live", flat(figures, args.postgres), args, details=figures)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add = parser.add_argument
    add("--postgres", action="store_true", help="on a throwaway local PostgreSQL cluster")
    add("--quick", action="store_true", help="a few seconds: " + ", ".join(
        f"{k.replace('_', '-')} {v:g}" for k, v in QUICK.items()))
    add("--watchers", type=int, help="streams to open (5000)")
    add("--hot-share", type=float, default=0.2, help="the hot game's share of them (0.2)")
    add("--quiet-games", type=int, help="the games the other streams follow (200)")
    add("--quiet-every", type=int, default=10, help="every N-th move on a quiet game (10)")
    add("--seconds", type=float, help="of play with the streams open (20)")
    add("--baseline-seconds", type=float, help="of play without streams (5)")
    add("--interval", type=float, default=0.1, help="between the writer's moves (0.1 s)")
    add("--open-concurrency", type=int, default=256, help="streams opening at once (256)")
    add("--open-timeout", type=float, help="no answer in this: 'no_answer' (10 s)")
    add("--drain-seconds", type=float, help="at most, for the last events (10)")
    add("--request-timeout", type=float, help="of the writer's and probe's requests (5 s)")
    add("--spectators", action="store_true", help="every stream with ?viewers=1")
    add("--server-command", help="design comparisons only: this shell command instead of "
        "`squares serve` ({port}, {database_url} filled in; run in its own process group)")
    _results.add_json_option(parser)
    args = parser.parse_args(argv)
    _results.fill_defaults(args, **{key: (FULL[key], QUICK[key]) for key in QUICK})
    signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
