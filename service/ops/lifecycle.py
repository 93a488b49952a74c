"""What an app holds open besides its requests (threads, pools, connections), and the
one way to let it go: each `init_app` that opens something registers its close
(`on_close`); a test or a benchmark that made the app calls `close(app)` once when
done with it. A server's worker process just exits: what it opened dies with it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

CLOSERS = "squares_closers"


def on_close(app: Any, close: Callable[[], object]) -> None:
    """Have `close(app)` call `close` (the last registered first)."""
    app.extensions.setdefault(CLOSERS, []).append(close)


def close(app: Any) -> None:
    """Call every registered close once, the last registered first; one that fails
    is logged and the others still run."""
    closers: list[Callable[[], object]] = app.extensions.pop(CLOSERS, [])
    for closer in reversed(closers):
        try:
            closer()
        except Exception:  # noqa: BLE001 - the rest must still be let go
            log.exception("closing the app: %r failed", closer)
