"""A per-process cache of hints, keyed by (game id, version).

A hint is a pure function of a committed state, and a version of a game names one
committed state everywhere, so a cached hint is never stale; its only cost is memory
(a bounded LRU). The ``hint_used`` a first hint appends changes nothing a hint depends
on, so the hint is also kept under the version after it (`put`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from ..domain.commands import Command

HINT_CAPACITY = 1024


class HintCache:
    def __init__(self, capacity: int = HINT_CAPACITY) -> None:
        self.capacity = capacity
        self._hints: OrderedDict[tuple[str, int], Command] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_compute(self, key: tuple[str, int], compute: Callable[[], Command]) -> Command:
        with self._lock:
            hint = self._hints.get(key)
            if hint is not None:
                self._hints.move_to_end(key)
                return hint
        hint = compute()  # outside the lock: two threads may both compute; same answer
        self.put(key, hint)
        return hint

    def put(self, key: tuple[str, int], hint: Command) -> None:
        with self._lock:
            self._hints[key] = hint
            self._hints.move_to_end(key)
            while len(self._hints) > self.capacity:
                self._hints.popitem(last=False)
