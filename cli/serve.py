"""``squares serve``: migrate, then run the node's processes (`service.serve`)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import click

from service.ops.settings import Settings
from service.serve.app_server import THREADS, WORKERS

from .context import AppContext, pass_app
from .output import safe_url


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535),
              help="The app's port: pages and the API.")
@click.option("--live-port", type=click.IntRange(1, 65535), default=None,
              help="The live streams' port.  [default: --port + 1]")
@click.option("--workers", default=WORKERS, show_default=True, type=click.IntRange(1, 64),
              help="App server worker processes.")
@click.option("--threads", default=THREADS, show_default=True, type=click.IntRange(1, 256),
              help="Request threads per app worker (open live streams need none).")
@pass_app
def serve(app: AppContext, host: str, port: int, live_port: int | None, workers: int,
          threads: int) -> None:
    """Serve the game over HTTP (migrates the database first): the app server on
    --port, the live streams on --live-port, and the analyst that reviews ended games.
    Stops on SIGTERM or Ctrl-C."""
    from service.ops import live_url, logs
    from service.serve import app_server, metrics_server, supervisor

    settings = app.settings
    live_port = port + 1 if live_port is None else live_port
    problem = _check_settings(settings, host, port, live_port)
    if problem is not None:
        raise click.UsageError(problem)
    app.migrate()
    # the children read their settings from the environment they inherit: the
    # database just migrated (absolute, see AppContext, whatever directory they run
    # in) and where the pages open live streams
    os.environ["DATABASE_URL"] = app.url
    if not settings.live_url:
        os.environ[live_url.ENV] = f":{live_port}"
    children = [
        supervisor.Child("app server", app_server.command(
            host, port, workers, threads, header_timeout_s=settings.header_timeout_s)),
        supervisor.Child("streams server", [
            sys.executable, "-m", "service.serve.streams_server",
            "--host", host, "--port", str(live_port)]),
    ]
    if settings.analyst:
        children.append(supervisor.Child(
            "analyst", [sys.executable, "-m", "service.serve.analyst_process"], helper=True))
    owned = _prepare_metrics_dir(settings)
    if settings.metrics_port is not None:
        children.append(supervisor.Child(
            "metrics server",
            metrics_server.command(settings.metrics_host, settings.metrics_port),
            helper=True))
    logs.configure(settings.log_format)
    click.echo(f"serving {safe_url(app.url)}: the app on http://{host}:{port}, live "
               f"streams on http://{host}:{live_port}", err=True)
    try:
        status = supervisor.Supervisor(children).run()
    finally:
        if owned is not None:
            shutil.rmtree(owned, ignore_errors=True)
    sys.exit(status)


def _check_settings(settings: Settings, host: str, port: int, live_port: int) -> str | None:
    """Why the address, the ports or the export keys cannot work, or None (every other
    setting was checked when they were read). The export key file is created here, at
    the first start (`export_keys`)."""
    from service.errors import BadSetting
    from service.ops import hosts
    from service.services import export_keys

    bound = f"[{host}]" if ":" in host and not host.startswith("[") else host
    if settings.trusted_hosts == hosts.LOOPBACK and not hosts.LOOPBACK.allows(bound):
        # other machines would reach it by names it refuses: fail now, not on each request
        return (f"--host {host} serves other machines, but without SQUARES_PUBLIC_URL or "
                f"{hosts.ENV} requests are answered only when they name "
                f"{hosts.LOOPBACK_NAMES} (the rest get 400): set SQUARES_PUBLIC_URL to the "
                f"address players use, or {hosts.ENV} to the names and addresses "
                "they reach this machine by")

    try:
        export_keys.known_secrets(settings)
    except BadSetting as exc:
        return exc.message
    if live_port == port:
        return f"--live-port {live_port} is the app's own port: streams have a port of their own"
    if settings.metrics_port is not None and settings.metrics_port in (port, live_port):
        return (f"SQUARES_METRICS_PORT={settings.metrics_port} is a port of the app or its "
                "streams: metrics are served on a port of their own")
    return None


def _prepare_metrics_dir(settings: Settings) -> str | None:
    """With metrics served, the processes write them to files in
    ``PROMETHEUS_MULTIPROC_DIR``, which the metrics server sums: a fresh directory of
    our own (returned, to be removed at exit), or the one given, emptied of an earlier
    run's files. Without, each process counts in memory alone."""
    from service.ops.metrics import MULTIPROC_DIR_ENV

    if settings.metrics_port is None:
        os.environ.pop(MULTIPROC_DIR_ENV, None)
        return None
    if settings.metrics_dir:
        Path(settings.metrics_dir).mkdir(parents=True, exist_ok=True)
        for old in Path(settings.metrics_dir).glob("*.db"):
            old.unlink()
        return None
    os.environ[MULTIPROC_DIR_ENV] = made = tempfile.mkdtemp(prefix="squares-metrics-")
    return made
