"""A per-process cache of folded states, holding committed states only.

`SnapshotCache` is an LRU keyed by ``(game_id, version)``. A unit of work never puts
into it directly: it collects the states it would cache and publishes them after
its transaction commits (`PendingSnapshots`); a rollback publishes nothing. So every
cached state is the fold of a committed stream prefix, and since committed events
never change and ``(game_id, seq)`` is unique, a cached state is right in every
process; clearing the cache changes nothing but speed.

Cached states are never mutated: callers get copies (`GameState.copy`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..domain.state import GameState

SNAPSHOT_CAPACITY = 512


class SnapshotCache:
    """An LRU of folded states, indexed per game so that finding a game's newest
    state at or before a version looks at that game's entries only."""

    def __init__(self, capacity: int = SNAPSHOT_CAPACITY) -> None:
        self.capacity = capacity
        self._states: OrderedDict[tuple[str, int], GameState] = OrderedDict()
        self._by_game: dict[str, dict[int, GameState]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._states)

    def put(self, game_id: str, state: GameState) -> None:
        """Keep `state`, a committed one (the caller never mutates it again)."""
        if self.capacity <= 0:
            return
        with self._lock:
            key = (game_id, state.version)
            self._states[key] = state
            self._states.move_to_end(key)
            self._by_game.setdefault(game_id, {})[state.version] = state
            while len(self._states) > self.capacity:
                (gid, version), _ = self._states.popitem(last=False)
                versions = self._by_game[gid]
                del versions[version]
                if not versions:
                    del self._by_game[gid]

    def latest(self, game_id: str, at_most: int) -> GameState | None:
        """The cached state of `game_id` with the highest version <= `at_most`."""
        with self._lock:
            versions = self._by_game.get(game_id)
            if not versions:
                return None
            exact = versions.get(at_most)
            if exact is not None:
                self._states.move_to_end((game_id, at_most))
                return exact
            best = max((v for v in versions if v <= at_most), default=None)
            return None if best is None else versions[best]

    def forget(self, game_id: str) -> None:
        with self._lock:
            for version in self._by_game.pop(game_id, {}):
                del self._states[(game_id, version)]

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._by_game.clear()


class PendingSnapshots:
    """What one unit of work would change in the cache, applied only after commit."""

    def __init__(self, cache: SnapshotCache) -> None:
        self.cache = cache
        self._put: dict[tuple[str, int], GameState] = {}
        self._forget: set[str] = set()

    def latest(self, game_id: str, at_most: int) -> GameState | None:
        """The newest state at or before `at_most`, this transaction's own first."""
        own = [s for (gid, v), s in self._put.items() if gid == game_id and v <= at_most]
        if own:
            return max(own, key=lambda s: s.version)
        if game_id in self._forget:
            return None
        return self.cache.latest(game_id, at_most)

    def put(self, game_id: str, state: GameState) -> None:
        self._put[(game_id, state.version)] = state

    def forget(self, game_id: str) -> None:
        self._forget.add(game_id)
        self._put = {k: s for k, s in self._put.items() if k[0] != game_id}

    def publish(self) -> None:
        """Called once the transaction has committed."""
        for game_id in self._forget:
            self.cache.forget(game_id)
        for (game_id, _), state in self._put.items():
            self.cache.put(game_id, state)
