"""The metrics server: the Prometheus metrics of every process of the node, summed
(prometheus_client's multiprocess mode: each process writes its values to files in
``PROMETHEUS_MULTIPROC_DIR``), on ``SQUARES_METRICS_HOST:SQUARES_METRICS_PORT`` and
never on the app's port.

granian serves it with one worker and `THREADS` threads: idle connections hold no
thread, and request headers that do not arrive within `HEADER_TIMEOUT_S` close the
connection, so the endpoint's threads and reads are bounded whoever connects.
"""

from __future__ import annotations

import sys
from typing import Any

THREADS = 2
HEADER_TIMEOUT_S = 5


def create() -> Any:
    """The WSGI app (granian's ``--factory`` target)."""
    from prometheus_client import make_wsgi_app

    from ..ops.metrics import multiprocess_registry

    return make_wsgi_app(multiprocess_registry())


def command(host: str, port: int) -> list[str]:
    return [
        sys.executable, "-m", "granian",
        "--interface", "wsgi", "--factory", "service.serve.metrics_server:create",
        "--host", host, "--port", str(port), "--workers", "1",
        "--blocking-threads", str(THREADS), "--http", "1", "--no-ws",
        "--http1-header-read-timeout", str(HEADER_TIMEOUT_S * 1000),
        "--workers-kill-timeout", "2", "--log-level", "warning",
    ]
