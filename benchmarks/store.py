"""Event store speed on this disk (prints figures, asserts nothing).

In one run:
1. raw SQLite transactional inserts/s: plain ``sqlite3``, one row per transaction,
   into the store's own ``events`` table (same DDL), the store's pragmas (WAL, foreign_keys, busy_timeout, the same ``synchronous``);
2. events appended/s through `EventStore.append` (one event per transaction:
   games row locked and checked, event inserted, games row updated, commit);
3. their ratio (target >= 45%), and the CPU an append costs this process;
4. the median time to load + fold a stored finished game with the snapshot cache
   cleared (target < 10 ms), and with a warm cache for comparison.

``--postgres``: 2 and 4 on a throwaway local PostgreSQL cluster (an append there is
one statement outside a transaction, `service/store/pg_append.py`), no raw part.

Usage: ``.venv/bin/python benchmarks/store.py [--events N] [--synchronous FULL|NORMAL]
[--dir DIR] [--postgres] [--json PATH]``; ``--quick``: 200 events, 10 repeats
(seconds). The SQLite files go to a temp dir under ``instance/`` (the disk the default
database lives on) and are removed afterwards.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from service.domain.commands import NewGame
from service.domain.events import Event
from service.domain.fold import apply_all, fold
from service.domain.state import GameState
from service.ops.settings import INSTANCE_DIR, Settings
from service.store import SQLITE_BUSY_TIMEOUT_MS, EventStore, make_engine, migrate
from squares_testing import results as _results
from squares_testing.greedy import Greedy
from squares_testing.play import play_out


class RawSqlite:
    """Plain sqlite3, one row per transaction, the store's pragmas."""

    PAYLOAD = '{"seat":1,"x":5,"y":4,"stage":1,"squares":[[5,3,"P"]],"penalty":0}'

    def __init__(self, path: Path, synchronous: str, ddl: str) -> None:
        self.conn = sqlite3.connect(path, isolation_level=None)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA foreign_keys=ON")
        self.conn.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        self.conn.execute(f"PRAGMA synchronous={synchronous}")
        self.conn.execute(ddl)  # the store's own events table, as migrated
        self.seq = 0

    def insert(self, n: int) -> float:
        """Seconds for `n` single-row transactions."""
        conn = self.conn
        start = time.perf_counter()
        for _ in range(n):
            self.seq += 1
            conn.execute("BEGIN")
            conn.execute(  # the position: the seq (one stream), no counter to update
                "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                ("g", self.seq, "line_placed", 1, self.PAYLOAD, "2026-11-22 23:00:00.000000",
                 self.seq),
            )
            conn.execute("COMMIT")
        return time.perf_counter() - start


def finished_game(seed: int) -> list[Event]:
    command = NewGame(seed=seed, player_name="Bench", mode="computer_vs_computer")
    return play_out(command, Greedy())[0]


def prepared_appends(n: int) -> list[tuple[list[Event], list[GameState]]]:
    """Enough finished games for `n` single-event appends, with each state after."""
    games = []
    total = 0
    seed = 1
    while total < n:
        events = finished_game(seed)
        states = [fold(events[:1])]
        for event in events[1:]:
            states.append(apply_all(states[-1], [event]))
        games.append((events, states))
        total += len(events) - 1
        seed += 1
    return games


class StoreAppends:
    """`EventStore.append`, one event per transaction, through prepared games."""

    def __init__(self, store: EventStore,
                 games: list[tuple[list[Event], list[GameState]]]) -> None:
        self.store = store
        self.pending: list[tuple[str, Event, GameState, GameState]] = []
        for events, states in games:
            game_id = uuid.uuid4().hex
            store.add_game(game_id, events[:1], states[0], token_hash="x", token_salt="00")
            self.pending += [
                (game_id, events[i], states[i - 1], states[i]) for i in range(1, len(events))
            ]
        self.pending.reverse()

    def append(self, n: int) -> tuple[float, float]:
        """Seconds for `n` appends: on the clock, and of this process's CPU."""
        batch = [self.pending.pop() for _ in range(n)]
        append = self.store.append
        start, cpu = time.perf_counter(), time.process_time()
        for game_id, event, before, after in batch:
            append(game_id, before.version, [event], after)
        return time.perf_counter() - start, time.process_time() - cpu


def load_and_fold_ms(store: EventStore, game_id: str, repeats: int, cold: bool) -> float:
    times = []
    store.load_state(game_id)
    for _ in range(repeats):
        if cold:
            store.snapshots.clear()
        start = time.perf_counter()
        store.load_state(game_id)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=None, help="appends (2000)")
    parser.add_argument("--synchronous", default=None,
                        help="SQLite synchronous mode (default: the store's, FULL)")
    parser.add_argument("--dir", default=str(INSTANCE_DIR))
    parser.add_argument("--postgres", action="store_true",
                        help="the store on a throwaway local PostgreSQL (no raw part)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="loads of the finished game (50)")
    _results.add_run_options(parser, quick="seconds: 200 events, 10 repeats")
    args = parser.parse_args()
    _results.fill_defaults(args, events=(2000, 200), repeats=(50, 10))
    if args.postgres:
        from squares_testing.throwaway_postgres import throwaway_postgres

        with throwaway_postgres() as url:
            if url is None:
                print("PostgreSQL server binaries not found", file=sys.stderr)
                return 2
            return run_postgres(url, args)
    return run_sqlite(args)


def run_sqlite(args: argparse.Namespace) -> int:
    synchronous = Settings.from_env(
        **({"SQUARES_SQLITE_SYNCHRONOUS": args.synchronous.upper()} if args.synchronous
           else {})).sqlite_synchronous
    Path(args.dir).mkdir(parents=True, exist_ok=True)
    workdir = Path(tempfile.mkdtemp(prefix="bench-store-", dir=args.dir))
    try:
        games = prepared_appends(args.events)
        url = f"sqlite:///{workdir / 'store.db'}"
        migrate(url)
        with sqlite3.connect(workdir / "store.db") as conn:
            ddl = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()[0]
        raw = RawSqlite(workdir / "raw.db", synchronous, ddl)
        store = EventStore(make_engine(url, synchronous=synchronous))
        appends = StoreAppends(store, games)
        # Interleaved in chunks, so that a busy machine slows both sides alike.
        chunk = 100
        raw_seconds = store_seconds = store_cpu = 0.0
        done = 0
        while done < args.events:
            n = min(chunk, args.events - done)
            raw_seconds += raw.insert(n)
            seconds, cpu = appends.append(n)
            store_seconds, store_cpu = store_seconds + seconds, store_cpu + cpu
            done += n
        raw.conn.close()
        raw_rate = args.events / raw_seconds
        through_store = args.events / store_seconds
        cold, warm, length = load_figures(store, games, args.repeats)
        store.dispose()

        print(f"SQLite synchronous={synchronous}, WAL, {args.events} transactions, on {args.dir}")
        print(f"raw sqlite3 inserts (1 row/transaction):  {raw_rate:8.0f} /s")
        figures = {"raw sqlite3 inserts": _results.figure(raw_rate, "transactions/s")}
        figures.update(append_figures(through_store, store_cpu / args.events))
        print(f"ratio store/raw:                          {through_store / raw_rate:8.0%}  "
              "(target >= 45%)")
        figures["ratio store/raw"] = _results.figure(through_store / raw_rate * 100, "%",
                                                     ">= 45%")
        figures.update(print_load_figures(cold, warm, length))
        _results.save("store", figures, args,
                      details={"synchronous": synchronous, "events": args.events})
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


def run_postgres(url: str, args: argparse.Namespace) -> int:
    migrate(url)
    store = EventStore.from_url(url)
    games = prepared_appends(args.events)
    appends = StoreAppends(store, games)
    seconds, cpu = appends.append(args.events)
    cold, warm, length = load_figures(store, games, args.repeats)
    store.dispose()
    print(f"PostgreSQL (throwaway cluster), {args.events} transactions")
    figures = append_figures(args.events / seconds, cpu / args.events)
    figures.update(print_load_figures(cold, warm, length))
    _results.save("store", figures, args,
                  details={"database": "postgresql", "events": args.events})
    return 0


def append_figures(rate: float, cpu_s: float) -> _results.Figures:
    """Print the appends' rate and CPU; their figures."""
    print(f"store appends (1 event/transaction):      {rate:8.0f} /s")
    print(f"store append CPU (this process):          {cpu_s * 1e6:8.0f} µs")
    return {"store appends": _results.figure(rate, "transactions/s"),
            "store append CPU": _results.figure(cpu_s * 1e6, "µs")}


def load_figures(store: EventStore, games: list[tuple[list[Event], list[GameState]]],
                 repeats: int) -> tuple[float, float, int]:
    """(cold ms, warm ms, its events) of loading a finished game stored afresh."""
    events, states = games[0]
    finished_id = uuid.uuid4().hex
    store.add_game(finished_id, events, states[-1], token_hash="x", token_salt="00")
    cold = load_and_fold_ms(store, finished_id, repeats, cold=True)
    warm = load_and_fold_ms(store, finished_id, repeats, cold=False)
    return cold, warm, len(events)


def print_load_figures(cold: float, warm: float, length: int) -> _results.Figures:
    print(f"load + fold a finished game ({length} events), cache cleared: "
          f"median {cold:.2f} ms (target < 10 ms)")
    print(f"load a finished game, snapshot cache warm:          median {warm:.2f} ms")
    return {"load + fold a finished game, cache cleared": _results.figure(cold, "ms",
                                                                          "< 10 ms"),
            "load a finished game, snapshot cache warm": _results.figure(warm, "ms")}


if __name__ == "__main__":
    sys.exit(main())
