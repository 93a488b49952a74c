"""The players of the rolling restart test (`test_rolling_restart`): each plays one
game through nginx in a thread, ``expected_version`` on every move, and settles every
request that was cut off by re-reading the game; and how a stored event is told to
be one of their moves."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from squares_testing.client import ApiClient, ConnectionFailed, Reply

MOVE_PAUSE_S = 0.02  # between a player's moves
CATCH_UP_S = 15.0
SETTLE_TRIES = 50  # re-reads after a cut-off request
MAX_MOVES = 2000  # per player


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
