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
"""

from __future__ import annotations

import contextlib
import http.client
import json
import random
import signal
import socket
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

from squares_testing.client import ApiClient, ConnectionFailed, Reply
from squares_testing.net import HOST
from squares_testing.nginx import Nginx, running_nginx
from squares_testing.server import Server, start_server
from tests.databases import fresh_postgres_database

pytestmark = [pytest.mark.e2e, pytest.mark.serial]  # timed under pressure: run alone

# Every client comes from 127.0.0.1, and behind nginx every stream comes from nginx's
# address anyway: the per-address stream cap (8) must not refuse the test's watchers.
# as docs/operating.md ("Several instances") says: the instances trust nginx, one proxy
ENV = {"SQUARES_TRUSTED_PROXIES": "1", "SQUARES_LIVE_PER_CLIENT": "100",
       "SQUARES_LIVE_URL": "same-origin"}  # nginx routes the streams (deploy/nginx.conf)
GAMES = 4
WATCHERS_PER_GAME = 3
HEIGHT, WIDTH = 41, 81  # the largest field: ~750 moves, it does not end while the test plays
MOVE_PAUSE_S = 0.02  # between a player's moves
PLAY_BEFORE_S = 2.0  # everybody busy before the first stop
SETTLE_S = 2.5  # a restarted instance takes requests again (nginx: fail_timeout=2s)
PLAY_AFTER_S = 2.5  # after the last restart
EXIT_LIMIT_S = 10.0  # SIGTERM -> the master has exited
STREAM_END_LIMIT_S = 1.0  # SIGTERM -> a stream on that instance has ended (through nginx)
CATCH_UP_S = 15.0
MEDIAN_DELAY_LIMIT_S = 0.5  # a move's answer -> its event on a stream (unbuffered: ms)
TEST_LIMIT_S = 55.0
READ_TIMEOUT_S = 30.0  # a watcher's socket (heartbeats come every 15 s)
SETTLE_TRIES = 50  # re-reads after a cut-off request
MAX_MOVES = 2000  # per player


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


# -- watchers --------------------------------------------------------------------------


@dataclass
class StreamEnd:
    at: float  # time.monotonic()
    how: str  # "retry" (the server's last `retry:`), "eof", "error: ...", "status N"
    retry_ms: int | None


class Watcher:
    """One browser's EventSource on one game, through nginx, in a thread."""

    def __init__(self, name: str, port: int, game_id: str, deadline: float) -> None:
        self.name = name
        self.port = port
        self.game_id = game_id
        self.deadline = deadline
        self.seqs: list[int] = []  # every event's id, as it arrived, duplicates kept
        self.events: dict[int, dict[str, Any]] = {}
        self.arrived: dict[int, float] = {}  # seq -> when it first arrived
        self.opened: list[float] = []  # each stream answered 200 (time.monotonic())
        self.refused: Counter[int] = Counter()  # non-200 answers to a (re)connect
        self.ends: list[StreamEnd] = []
        self.over = False
        self._stop = threading.Event()
        self._conn: http.client.HTTPConnection | None = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name=f"watcher-{name}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def last(self) -> int:
        return self.seqs[-1] if self.seqs else 0

    @property
    def reconnects(self) -> int:
        return max(0, len(self.opened) - 1)

    def _run(self) -> None:
        attempts = 0
        while not self._stop.is_set() and not self.over and attempts < 200 \
                and time.monotonic() < self.deadline:
            attempts += 1
            end = self._follow_once()
            if end is None:  # stopped by the test
                return
            self.ends.append(end)
            if self.over:
                return
            # what EventSource waits before it reconnects (its default: a few s)
            wait = (end.retry_ms if end.retry_ms is not None else 1000) / 1000
            self._stop.wait(min(wait, 3.0))

    def _follow_once(self) -> StreamEnd | None:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        if self.seqs:
            headers["Last-Event-ID"] = str(self.last)
        retry_ms: int | None = None
        conn = http.client.HTTPConnection(HOST, self.port, timeout=READ_TIMEOUT_S)
        with self._lock:
            if self._stop.is_set():
                return None
            self._conn = conn
        try:
            conn.request("GET", f"/api/games/{self.game_id}/live", headers=headers)
            response = conn.getresponse()
            if response.status != 200:
                response.read()
                self.refused[response.status] += 1
                return StreamEnd(time.monotonic(), f"status {response.status}", None)
            self.opened.append(time.monotonic())
            fields: dict[str, str] = {}
            blocks = 0  # messages so far: the first one is every stream's `retry:`
            last_words = False  # a later message set `retry:` (a stopping server's)
            while True:
                raw = response.readline()  # the body's lines (not the chunks')
                if not raw:
                    if self._stop.is_set():
                        return None
                    how = "retry" if last_words else "eof"
                    return StreamEnd(time.monotonic(), how, retry_ms)
                line = raw.decode("utf-8").rstrip("\r\n")
                if line == "":
                    if "retry" in fields and fields["retry"].isdigit():
                        retry_ms = int(fields["retry"])
                        last_words = blocks > 0
                    blocks += 1
                    if "id" in fields:
                        self._event(fields)
                        last_words = False
                    fields = {}
                    continue
                if line.startswith(":"):
                    continue
                name, _, value = line.partition(":")
                fields[name] = value[1:] if value.startswith(" ") else value
        except (OSError, http.client.HTTPException, ValueError) as exc:
            if self._stop.is_set():
                return None
            return StreamEnd(time.monotonic(), f"error: {exc!r}", retry_ms)
        finally:
            with self._lock:
                self._conn = None
            conn.close()

    def _event(self, fields: dict[str, str]) -> None:
        seq = int(fields["id"])
        data = json.loads(fields.get("data", "null"))
        self.seqs.append(seq)
        self.events.setdefault(seq, data)
        self.arrived.setdefault(seq, time.monotonic())
        if fields.get("event") == "game_over":
            self.over = True  # the stream ends after it; nothing to resume

    def wait_for(self, seq: int, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.last >= seq or not self._thread.is_alive():
                break
            time.sleep(0.05)
        return self.last >= seq

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            conn = self._conn
        if conn is not None and conn.sock is not None:
            with contextlib.suppress(OSError):  # wakes the thread blocked in recv
                conn.sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(timeout=10)


# -- players ---------------------------------------------------------------------------


@dataclass
class Move:
    kind: str  # "line" or "advance"
    expected: int  # the expected_version it was sent with: its first event is expected + 1
    x: int | None = None
    y: int | None = None
    how: str = "answered"  # or "found applied" (the answer was lost, the store had it)
    answered_at: float | None = None  # time.monotonic() of its 2xx answer


@dataclass
class Incident:
    """A request that was cut off: no answer, or nginx's 5xx."""

    what: str  # "line 502", "advance conn_error", "get 504", ...
    settled_by: str | None = None  # "sent again", "found applied", "read again"


class Player:
    """Plays one game through nginx in a thread, `expected_version` on every move."""

    def __init__(self, name: str, port: int, game: dict[str, Any], seed: int,
                 stop: threading.Event, deadline: float) -> None:
        self.name = name
        self.client = ApiClient(port, timeout=10.0)
        self.game_id: str = game["game_id"]
        self.token: str = game["token"]
        self.state: dict[str, Any] = game["state"]
        # both seats are this player's (two players on one screen): every command
        # in the game is one of its moves
        self.seats = {int(s["seat"]) for s in self.state["seats"]}
        self.ledger: dict[int, dict[str, Any]] = {}  # seq -> event, from answers
        self.conflicts: list[str] = []  # one seq answered twice, differently
        self.moves: list[Move] = []
        self.statuses: Counter[str] = Counter()
        self.incidents: list[Incident] = []
        self.problems: list[str] = []
        self.rng = random.Random(seed)
        self.stop_event = stop
        self.deadline = deadline
        self._record(game["events"])
        self._thread = threading.Thread(target=self._run, name=f"player-{name}", daemon=True)

    @property
    def base(self) -> str:
        return f"/api/games/{self.game_id}"

    @property
    def version(self) -> int:
        return int(self.state["version"])

    def start(self) -> None:
        self._thread.start()

    def join(self) -> None:
        self._thread.join(timeout=40)
        self.client.close()

    def _going(self) -> bool:
        return not self.stop_event.is_set() and time.monotonic() < self.deadline

    def _record(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            seq = int(e["seq"])
            if seq in self.ledger and self.ledger[seq] != e:
                self.conflicts.append(f"seq {seq}: {self.ledger[seq]} then {e}")
            self.ledger[seq] = e

    def _call(self, kind: str, method: str, path: str, body: Any = None,
              token: str | None = None) -> Reply | None:
        try:
            reply = self.client.call(method, path, body, token=token)
        except ConnectionFailed:
            self.statuses[f"{kind} conn_error"] += 1
            return None
        self.statuses[f"{kind} {reply.status}"] += 1
        return reply

    def _run(self) -> None:
        try:
            for _ in range(MAX_MOVES):
                if not self._going() or self.state["over"]:
                    return
                self._move()
                time.sleep(MOVE_PAUSE_S)
        except Exception as exc:  # noqa: BLE001 - reported by the test
            self.problems.append(f"{self.name}: {exc!r}")

    def _choose(self) -> Move:
        legal = self.state["legal"]
        lines = legal["lines"]
        if lines and (not legal["can_advance"] or self.rng.random() < 0.75):
            x, y = self.rng.choice(lines)
            return Move("line", self.version, int(x), int(y))
        return Move("advance", self.version)

    def _move(self) -> None:
        if int(self.state["legal"]["seat"]) not in self.seats:
            self.problems.append(f"{self.name}: not our turn: {self.state['legal']}")
            self.stop_event.set()
            return
        move = self._choose()
        if move.kind == "line":
            path, body = f"{self.base}/lines", {"x": move.x, "y": move.y,
                                                "expected_version": move.expected}
        else:
            path, body = f"{self.base}/advance", {"expected_version": move.expected}
        pending: list[Incident] = []  # this move's cut-off attempts
        for _attempt in range(SETTLE_TRIES):
            reply = self._call(move.kind, "POST", path, body, self.token)
            if reply is not None and 200 <= reply.status < 300:
                move.answered_at = time.monotonic()
                self._record(reply.data["events"])
                self.moves.append(move)
                self.state = reply.data["state"]
                for incident in pending:
                    incident.settled_by = "sent again"
                return
            if reply is not None and reply.status < 500:
                code = (reply.data or {}).get("error", {}).get("code")
                incident = Incident(f"{move.kind} {reply.status} {code}")
                if code != "version_conflict":
                    self.problems.append(f"{self.name}: {move} refused: {reply.body[:300]!r}")
            else:
                incident = Incident(
                    f"{move.kind} {'conn_error' if reply is None else reply.status}")
            self.incidents.append(incident)
            pending.append(incident)
            # Did it apply after all? Only if the version did not move is it sent again.
            outcome = self._settle(incident, move)
            if outcome == "applied":
                for incident in pending:
                    incident.settled_by = "found applied"
                return
            if outcome != "not applied" or not self._going():
                return  # a problem, or the end: reported by the test as unsettled
            time.sleep(0.05)
        self.problems.append(f"{self.name}: {move} never got an answer")

    def _read_state(self) -> dict[str, Any] | None:
        """The game as stored now, through nginx (a cut-off read is read again)."""
        for _ in range(SETTLE_TRIES):
            if time.monotonic() > self.deadline + CATCH_UP_S:
                break
            reply = self._call("get", "GET", self.base)
            if reply is not None and reply.status == 200:
                state: dict[str, Any] = reply.data["state"]
                return state
            self.incidents.append(Incident(f"get {'conn_error' if reply is None else reply.status}",
                                           settled_by="read again"))
            time.sleep(0.1)
        return None

    def _events_after(self, after: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for _ in range(SETTLE_TRIES):
            reply = self._call("events", "GET", f"{self.base}/events?after={after}")
            if reply is None or reply.status != 200:
                time.sleep(0.1)
                continue
            page = reply.data["events"]
            out.extend(page)
            if not page or int(page[-1]["seq"]) >= int(reply.data["version"]):
                return out
            after = int(page[-1]["seq"])
        raise AssertionError(f"{self.name}: could not read the events after {after}")

    def _settle(self, incident: Incident | None, move: Move | None) -> str:
        """Re-read the game (after `incident`, a cut-off `move`): "applied" when the
        move's first event is the one after its expected version; "not applied" when
        the version did not move (sending it again with the same expected_version is
        safe); "other" when something else happened (a problem, recorded)."""
        known = self.version
        state = self._read_state()
        if state is None:
            self.problems.append(f"{self.name}: the game could not be read after {incident}")
            return "other"
        if int(state["version"]) == known:
            self.state = state
            return "not applied"
        events = self._events_after(known)
        self._record(events)
        self.state = state
        if move is None:
            return "other"
        first = events[0] if events else None
        if first is not None and _is_move(first, self.seats) and _same_move(first, move):
            move.how = "found applied"
            self.moves.append(move)
            return "applied"
        self.problems.append(f"{self.name}: the version moved from {known} to "
                             f"{state['version']} after {incident}, but not by {move}: {first}")
        return "other"


def _is_move(event: dict[str, Any], seats: set[int]) -> bool:
    """The first event of a command of a human in `seats` (a line, or ending a stage)."""
    data = event["data"]
    if event["type"] == "line_placed":
        return bool(data["seat"] in seats)
    if event["type"] == "stage_advanced":
        return bool(data["seat"] in seats and data["reason"] == "player")
    return False


def _same_move(event: dict[str, Any], move: Move) -> bool:
    if move.kind == "line":
        return bool(event["type"] == "line_placed" and event["data"]["x"] == move.x
                    and event["data"]["y"] == move.y)
    return event["type"] == "stage_advanced"


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
