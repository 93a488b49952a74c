"""Viewer counts: how many spectators follow each game, over every server process.

A spectator is a client, not a stream: the keyed hash of its address
(`security.client_key`, the same key as the cap on active games per address; never
the address), so one address with 16 open streams counts once, over every process.

Each process counts its own spectator streams per game and client in memory
(`Viewers.viewing`). While any are open, one thread per process looks every
`CHECK_S`: it writes the rows of the ``viewers`` table that changed, one per (process,
game, client) with that client's stream count (and every `REFRESH_S` marks all of
the process's rows seen, so they stay fresh), then reads what the other processes
add. A total counts the rows seen in the last `FRESH_S`, so the clients of a process
that died stop counting within that time; rows older than `FORGET_S` are deleted.
A game's count here is the number of distinct clients of the other processes, plus
this process's clients that none of them counts: the clients here are always up to
date, so a stream's own client counts at once (a client this process has just
seen, and that another process counts as well, counts twice until the next look).
`on_change(game_id)` is called whenever a game's count may have changed (the live
feed wakes that game's spectator streams with it).
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..store import EventStore, utcnow
from ..store.viewers import Pair, ViewerRepository

log = logging.getLogger(__name__)

CHECK_S = 1.0
REFRESH_S = 10.0
FRESH_S = 30.0
FORGET_S = 3600.0  # rows this old are deleted by anyone's next refresh


@dataclass(frozen=True)
class _Look:
    """What one look starts from: this process's streams per (game, client) now, and
    what it must write."""

    local: dict[Pair, int]
    changed: dict[Pair, int]  # the pairs whose stream count differs from the table's
    refresh: bool  # time to mark every row seen
    rows: int  # this process's rows in the table, as last written

    @property
    def writes(self) -> bool:
        return bool(self.changed) or self.refresh


class Viewers:
    def __init__(self, store: EventStore, *, check_s: float = CHECK_S,
                 refresh_s: float = REFRESH_S, fresh_s: float = FRESH_S,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.store = store
        self.on_change = on_change
        self.check_s = check_s
        self.refresh_s = refresh_s
        self.fresh_s = fresh_s
        self._lock = threading.Lock()
        self._local: dict[str, Counter[str]] = {}  # game -> client -> streams here
        self._reported: dict[Pair, int] = {}  # this process's rows, as last written
        self._others: dict[str, int] = {}  # game -> distinct clients of other processes
        self._shared: dict[str, frozenset[str]] = {}  # game -> of those, clients here too
        self._refreshed_at = float("-inf")
        self._thread: threading.Thread | None = None
        self._instance: str | None = None
        self._stop = threading.Event()

    @property
    def instance(self) -> str:
        """This process's name in the table (made after a fork: the pid is in it)."""
        if self._instance is None or f":{os.getpid()}:" not in self._instance:
            self._instance = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        return self._instance

    @contextmanager
    def viewing(self, game_id: str, client: str) -> Iterator[None]:
        """Count `client` (`security.client_key` of its address) as a spectator of
        `game_id` for the duration of the block; its other streams of the game, here
        or in another process, do not add to the count."""
        self._changed(self._add(game_id, client, 1))
        try:
            yield
        finally:
            self._changed(self._add(game_id, client, -1))

    def _add(self, game_id: str, client: str, streams: int) -> list[str]:
        """Add `streams` to the client's open streams of the game; the game if its
        count changed."""
        with self._lock:
            before = self._count(game_id)
            clients = self._local.setdefault(game_id, Counter())
            clients[client] += streams
            if clients[client] <= 0:
                del clients[client]
            if not clients:
                del self._local[game_id]
            if streams > 0:
                self._start()
            return [game_id] if self._count(game_id) != before else []

    def _start(self) -> None:
        """Start the thread if it is not running (the lock held)."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="squares-viewers",
                                            daemon=True)
            self._thread.start()

    def count(self, game_id: str) -> int:
        """The distinct spectators of `game_id` over all processes: the others' as
        last read, this process's own up to date."""
        with self._lock:
            return self._count(game_id)

    def _count(self, game_id: str) -> int:
        """`count` with the lock held."""
        here: dict[str, int] = self._local.get(game_id, {})
        shared = self._shared.get(game_id, frozenset())
        return self._others.get(game_id, 0) + len(here) - sum(1 for c in shared if c in here)

    def sync(self) -> None:
        """Write this process's rows that changed (all of them when due), and read
        what the other processes add to the games viewed here."""
        with self._lock:
            look = self._look()
            before = {game_id: self._count(game_id) for game_id in self._local}
        now = utcnow()
        fresh_since = now - timedelta(seconds=self.fresh_s)
        with self.store.unit_of_work(write=look.writes) as uow:
            if look.writes:
                self._write(uow.viewers, look, now)
            others = uow.viewers.others(list(before), self.instance, fresh_since)
            shared = uow.viewers.shared(self.instance, fresh_since) if look.local else set()
        with self._lock:
            if look.writes:
                self._reported = look.local
            if look.refresh:
                self._refreshed_at = time.monotonic()
            self._others = others
            self._shared = _by_game(shared)
            changed = [g for g, count in before.items() if self._count(g) != count]
        self._changed(changed)

    def _look(self) -> _Look:
        """This process's streams now and what to write (the lock held)."""
        local = {(game_id, client): streams for game_id, clients in self._local.items()
                 for client, streams in clients.items()}
        changed = {pair: local.get(pair, 0) for pair in self._reported.keys() | local.keys()
                   if local.get(pair, 0) != self._reported.get(pair, 0)}
        refresh = time.monotonic() - self._refreshed_at >= self.refresh_s
        return _Look(local, changed, refresh, len(self._reported))

    def _write(self, table: ViewerRepository, look: _Look, now: datetime) -> None:
        """Write what changed; on a refresh mark every row seen, and rewrite them all
        if some were missing (deleted as forgotten, or a new process name)."""
        if look.refresh:
            table.forget(now - timedelta(seconds=FORGET_S))
            if table.refresh(self.instance, now) != look.rows:
                table.replace(self.instance, look.local, now)
                return
        if look.changed:
            table.update(self.instance, look.changed, now)

    def _changed(self, game_ids: list[str]) -> None:
        if self.on_change is not None:
            for game_id in game_ids:
                self.on_change(game_id)

    def stop(self) -> None:
        """End the thread (at its next look) without reporting again."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.check_s):
            try:
                self.sync()
            except Exception:  # noqa: BLE001 - counting must not end with a hiccup
                log.exception("viewers: reporting the viewer counts failed")
            with self._lock:
                if not self._local and not self._reported:
                    self._thread = None
                    return


def _by_game(pairs: set[Pair]) -> dict[str, frozenset[str]]:
    clients: dict[str, set[str]] = {}
    for game_id, client in pairs:
        clients.setdefault(game_id, set()).add(client)
    return {game_id: frozenset(found) for game_id, found in clients.items()}
