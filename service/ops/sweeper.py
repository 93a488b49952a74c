"""The retention sweep in the background: every server process abandons the games
past their time (`Services.retention.abandon_stale`) every few minutes.

``init_app(app)`` starts one daemon thread per process (each app server worker
creates its own app), unless ``SQUARES_SWEEP_INTERVAL_S`` is 0. The
first sweep comes after a random part of the interval and each later one after the
interval ±25 %, so that workers and instances do not sweep in step; when they do,
the version check on each append lets one of them write each abandonment. Games are
also abandoned by their next read or command, and the lists (``/live``) and the cap
per address leave out games past their time before anything is written; the sweep
writes the events that the read model's status, the feeds and prune go by for the
games nobody visits again. The same sweep deletes the passkey ceremonies and the
sessions that ran out (`Services.accounts.sweep`): a ceremony is refused once past
its time anyway, a session too, so the sweep only keeps their tables small. A failed sweep (the database away) is logged and tried
again at the next interval.

The interval is the setting ``SQUARES_SWEEP_INTERVAL_S`` (300; 0: no background
sweep); the retention settings are checked with the others when a process starts
(`service.ops.settings`).
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

log = logging.getLogger(__name__)

INTERVAL_S = 300.0
JITTER = 0.25


class Sweeper:
    """A daemon thread that calls `sweep()` every `interval_s` seconds (jittered)."""

    def __init__(self, sweep: Any, interval_s: float) -> None:
        self._sweep = sweep
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.runs = 0

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="squares-sweeper",
                                            daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        delay = random.uniform(0.05, 1.0) * self.interval_s
        while not self._stop.wait(delay):
            self.run_once()
            delay = self.interval_s * random.uniform(1 - JITTER, 1 + JITTER)

    def run_once(self) -> None:
        try:
            result = self._sweep()
        except Exception:  # noqa: BLE001 - the next interval tries again
            log.exception("the retention sweep failed")
        else:
            if result.abandoned:
                log.info("retention sweep: %d games abandoned", len(result.abandoned))
        self.runs += 1


def init_app(app: Any, interval_s: float) -> Sweeper | None:
    """Start this process's sweeper, every `interval_s` (None when turned off:
    ``SQUARES_SWEEP_INTERVAL_S=0``)."""
    if interval_s == 0:
        return None
    services = app.extensions["squares"]

    def sweep() -> Any:
        swept = services.retention.abandon_stale()
        services.accounts.sweep()  # the passkey ceremonies and sessions that ran out
        return swept

    sweeper = Sweeper(sweep, interval_s)
    app.extensions["squares_sweeper"] = sweeper
    sweeper.start()
    return sweeper
