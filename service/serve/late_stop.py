"""A stop that comes while an app worker loads the app is kept, not lost.

granian (2.8) installs a worker's SIGINT / SIGTERM handlers only once the app is
loaded (the factory has returned). A stop signal that arrives before, while the worker
imports the app (about a second), went to the handler the worker inherited from
granian's master, which does nothing in a worker: the worker then served on and waited
for a signal that had come already, until the master killed it ``--workers-kill-timeout``
later. That made about half of the stops right after a start take 3 s instead of 0.04 s
(docs/figures.md). `kept_while_loading` notes such a signal and sends it to the worker
again until the worker's own handler, installed by then, stops it. (A signal in the few
milliseconds between the worker's fork and the factory is still lost: only granian can
close that window.)
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
RESEND_EVERY_S = 0.1
RESEND_TRIES = 50  # 5 s: the worker is gone long before (granian's handler acts at once)


@contextlib.contextmanager
def kept_while_loading() -> Iterator[None]:
    """Around loading the app in a worker's main thread: a stop signal received
    meanwhile is sent again once the block is over (from a daemon thread, every
    `RESEND_EVERY_S`, until the worker exits). Elsewhere (not the main thread: an app
    made in a test), nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []

    def keep(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)

    previous = {sig: signal.signal(sig, keep) for sig in STOP_SIGNALS}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if received:
        threading.Thread(target=_send_again, args=(received[0],), name="squares-late-stop",
                         daemon=True).start()


def _send_again(signum: int) -> None:
    for _ in range(RESEND_TRIES):
        time.sleep(RESEND_EVERY_S)
        os.kill(os.getpid(), signum)
