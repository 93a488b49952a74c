"""A heartbeat: a call repeated in a thread of its own while a block of work runs.

The analyst renews its lease with one while it reviews a game (`analyst.Analyst`), so
a long review keeps the lease and another analyst waits instead of taking the game
over; a process that stops (SIGSTOP, a long pause) stops beating, its lease runs out,
and its late step is refused by the checkpoint's compare-and-set.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from types import TracebackType

log = logging.getLogger(__name__)


class Heartbeat:
    """``with Heartbeat(beat, every_s):`` calls `beat()` every `every_s` seconds until
    the block ends, or until `beat` returns False (nothing left to keep). A failing
    beat is logged and tried again at the next one."""

    def __init__(self, beat: Callable[[], bool], every_s: float, name: str = "heartbeat") -> None:
        self.beat = beat
        self.every_s = every_s
        self.beats = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                kept = self.beat()
            except Exception:  # noqa: BLE001 - the work goes on; the next beat may do
                log.warning("heartbeat failed; trying again in %s s", self.every_s,
                            exc_info=True)
                continue
            self.beats += 1
            if not kept:
                return
