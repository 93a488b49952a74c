"""A rolling restart behind nginx loses nothing (the issue's "Graceful stop").

Two instances A and B, run as ``squares serve`` runs them, share one fresh PostgreSQL
database; Debian's nginx, with the very config we ship (``deploy/nginx.conf``,
started by `squares_testing.nginx`), spreads the clients over them. While watchers follow
games through nginx (Server-Sent Events, reconnecting with ``Last-Event-ID`` after
the wait the stream's last ``retry:`` asked for, as a browser's ``EventSource``
does) and players play their own games through nginx (``expected_version`` on every
move), A gets SIGTERM, exits, starts again on the same port; then B the same way.

Then: every watcher got every event of its game exactly once and in order (0 missed,
0 duplicated), compared with ``GET /api/games/{id}/events``; the streams open on a
stopped instance ended at once and their watchers resumed on the other one; every
request a player made that was cut off (no answer, or nginx's 502/503/504) was
settled by re-reading the game and sending the move again with the same
``expected_version`` (or finding it applied); every game's stream is gap-free and
holds every move its player believes it made exactly once, and nothing else of its
player's. No instance needs longer than 10 s to exit.

Needs ``SQUARES_TEST_POSTGRES_URL`` (``scripts/run_tests.py`` always sets it) and
Debian's nginx (``./dev test`` installs it). Every loop is bounded in count and time.

The watchers and the players are in `rolling_restart_watchers` and
`rolling_restart_players`.
"""

from __future__ import annotations

import signal
import statistics
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from squares_testing.client import ApiClient
from squares_testing.net import HOST
from squares_testing.nginx import Nginx, running_nginx
from squares_testing.server import Server, start_server
from tests.databases import fresh_postgres_database
from tests.e2e.rolling_restart_players import CATCH_UP_S, Player, _is_move, _same_move
from tests.e2e.rolling_restart_watchers import Watcher

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # timed under pressure: run alone

# Every client comes from 127.0.0.1, and behind nginx every stream comes from nginx's
# address anyway: the per-address stream cap (8) must not refuse the test's watchers.
# as docs/operating.md ("Several instances") says: the instances trust nginx, one proxy
ENV = {"SQUARES_TRUSTED_PROXIES": "1", "SQUARES_LIVE_PER_CLIENT": "100",
       "SQUARES_LIVE_URL": "same-origin"}  # nginx routes the streams (deploy/nginx.conf)
GAMES = 4
WATCHERS_PER_GAME = 3
HEIGHT, WIDTH = 41, 81  # the largest field: ~750 moves, it does not end while the test plays
PLAY_BEFORE_S = 2.0  # everybody busy before the first stop
SETTLE_S = 2.5  # a restarted instance takes requests again (nginx: fail_timeout=2s)
PLAY_AFTER_S = 2.5  # after the last restart
EXIT_LIMIT_S = 10.0  # SIGTERM -> the master has exited
STREAM_END_LIMIT_S = 1.0  # SIGTERM -> a stream on that instance has ended (through nginx)
MEDIAN_DELAY_LIMIT_S = 0.5  # a move's answer -> its event on a stream (unbuffered: ms)
TEST_LIMIT_S = 55.0


# -- the cluster -----------------------------------------------------------------------


@dataclass
class Cluster:
    url: str
    tmp: Path
    servers: dict[str, Server]
    nginx: Nginx | None = None
    started: list[Server] = field(default_factory=list)

    def start(self, name: str, port: int | None = None) -> Server:
        server = start_server(self.url, log_path=self.tmp / f"{name.lower()}.log", workers=2,
                              env=ENV, port=port)
        self.started.append(server)
        self.servers[name] = server
        return server


@pytest.fixture
def cluster(postgres_template: str, tmp_path: Path) -> Iterator[Cluster]:
    """A and B on one fresh (migrated) database, nginx in front; all stopped at exit."""
    with fresh_postgres_database(postgres_template, prefix="squares_rolling") as url:
        c = Cluster(url, tmp_path, {})
        try:
            with ThreadPoolExecutor(2) as pool:  # each start mostly waits: both at once
                a, b = pool.map(c.start, ("A", "B"))
            with running_nginx([f"{HOST}:{a.port}", f"{HOST}:{b.port}"],
                               logs_to=tmp_path / "nginx") as nginx:
                c.nginx = nginx
                yield c
        finally:
            for server in reversed(c.started):
                server.stop()
            print(f"\nlogs: {tmp_path} (a.log, b.log, nginx/)")


def _status(access_line: str) -> int:
    """The status nginx answered, from a line of deploy/nginx.conf's `squares` format."""
    try:
        return int(access_line.split('" ', 1)[1].split()[0])
    except (IndexError, ValueError):
        return 0


# -- the test --------------------------------------------------------------------------


def _all_events(client: ApiClient, game_id: str) -> list[dict[str, Any]]:
    """Every stored event of the game, paging with `after`."""
    out: list[dict[str, Any]] = []
    after = 0
    for _ in range(1000):
        reply = client.call("GET", f"/api/games/{game_id}/events?after={after}&limit=500")
        assert reply.status == 200, reply.body[:300]
        page = reply.data["events"]
        out.extend(page)
        if not page or int(page[-1]["seq"]) >= int(reply.data["version"]):
            return out
        after = int(page[-1]["seq"])
    raise AssertionError("too many pages")


def _restart(cluster: Cluster, name: str, stops: dict[str, float],
             exits: dict[str, float]) -> None:
    """SIGTERM `name`, wait for it to exit, start it again on the same port."""
    old = cluster.servers[name]
    stopped = time.monotonic()
    stops[name] = stopped
    old.proc.send_signal(signal.SIGTERM)
    try:
        old.proc.wait(timeout=EXIT_LIMIT_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"instance {name} did not exit within {EXIT_LIMIT_S} s of SIGTERM:\n"
                    + old.log_tail())
    exits[name] = time.monotonic() - stopped
    cluster.start(name, port=old.port)


def test_a_rolling_restart_behind_nginx_loses_nothing(cluster: Cluster) -> None:
    assert cluster.nginx is not None
    nginx = cluster.nginx
    t0 = time.monotonic()
    deadline = t0 + TEST_LIMIT_S
    api = ApiClient(nginx.port, timeout=30.0)

    games = []
    for i in range(GAMES):
        reply = api.call("POST", "/api/games", {
            "player_name": f"Player {i}", "second_name": f"Friend {i}",
            "mode": "two_players", "height": HEIGHT, "width": WIDTH, "seed": 100 + i})
        assert reply.status == 201, reply.body[:300]
        games.append(reply.data)

    watchers = [Watcher(f"w{g}.{k}", nginx.port, games[g]["game_id"], deadline)
                for g in range(GAMES) for k in range(WATCHERS_PER_GAME)]
    stop_players = threading.Event()
    players = [Player(f"p{g}", nginx.port, games[g], seed=g, stop=stop_players,
                      deadline=deadline - CATCH_UP_S)
               for g in range(GAMES)]
    stops: dict[str, float] = {}
    exits: dict[str, float] = {}
    try:
        for w in watchers:
            w.start()
        for p in players:
            p.start()
        time.sleep(PLAY_BEFORE_S)

        _restart(cluster, "A", stops, exits)
        time.sleep(SETTLE_S)
        _restart(cluster, "B", stops, exits)
        time.sleep(PLAY_AFTER_S)

        stop_players.set()
        for p in players:
            p.join()

        stored = {p.game_id: _all_events(api, p.game_id) for p in players}
        for w in watchers:
            w.wait_for(len(stored[w.game_id]), timeout=max(0.0, deadline - time.monotonic()))
    finally:
        stop_players.set()
        for w in watchers:
            w.stop()
        for p in players:
            p.join()
        api.close()

    # -- what happened ---------------------------------------------------------------
    moves = sum(len(p.moves) for p in players)
    found = sum(1 for p in players for m in p.moves if m.how == "found applied")
    incidents = [i for p in players for i in p.incidents]
    statuses: Counter[str] = Counter()
    for p in players:
        statuses.update(p.statuses)
    reconnects = sum(w.reconnects for w in watchers)
    checked = sum(len(w.seqs) for w in watchers)
    ended_by: dict[str, list[float]] = {}  # seconds from SIGTERM to a stream's end
    order = sorted(stops.items(), key=lambda kv: kv[1])
    for index, (name, at) in enumerate(order):
        until = min([at + EXIT_LIMIT_S, *(t for _, t in order[index + 1:])])
        # the streams on the stopped instance end with the server's last `retry:`
        ended_by[name] = [e.at - at for w in watchers for e in w.ends
                          if e.how == "retry" and at <= e.at < until]
    # a move's first event on its watchers' streams, from its answer to the player
    # (through nginx: the streams are not buffered)
    delays = sorted(w.arrived[m.expected + 1] - m.answered_at
                    for p in players for m in p.moves if m.answered_at is not None
                    for w in watchers if w.game_id == p.game_id and m.expected + 1 in w.arrived)
    lines = nginx.access_lines()
    passed_on = [line for line in lines if "ustatus=" in line
                 and "," in line.split("ustatus=", 1)[1]]
    print()
    print(f"instances exited {', '.join(f'{n} in {s:.2f} s' for n, s in exits.items())}; "
          f"streams ended after SIGTERM: "
          + "; ".join(f"{n}: {len(v)}, max {max(v, default=0) * 1000:.0f} ms"
                      for n, v in ended_by.items()))
    print(f"player answers: {dict(sorted(statuses.items()))}; games over: "
          f"{sum(1 for p in players if p.state['over'])}")
    print(f"cut off: {[(i.what, i.settled_by) for i in incidents]}")
    print(f"watchers: refused {sum((w.refused for w in watchers), Counter())}, "
          f"stream ends {Counter(e.how.split(':')[0] for w in watchers for e in w.ends)}")
    print(f"nginx: {len(lines)} requests, {len(passed_on)} passed on to the other instance")
    if delays:
        print(f"a move's event on the streams, after its answer: median "
              f"{statistics.median(delays) * 1000:.1f} ms, max {delays[-1] * 1000:.1f} ms "
              f"({len(delays)} arrivals)")

    # -- the instances ---------------------------------------------------------------
    assert set(exits) == {"A", "B"}
    for name, seconds in exits.items():
        assert seconds < EXIT_LIMIT_S, f"{name} took {seconds:.1f} s to exit"
        assert ended_by[name], f"no stream ended with `retry:` after {name}'s SIGTERM"
        assert max(ended_by[name]) < STREAM_END_LIMIT_S, \
            f"streams on {name} ended {max(ended_by[name]):.2f} s after SIGTERM"

    assert delays and statistics.median(delays) < MEDIAN_DELAY_LIMIT_S, \
        "the streams lag behind the moves (buffered by nginx?)"

    # -- the players -----------------------------------------------------------------
    problems = [x for p in players for x in (*p.problems, *p.conflicts)]
    assert not problems, "\n".join(problems)
    unsettled = [i.what for i in incidents if i.settled_by is None]
    assert not unsettled, f"cut-off requests never settled: {unsettled}"
    for p in players:
        assert p.moves, f"{p.name} made no move"
        events = stored[p.game_id]
        seqs = [int(e["seq"]) for e in events]
        assert seqs == list(range(1, len(seqs) + 1)), f"{p.name}: a gap in {seqs}"
        by_seq = {int(e["seq"]): e for e in events}
        for seq, e in p.ledger.items():
            assert by_seq.get(seq) == e, f"{p.name}: answered {e}, stored {by_seq.get(seq)}"
        believed = [m.expected + 1 for m in p.moves]
        assert len(believed) == len(set(believed)), f"{p.name}: two moves at one version"
        for move in p.moves:
            first = by_seq.get(move.expected + 1)
            assert first is not None and _same_move(first, move), \
                f"{p.name}: {move} is not the event after version {move.expected}: {first}"
        applied = sorted(int(e["seq"]) for e in events if _is_move(e, p.seats))
        assert applied == sorted(believed), (
            f"{p.name}: moves in the store {applied} != moves the player made "
            f"{sorted(believed)} (a move applied twice, or unknown to its player)")

    # -- the watchers ----------------------------------------------------------------
    for w in watchers:
        events = stored[w.game_id]
        want = [int(e["seq"]) for e in events]
        duplicated = sorted(s for s, n in Counter(w.seqs).items() if n > 1)
        missed = sorted(set(want) - set(w.seqs))
        assert not duplicated, f"{w.name}: duplicated {duplicated}"
        assert not missed, f"{w.name}: missed {missed} (ends: {w.ends})"
        assert w.seqs == want, f"{w.name}: out of order"
        for e in events:
            assert w.events[int(e["seq"])] == e, f"{w.name}: seq {e['seq']} differs"
        assert w.reconnects >= 1 or w.over, f"{w.name} never reconnected (ends: {w.ends})"
        five = {s: n for s, n in w.refused.items() if s >= 500}
        assert not five, f"{w.name}: nginx answered a reconnect with {five}"
        # every stream ended by a stop ended with its server's last `retry:`: none cut
        cut = [e for e in w.ends if e.how != "retry" and not (w.over and e is w.ends[-1])]
        assert not cut, f"{w.name}: streams that ended without a `retry:`: {cut}"

    # -- nginx: its every 5xx answer was a player's cut-off request, settled above ---
    nginx_5xx = [line for line in lines if _status(line) >= 500]
    players_5xx = sum(n for what, n in statuses.items() if what.split()[-1].startswith("5"))
    assert len(nginx_5xx) == players_5xx, "\n".join(nginx_5xx)

    print(f"rolling restart: {moves} moves ({found} found applied after a cut-off), "
          f"{len(incidents)} cut-off requests settled, {len(watchers)} watchers, "
          f"{reconnects} reconnects, {checked} events checked, 0 missed, 0 duplicated, "
          f"{time.monotonic() - t0:.1f} s")
