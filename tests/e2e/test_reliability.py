"""Races, crashes and load against the real service: ``squares serve`` (2 app workers) on a real database.

Every test runs on SQLite (a temp file) and, when ``SQUARES_TEST_POSTGRES_URL`` is set,
on PostgreSQL (a fresh database in that cluster). Correctness is asserted (one winner
per version, nothing acknowledged is lost, no 5xx, ``squares verify --all`` passes);
speed figures are only printed (``benchmarks/load.py`` is the benchmark).
Only 127.0.0.1 is used, every loop is bounded, every server is stopped.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from squares_testing.client import ApiClient, Reply
from squares_testing.server import migrate_database, squares_command, start_server
from squares_testing.stats import percentile
from squares_testing.traffic import (
    count_5xx,
    count_conn_errors,
    missing_acknowledged,
    run_clients,
)
from tests.e2e.reliability_helpers import (
    BACKENDS,
    assert_gap_free,
    create_game,
    database,
    game_state,
    play_hint,
    served,
    stored_events,
)

pytestmark = pytest.mark.e2e

RACERS = 16
RACE_ROUNDS = 8
LOAD_CLIENTS = 8
LOAD_SECONDS = 3.0
CRASH_CLIENTS = 8


def race(port: int, token: str, moves: list[tuple[str, dict[str, Any]]]) -> list[Reply]:
    """POST every (path, body) from its own thread, all released at once by a barrier."""
    barrier = threading.Barrier(len(moves))
    replies: list[Reply | None] = [None] * len(moves)
    failures: list[str] = []

    def racer(index: int) -> None:
        client = ApiClient(port)
        try:
            path, body = moves[index]
            barrier.wait(timeout=30)
            replies[index] = client.call("POST", path, body, token=token)
        except Exception as exc:  # noqa: BLE001 - reported below
            failures.append(f"racer {index}: {exc!r}")
        finally:
            client.close()

    threads = [threading.Thread(target=racer, args=(i,), daemon=True)
               for i in range(len(moves))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not failures, failures
    assert all(r is not None for r in replies), "a racer did not finish"
    return [r for r in replies if r is not None]


def race_round(port: int, game_id: str, token: str, state: dict[str, Any],
               identical: bool) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One round: RACERS posts at the same expected version; returns the winner's answer
    (its events and the new state) after checking that every other racer got a 409."""
    base = f"/api/games/{game_id}"
    version = int(state["version"])
    legal = state["legal"]
    # every racer's move is legal at `version`
    options: list[tuple[str, dict[str, Any]]] = [
        (f"{base}/lines", {"x": x, "y": y}) for x, y in legal["lines"]
    ]
    if legal["can_advance"]:
        options.append((f"{base}/advance", {}))
    assert options, state
    if identical:  # the very same request 16 times
        options = options[:1]
    moves = [(path, {**body, "expected_version": version})
             for path, body in (options[i % len(options)] for i in range(RACERS))]
    replies = race(port, token, moves)
    winners = [r for r in replies if 200 <= r.status < 300]
    assert len(winners) == 1, [(r.status, r.body[:200]) for r in replies]
    for loser in replies:
        if loser is winners[0]:
            continue
        assert loser.status == 409, (loser.status, loser.body[:300])
        error = loser.data["error"]
        assert error["code"] == "version_conflict", error
        assert int(error["details"]["current_version"]) > version, error
    won = winners[0].data
    seqs = [e["seq"] for e in won["events"]]
    assert seqs == list(range(version + 1, version + 1 + len(seqs))), seqs
    assert won["state"]["version"] == version + len(seqs)
    return won["state"], won["events"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_rule_V3_sixteen_racers_exactly_one_winner_per_version(backend: str,
                                                               tmp_path: Path) -> None:
    """16 clients post to one game at the same expected version, RACE_ROUNDS times
    (alternately 16 different legal moves and 16 identical ones): one 2xx per version,
    15 x 409 version_conflict, and the stored stream is gap-free and holds the winners."""
    # 2 workers x 8 threads: all 16 requests are in the service at the same time
    with served(backend, tmp_path, threads=RACERS // 2) as server:
        client = ApiClient(server.port)
        games: dict[str, tuple[str, dict[str, Any], dict[int, tuple[str, Any]]]] = {}
        game_id = ""
        rounds = 0
        for _ in range(RACE_ROUNDS * 2):  # bounded: a game may end early
            if rounds == RACE_ROUNDS:
                break
            if not games or games[game_id][1]["over"]:
                game_id, token, state = create_game(client, seed=11 + len(games))
                games[game_id] = (token, state, {})
            token, state, acknowledged = games[game_id]
            state, events = race_round(server.port, game_id, token, state,
                                       identical=rounds % 2 == 1)
            acknowledged.update((e["seq"], (e["type"], e["data"])) for e in events)
            games[game_id] = (token, state, acknowledged)
            rounds += 1
        assert rounds == RACE_ROUNDS
        for game_id, (_, state, acknowledged) in games.items():
            final = game_state(client, game_id)
            events = stored_events(client, game_id)
            assert final["version"] == state["version"]
            assert_gap_free(events, int(final["version"]))
            stored = {e["seq"]: (e["type"], e["data"]) for e in events}
            for seq, event in acknowledged.items():
                assert stored[seq] == event, seq
        client.close()
        print(f"\n[{backend}] {rounds} rounds x {RACERS} racers in {len(games)} game(s): "
              f"one winner each, the rest 409, streams gap-free")


@pytest.mark.parametrize("backend", BACKENDS)
def test_short_load_no_5xx_and_nothing_acknowledged_lost(backend: str, tmp_path: Path) -> None:
    with served(backend, tmp_path) as server:
        # the games in play at the end are played to their end: games end (and are
        # checked) however slowly a busy machine answers
        result = run_clients(server.port, clients=LOAD_CLIENTS, seconds=LOAD_SECONDS,
                             max_requests=5_000, finish=True)
        stats = result.stats
        statuses = {key: n for key, n in stats.counts.items()}
        move_latencies = stats.latencies.get("line", []) + stats.latencies.get("advance", [])
        print(f"\n[{backend}] {LOAD_CLIENTS} clients, {result.elapsed:.1f} s: "
              f"{stats.moves} moves ({stats.moves / result.elapsed:.0f}/s, shared machine), "
              f"move p99 {percentile(move_latencies, 99) * 1000:.0f} ms, "
              f"{stats.games_finished} games finished; {statuses}")
        assert stats.moves > 0
        assert stats.games_finished > 0
        assert count_5xx(stats) == 0, statuses
        # every client plays its own game: nothing but 2xx is expected at all
        bad = {k: n for k, n in statuses.items() if not k.split()[-1].startswith("2")}
        assert bad == {}, bad
        assert missing_acknowledged(server.port, result.ledger) == []


def run_verify(url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run([*squares_command(), "verify", "--all"], env=env,
                          capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])


@pytest.mark.parametrize("backend", BACKENDS)
def test_crash_kill9_worker_then_master_loses_no_acknowledged_move(backend: str,
                                                                   tmp_path: Path) -> None:
    """Load; kill -9 a worker; kill -9 the master (and its workers); restart; all there."""
    log = tmp_path / "serve.log"
    with database(backend, tmp_path) as url:
        migrate_database(url)
        first = start_server(url, log_path=log)
        second = None
        stop = threading.Event()
        outcome: dict[str, Any] = {}

        def load() -> None:
            outcome["result"] = run_clients(first.port, clients=CRASH_CLIENTS, seconds=40.0,
                                            max_requests=5_000, stop=stop, seed=3)

        loader = threading.Thread(target=load, daemon=True)
        try:
            loader.start()
            time.sleep(1.0)
            workers = first.wait_workers()
            first.kill9(workers[0])  # one worker dies mid-request
            deadline = time.monotonic() + 20
            while workers[0] in first.worker_pids() and time.monotonic() < deadline:
                time.sleep(0.05)
            first.wait_workers(2, timeout=20)  # the master replaced it
            time.sleep(1.0)
            first.kill9_master()  # then the master ...
            time.sleep(0.3)
            first.kill9_all()  # ... and the orphaned workers: the whole server is gone
            time.sleep(0.5)
            # restart on the same database and the same port; the clients carry on
            second = start_server(url, log_path=log, port=first.port)
            restarted = time.monotonic()
            time.sleep(1.5)  # the clients play on against the restarted server
            stop.set()
            loader.join(timeout=60)
            assert not loader.is_alive(), "the load did not stop in time"
            result = outcome["result"]
            stats = result.stats
            after_restart = sum(1 for t in stats.move_times if t > restarted)
            lost = missing_acknowledged(second.port, result.ledger)
            print(f"\n[{backend}] crash run: {stats.moves} acknowledged moves "
                  f"({after_restart} after the restart), "
                  f"{result.ledger.acknowledged} acknowledged events in "
                  f"{len(result.ledger.events)} games, lost {len(lost)}; "
                  f"status counts {dict(stats.counts)}")
            assert stats.moves > after_restart > 0  # the clients played on after the restart
            assert count_conn_errors(stats) > 0  # the kills did cut requests off mid-run
            assert count_5xx(stats) == 0, dict(stats.counts)
            assert lost == []
            # the restarted server serves every game and accepts new moves
            client = ApiClient(second.port)
            for game_id in result.ledger.events:
                state = game_state(client, game_id)
                assert_gap_free(stored_events(client, game_id), int(state["version"]))
            game_id, token, state = create_game(client, name="after the crash")
            assert play_hint(client, game_id, token)["version"] > state["version"]
            client.close()
        finally:
            stop.set()
            first.stop()
            if second is not None:
                second.stop()
            loader.join(timeout=60)
        verify = run_verify(url)
        print(f"[{backend}] squares verify --all: exit {verify.returncode}, "
              f"{verify.stdout.strip()[-200:]}")
        assert verify.returncode == 0, verify.stdout[-3000:] + verify.stderr[-3000:]
