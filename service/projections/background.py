"""The analyst in the background of every server process (``squares serve``).

``init_app(app)`` starts a daemon thread that follows the events
(`analyst.Analyst.run`), unless ``SQUARES_ANALYST`` is 0 or the app is TESTING.
Every gunicorn worker starts one; the lease lets one of them work at a time, and
another takes over within the lease's time when that process goes. At exit the
thread is stopped and the lease given back, so a restart does not wait for it.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

from .analyst import Analyst


class Background:
    def __init__(self, analyst: Analyst) -> None:
        self.analyst = analyst
        self._stop = threading.Event()
        self._thread = threading.Thread(target=analyst.run, args=(self._stop,),
                                        name="squares-analyst", daemon=True)

    def start(self) -> None:
        self._thread.start()
        atexit.register(self.stop)

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._thread.join(timeout)


def enabled(app: Any) -> bool:
    app.config.setdefault("SQUARES_ANALYST", os.environ.get("SQUARES_ANALYST", "1"))
    raw = str(app.config["SQUARES_ANALYST"]).strip()
    if raw not in ("0", "1"):
        raise ValueError(f"SQUARES_ANALYST={raw!r}: 1 (review ended games, the default) "
                         "or 0 (no analyst in this process)")
    return raw == "1" and not app.testing


def init_app(app: Any) -> Background | None:
    if not enabled(app):
        return None
    background = Background(Analyst(app.extensions["squares"].store))
    app.extensions["squares_analyst"] = background
    background.start()
    return background
