"""The watchers of the rolling restart test (`test_rolling_restart`): each is one
browser's ``EventSource`` on one game, through nginx, in a thread, reconnecting with
``Last-Event-ID`` after the wait the stream's last ``retry:`` asked for, and keeping
every event it got and how each stream ended."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from squares_testing.net import HOST

READ_TIMEOUT_S = 30.0  # a watcher's socket (heartbeats come every 15 s)


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
