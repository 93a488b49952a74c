"""Thousands of Server-Sent Events streams read by one process (for `benchmarks/live.py`).

`StreamProcess` forks a reader process that holds every stream in one epoll loop
(`selectors` over raw non-blocking sockets), so reading them takes nothing from the
GIL of the process that plays and times the requests. The parent tells it over a pipe
what to open and asks for progress; every exchange is bounded in time.

Each stream is a TCP connection from a loopback source address of its own
(`loopback`; Linux routes all of 127/8 to ``lo``), `PER_ADDRESS` at most per address,
below the server's per-address cap. It sends ``GET /api/games/{id}/live HTTP/1.1``,
reads a close-delimited or a chunked answer and records its status, every ``id:``
with its arrival time (``time.monotonic()``: one clock for every process), the last
``event: viewers`` count, and whether ``: game over`` came before the end. At most
`open_limit` streams are connecting or awaiting their headers at once; one not
answered within `open_timeout` s is closed as ``no_answer``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import multiprocessing
import re
import resource
import selectors
import socket
import time
from array import array
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

PER_ADDRESS = 4
WATCHER_NET, CLIENT_NET = 10, 20  # streams from 127.10.x.y, other clients 127.20.x.y
PENDING = ("queued", "connecting", "waiting")


def loopback(n: int, net: int) -> str:
    """The `n`-th address of 127.`net`.0.0/16 (never a .0 or .255 host)."""
    return f"127.{net}.{(n // 254) % 256}.{n % 254 + 1}"


def raise_nofile() -> int:
    """Raise the soft RLIMIT_NOFILE to the hard limit; the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return hard
    except (ValueError, OSError):
        return soft


ID_LINE = re.compile(rb"^id: ?(\d+)$", re.M)
VIEWERS_DATA = re.compile(rb"^event: ?viewers\ndata: ?(.*)$", re.M)


class Dechunker:
    """Undoes ``Transfer-Encoding: chunked``, incrementally."""

    def __init__(self) -> None:
        self.buffer, self.left, self.state = b"", 0, "size"  # size | data | crlf | done

    def feed(self, data: bytes) -> bytes:
        buf, out = self.buffer + data, []
        while buf and self.state != "done":
            if self.state == "size":
                end = buf.find(b"\r\n")
                if end < 0:
                    break
                self.left = int(buf[:end].split(b";", 1)[0] or b"0", 16)
                buf, self.state = buf[end + 2:], "data" if self.left else "done"
            elif self.state == "data":
                out.append(buf[:self.left])
                buf, self.left = buf[self.left:], self.left - len(out[-1])
                self.state = "data" if self.left else "crlf"
            elif len(buf) < 2:
                break
            else:
                buf, self.state = buf[2:], "size"
        self.buffer = buf
        return b"".join(out)


@dataclass(eq=False)
class Stream:
    key: int
    game_id: str
    source: str
    expect: int  # the game's version when asked for: its backlog
    state: str = "queued"  # + connecting waiting open | refused no_answer ended error
    sock: socket.socket | None = None
    status: int | None = None
    sent_at: float = 0.0  # the request written
    answered_at: float = 0.0  # the headers read
    seqs: array = field(default_factory=lambda: array("i"))
    times: array = field(default_factory=lambda: array("d"))
    head: bytes = b""
    text: bytes = b""
    chunks: Dechunker | None = None
    event: bytes = b""
    viewers: int | None = None
    game_over: bool = False  # ": game over" came before the end
    error: str = ""

    def result(self) -> dict[str, Any]:
        keep = ("key", "game_id", "source", "state", "status", "sent_at", "answered_at",
                "seqs", "times", "viewers", "game_over", "error")
        return {k: getattr(self, k) for k in keep}


class Reader:
    """The reader process: every stream's socket and the parent's pipe in one selector."""

    def __init__(self, conn: Connection, port: int, query: str, open_limit: int,
                 open_timeout: float) -> None:
        self.conn, self.port, self.query = conn, port, query
        self.open_limit, self.open_timeout = open_limit, open_timeout
        self.selector = selectors.DefaultSelector()
        self.streams: dict[int, Stream] = {}
        self.queue: deque[Stream] = deque()
        self.in_flight = 0  # connecting or waiting for the headers
        self.ended: list[tuple[int, str, bool]] = []  # since the last progress
        self.running = True

    def run(self) -> None:
        self.selector.register(self.conn.fileno(), selectors.EVENT_READ, None)
        next_check = 0.0
        while self.running:
            self._start_queued()
            for key, mask in self.selector.select(timeout=0.05):
                if key.data is None:
                    self._command()
                elif mask & selectors.EVENT_WRITE:
                    self._connected(key.data)
                else:
                    self._read(key.data)
            now = time.monotonic()
            if self.in_flight and now >= next_check:
                next_check = now + 0.1
                for s in self.streams.values():
                    if s.state in PENDING[1:] and now - s.sent_at > self.open_timeout:
                        self._finish(s, "no_answer")

    def _command(self) -> None:
        try:
            kind, payload = self.conn.recv()
        except (EOFError, OSError):
            self.running = False
            return
        if kind == "open":
            for key, game_id, source, expect in payload:
                self.streams[key] = Stream(key, game_id, source, expect)
                self.queue.append(self.streams[key])
            self.conn.send(len(payload))
        elif kind == "progress":
            versions = payload or {}
            behind = sum(1 for s in self.streams.values() if s.state == "open" and
                         (s.seqs[-1] if s.seqs else 0) < versions.get(s.game_id, s.expect))
            ended, self.ended = self.ended, []
            self.conn.send({"states": dict(Counter(s.state for s in self.streams.values())),
                            "behind": behind, "ended": ended, "cpu": time.process_time()})
        elif kind == "stop":
            for s in self.streams.values():
                if s.sock is not None:
                    self._close(s)
                if s.state in PENDING:
                    s.state = "not_tried" if s.state == "queued" else "no_answer"
            self.conn.send({"streams": [s.result() for s in self.streams.values()]})
            self.running = False

    def _start_queued(self) -> None:
        while self.queue and self.in_flight < self.open_limit:
            s = self.queue.popleft()
            s.sent_at = time.monotonic()
            try:  # out of descriptors or addresses: this stream is an "error"
                s.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                s.sock.setblocking(False)
                s.sock.bind((s.source, 0))
                code = s.sock.connect_ex(("127.0.0.1", self.port))
            except OSError as exc:
                code, s.error = -1, repr(exc)
            if code not in (0, errno.EINPROGRESS):
                s.error = s.error or errno.errorcode.get(code, str(code))
                self._finish(s, "error")
                continue
            s.state, self.in_flight = "connecting", self.in_flight + 1
            self.selector.register(s.sock, selectors.EVENT_WRITE, s)

    def _connected(self, s: Stream) -> None:
        if s.sock is None:  # closed earlier in this select batch (a stop, a timeout)
            return
        code = s.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
        request = (f"GET /api/games/{s.game_id}/live{self.query} HTTP/1.1\r\n"
                   f"Host: 127.0.0.1:{self.port}\r\nAccept: text/event-stream\r\n"
                   "Cache-Control: no-cache\r\nConnection: keep-alive\r\n\r\n").encode()
        try:
            if code:
                raise OSError(code, errno.errorcode.get(code, str(code)))
            s.sock.send(request)  # a few hundred bytes: an empty socket buffer takes them
        except OSError as exc:
            s.error = repr(exc)
            self._finish(s, "error")
            return
        s.state, s.sent_at = "waiting", time.monotonic()
        self.selector.modify(s.sock, selectors.EVENT_READ, s)

    def _read(self, s: Stream) -> None:
        if s.sock is None:  # closed earlier in this select batch (a stop, a timeout)
            return
        try:
            data = s.sock.recv(262144)
        except BlockingIOError:
            return
        except OSError as exc:
            s.error, data = repr(exc), b""
        now = time.monotonic()
        if not data:
            self._finish(s, "ended" if s.state == "open" else "error")
            return
        if s.state == "waiting":
            head, sep, data = (s.head + data).partition(b"\r\n\r\n")
            if not sep:
                s.head = head
                return
            lines = head.lower().split(b"\r\n")
            try:
                s.status = int(lines[0].split(b" ", 2)[1])
            except (IndexError, ValueError):
                s.error = repr(lines[0][:80])
                self._finish(s, "error")
                return
            s.answered_at, s.head, self.in_flight = now, b"", self.in_flight - 1
            s.state = "open" if s.status == 200 else "refused"
            if s.status != 200:
                self._finish(s, "refused")
                return
            if any(line.replace(b" ", b"") == b"transfer-encoding:chunked" for line in lines):
                s.chunks = Dechunker()
        if s.chunks is not None:
            data = s.chunks.feed(data)
        # whole messages only (up to the last blank line), scanned by regular
        # expressions: the client must cost the shared cores as little as it can
        text = s.text + data
        cut = text.rfind(b"\n\n")
        if cut >= 0:
            block, s.text = text[:cut + 2], text[cut + 2:]
            ids = ID_LINE.findall(block)
            if ids:
                s.seqs.extend(map(int, ids))
                s.times.extend([now] * len(ids))
            if b"event: viewers" in block:
                s.viewers = json.loads(VIEWERS_DATA.findall(block)[-1])["count"]
            if b": game over" in block:
                s.game_over = True
        else:
            s.text = text
        if s.chunks is not None and s.chunks.state == "done":
            # the body ended (game over, or the server stopping); the connection may
            # stay open for the next request (keep-alive), so this is the stream's end
            self._finish(s, "ended")

    def _finish(self, s: Stream, state: str) -> None:
        if s.state in PENDING[1:]:
            self.in_flight -= 1
        s.state = state
        if s.sock is not None:
            self._close(s)
        if state == "ended":
            self.ended.append((s.key, s.game_id, s.game_over))

    def _close(self, s: Stream) -> None:
        assert s.sock is not None
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(s.sock)
        s.sock.close()
        s.sock = None


def _reader_main(conn: Connection, *args: Any) -> None:
    raise_nofile()
    Reader(conn, *args).run()


class StreamProcess:
    """The parent's handle on the reader process; create it before this process
    starts any thread (it forks)."""

    def __init__(self, port: int, *, spectators: bool = False, open_limit: int = 256,
                 open_timeout: float = 10.0) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        query = "?viewers=1" if spectators else ""
        self.process = ctx.Process(target=_reader_main, daemon=True, name="sse-reader",
                                   args=(child, port, query, open_limit, open_timeout))
        self.process.start()
        child.close()
        self.next_key = 0

    def _ask(self, message: tuple[str, Any], timeout: float = 30.0) -> Any:
        self.conn.send(message)
        if not self.conn.poll(timeout):
            raise TimeoutError(f"the stream reader did not answer {message[0]!r}")
        return self.conn.recv()

    def open(self, targets: list[tuple[str, int]]) -> None:
        """A stream for every (game_id, its version now), `PER_ADDRESS` per address."""
        batch = [(key, game_id, loopback(key // PER_ADDRESS, WATCHER_NET), version)
                 for key, (game_id, version) in enumerate(targets, self.next_key)]
        self.next_key += len(batch)
        self._ask(("open", batch))

    def progress(self, versions: dict[str, int] | None = None) -> dict[str, Any]:
        """Streams per state, open ones short of `versions` (default: their backlog),
        ``(key, game_id, after game over)`` of those ended since, the reader's CPU s."""
        return self._ask(("progress", versions))

    def stop(self, timeout: float = 60.0) -> list[dict[str, Any]]:
        """Close every stream; what each one saw (`Stream.result`)."""
        try:
            return self._ask(("stop", None), timeout)["streams"]
        finally:
            self.kill()

    def kill(self) -> None:
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=5)


def stream_figures(streams: list[dict[str, Any]], acks: dict[str, dict[int, tuple[float, float]]],
                   versions: dict[str, int], quiet: set[str]) -> dict[str, Any]:
    """What the streams saw: their answers (status, else how they failed), how many are
    open, ended after game over, dropped; over the 200s, the delivery latencies (s)
    from the writer's answer for moves sent after the stream was answered (`acks`:
    game -> seq -> (sent, answered)), events missed (up to the game's final version),
    received twice, out of order; the open quiet-game streams whose last viewer
    count equals their game's distinct open source addresses, the clients the count
    counts (of how many)."""
    delivery: list[float] = []
    missed = twice = disorder = 0
    for s in streams:
        if s["status"] != 200:
            continue
        seqs, mine = list(s["seqs"]), acks.get(s["game_id"], {})
        twice += len(seqs) - len(set(seqs))
        missed += len(set(range(1, versions[s["game_id"]] + 1)) - set(seqs))
        disorder += sum(1 for a, b in zip(seqs, seqs[1:], strict=False) if b <= a)
        delivery += [at - mine[seq][1] for seq, at in zip(seqs, s["times"], strict=True)
                     if seq in mine and mine[seq][0] >= s["answered_at"]]
    is_open = [s for s in streams if s["state"] == "open"]
    per_game = Counter(game_id for game_id, _ in {(s["game_id"], s["source"])
                                                  for s in is_open})
    ended = [s["game_over"] for s in streams if s["state"] == "ended"]
    return {"answers": dict(Counter(str(s["status"] or s["state"]) for s in streams)),
            "open": len(is_open), "ended_at_game_over": sum(ended),
            "dropped": len(ended) - sum(ended), "delivery": delivery, "missed": missed,
            "twice": twice, "out_of_order": disorder,
            "viewer_counts_right": [sum(1 for s in is_open if s["game_id"] in quiet
                                        and s["viewers"] == per_game[s["game_id"]]),
                                    sum(1 for s in is_open if s["game_id"] in quiet)]}
