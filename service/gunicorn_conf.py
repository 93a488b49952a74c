"""gunicorn's hooks for ``squares serve`` (``--config python:service.gunicorn_conf``):
the master serves the metrics every worker wrote (prometheus_client's multiprocess
mode; `service.metrics`) and forgets the live gauges of a worker that exited."""

from __future__ import annotations

import os
import shutil
from typing import Any

from prometheus_client import multiprocess, start_http_server

# (gunicorn reads every global of this module as a setting: no `config` here)
from service import metrics
from service.config import metrics_host, metrics_port

OWNED_DIR_ENV = "SQUARES_METRICS_DIR_OWNED"  # "1": ``squares serve`` made the directory


def when_ready(server: Any) -> None:
    port = metrics_port()
    if port is None or metrics.multiprocess_dir() is None:
        return
    host = metrics_host()
    start_http_server(port, host, registry=metrics.multiprocess_registry())
    server.log.info("metrics on http://%s:%d/metrics", host, port)


def child_exit(server: Any, worker: Any) -> None:
    if metrics.multiprocess_dir() is not None:
        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Any) -> None:
    directory = metrics.multiprocess_dir()
    if directory is not None and os.environ.get(OWNED_DIR_ENV) == "1":
        shutil.rmtree(directory, ignore_errors=True)
