"""The app server: granian runs the Flask app (WSGI) on worker processes, one request
at a time in each (one thread).

Why granian: its HTTP/1.1 side is Rust (hyper), so a request costs the app's own
Python and little more (docs/figures.md: a bare request costs about half of what it
cost under gunicorn's uvicorn workers or its ``gthread`` worker), it reads request
headers with a timeout and a size limit, and it keeps idle connections without a
thread. Open live streams are the streams server's, never a thread's here.

Why one thread per worker: it was the fastest design measured (docs/figures.md: 2
workers x 1 thread against x 2 and x 4, and 3 workers). A worker's threads take
turns on its GIL, and a thread that holds the database's write lock waits for the
GIL behind the others, so more threads made every move slower and the lock busier.
What it costs: a request that reaches a worker whose thread waits (the write lock
held by another program, a frozen PostgreSQL) waits with it, at most the database's
patience of 5 s (tests/e2e/test_held_lock.py); ``--threads`` gives more.

What it guards against by itself, run bare: request headers that take longer than
``SQUARES_HEADER_TIMEOUT_S`` (default `HEADER_TIMEOUT_S`: the connection is closed),
headers larger than about twice `READ_BUFFER_BYTES` (431), a URL over its limit
(414), a body over the app's 64 KiB (413, `service.http.app`); idle connections hold no
thread. What needs the proxy in front (``deploy/nginx.conf``): a client that sends
its body slowly holds the worker's thread, so the worker, until the body is whole
(nginx reads whole bodies before it passes a request on), and the refusals above
come without the API's error shape.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

WORKERS = 2
THREADS = 1  # see the module docstring: one request at a time per worker
HEADER_TIMEOUT_S = 10
READ_BUFFER_BYTES = 64 * 1024
STOP_GRACE_S = 3  # requests still running then are cut off (ours take well under a second)


def create() -> Any:
    """The WSGI app of one worker (granian's ``--factory`` target), on the
    environment's settings. A stop signal that comes while it loads is kept
    (`late_stop`)."""
    from .late_stop import kept_while_loading

    with kept_while_loading():
        from ..http.app import create_app
        from ..ops import logs
        from ..ops.settings import Settings

        settings = Settings.from_env()
        logs.configure(settings.log_format)
        app = create_app(settings=settings)
    # What is loaded now (modules, the app, its settings: about 117,000 objects) lives
    # as long as the worker. Out of the cyclic collector's sight, a full collection
    # no longer walks it: one took 62 ms, a stall for every request the worker holds,
    # and 3 ms once frozen (docs/figures.md).
    gc.collect()
    gc.freeze()
    return app


FACTORY = "service.serve.app_server:create"


def command(host: str, port: int, workers: int = WORKERS, threads: int = THREADS,
            factory: str = FACTORY, header_timeout_s: float = HEADER_TIMEOUT_S) -> list[str]:
    """granian's command line for the app (`factory`: another app, e.g. profiled;
    `header_timeout_s`: the setting ``SQUARES_HEADER_TIMEOUT_S``)."""
    return [
        sys.executable, "-m", "granian",
        "--interface", "wsgi", "--factory", factory,
        "--host", host, "--port", str(port),
        "--workers", str(workers), "--blocking-threads", str(threads),
        "--http", "1", "--no-ws",
        # its I/O on a single-threaded runtime: 5 % less CPU a move and 8-9 % more
        # moves/s than granian's default here (docs/figures.md, 2026-11-28)
        "--runtime-mode", "st",
        "--http1-header-read-timeout", str(round(header_timeout_s * 1000)),
        "--http1-buffer-size", str(READ_BUFFER_BYTES),
        "--respawn-failed-workers",
        "--workers-kill-timeout", str(STOP_GRACE_S),
        "--log-level", "warning",
    ]
