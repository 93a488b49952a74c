"""``squares serve``: migrate, then run the node's processes (`service.serve`)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from .context import AppContext, pass_app
from .output import safe_url


def analyst_wanted() -> bool:
    """``SQUARES_ANALYST``: 1 (the default) runs the analyst beside the servers, 0 not
    (another node reviews the games)."""
    raw = os.environ.get("SQUARES_ANALYST", "1").strip()
    if raw not in ("0", "1"):
        raise click.UsageError(f"SQUARES_ANALYST={raw!r}: 1 (review ended games, the "
                               "default) or 0 (no analyst on this node)")
    return raw == "1"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535),
              help="The app's port: pages and the API.")
@click.option("--live-port", type=click.IntRange(1, 65535), default=None,
              help="The live streams' port.  [default: --port + 1]")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="App server worker processes.")
@click.option("--threads", default=4, show_default=True, type=click.IntRange(1, 256),
              help="Request threads per app worker (open live streams need none).")
@pass_app
def serve(app: AppContext, host: str, port: int, live_port: int | None, workers: int,
          threads: int) -> None:
    """Serve the game over HTTP (migrates the database first): the app server on
    --port, the live streams on --live-port, and the analyst that reviews ended games.
    Stops on SIGTERM or Ctrl-C."""
    from service import config
    from service.ops import logs
    from service.serve import app_server, live_url, metrics_server, supervisor

    live_port = port + 1 if live_port is None else live_port
    problem = _check_settings(port, live_port)
    if problem is not None:
        raise click.UsageError(problem)
    with_analyst = analyst_wanted()
    app.migrate()
    # the children read these; absolute (see AppContext), so that they open the file
    # just migrated whatever directory they run in
    os.environ["DATABASE_URL"] = app.url
    os.environ.setdefault(live_url.ENV, f":{live_port}")
    children = [
        supervisor.Child("app server", app_server.command(host, port, workers, threads)),
        supervisor.Child("streams server", [
            sys.executable, "-m", "service.serve.streams_server",
            "--host", host, "--port", str(live_port)]),
    ]
    if with_analyst:
        children.append(supervisor.Child(
            "analyst", [sys.executable, "-m", "service.serve.analyst_process"], helper=True))
    metrics_port = config.metrics_port()
    _prepare_metrics_dir(metrics_port is not None)
    if metrics_port is not None:
        children.append(supervisor.Child(
            "metrics server", metrics_server.command(config.metrics_host(), metrics_port),
            helper=True))
    logs.configure()
    click.echo(f"serving {safe_url(app.url)}: the app on http://{host}:{port}, live "
               f"streams on http://{host}:{live_port}", err=True)
    try:
        status = supervisor.Supervisor(children, os.environ).run()
    finally:
        _remove_own_metrics_dir()
    sys.exit(status)


def _check_settings(port: int, live_port: int) -> str | None:
    """Why the ports, the logging, metrics, live or export key settings cannot work, or
    None. The export key file is created here, at the first start (`export_keys`)."""
    from service import config, export_keys
    from service.errors import BadSetting
    from service.ops import logs
    from service.serve import app_server, live_url

    try:
        logs.log_format()
        metrics_port = config.metrics_port()
        live_url.configured()
        app_server.header_timeout_s()
        export_keys.known_secrets()
    except ValueError as exc:
        return str(exc)
    except BadSetting as exc:
        return exc.message
    if live_port == port:
        return f"--live-port {live_port} is the app's own port: streams have a port of their own"
    if metrics_port is not None and metrics_port in (port, live_port):
        return (f"SQUARES_METRICS_PORT={metrics_port} is a port of the app or its streams: "
                "metrics are served on a port of their own")
    return None


OWNED_DIR_ENV = "SQUARES_METRICS_DIR_OWNED"  # "1": ``squares serve`` made the directory


def _prepare_metrics_dir(served: bool) -> None:
    """With metrics `served`, the processes write them to files in
    ``PROMETHEUS_MULTIPROC_DIR``, which the metrics server sums: a fresh directory of
    our own (removed at exit), or the one given, emptied of an earlier run's files.
    Without, each process counts in memory alone."""
    from service.ops.metrics import MULTIPROC_DIR_ENV

    if not served:
        os.environ.pop(MULTIPROC_DIR_ENV, None)
        return
    given = os.environ.get(MULTIPROC_DIR_ENV)
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        for old in Path(given).glob("*.db"):
            old.unlink()
        return
    os.environ[MULTIPROC_DIR_ENV] = tempfile.mkdtemp(prefix="squares-metrics-")
    os.environ[OWNED_DIR_ENV] = "1"


def _remove_own_metrics_dir() -> None:
    import shutil

    from service.ops.metrics import MULTIPROC_DIR_ENV

    directory = os.environ.get(MULTIPROC_DIR_ENV)
    if directory and os.environ.get(OWNED_DIR_ENV) == "1":
        shutil.rmtree(directory, ignore_errors=True)
