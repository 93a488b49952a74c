"""``squares serve``: migrate, then run gunicorn (or a single-process fallback)."""

from __future__ import annotations

import importlib.util
import os
import sys
import tempfile
from pathlib import Path

import click

from .context import AppContext, pass_app
from .output import safe_url


def gunicorn_available() -> bool:
    return importlib.util.find_spec("gunicorn") is not None


ASGI_TARGET = "service.asgi:create_asgi_app()"
WORKER_CLASS = "service.server.Worker"
GUNICORN_HOOKS = "python:service.gunicorn_conf"


def gunicorn_cli_flags() -> set[str]:
    """The command-line flags this gunicorn knows."""
    from gunicorn.config import KNOWN_SETTINGS

    return {flag for setting in KNOWN_SETTINGS for flag in (setting.cli or [])}


def gunicorn_argv(host: str, port: int, workers: int) -> list[str]:
    """gunicorn's master with uvicorn workers (`service.server`): requests run on each
    worker's thread pool, open live streams wait on its event loop."""
    from service.server import GRACEFUL_TIMEOUT_S

    argv = [
        sys.executable, "-m", "gunicorn",
        "--workers", str(workers),
        "--worker-class", WORKER_CLASS,
        "--bind", f"{host}:{port}",
        "--graceful-timeout", str(GRACEFUL_TIMEOUT_S),
        "--config", GUNICORN_HOOKS,
    ]
    # Newer gunicorns open a control socket at one fixed path in $HOME; two servers
    # (or tests) would fight over it, and nothing here uses it.
    if "--no-control-socket" in gunicorn_cli_flags():
        argv.append("--no-control-socket")
    return [*argv, ASGI_TARGET]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="gunicorn worker processes.")
@click.option("--threads", default=8, show_default=True, type=click.IntRange(1, 1000),
              help="Request threads per worker (open live streams need none).")
@click.option("--no-gunicorn", "single", is_flag=True,
              help="Serve from this process with werkzeug instead of gunicorn.")
@pass_app
def serve(app: AppContext, host: str, port: int, workers: int, threads: int,
          single: bool) -> None:
    """Serve the game over HTTP (migrates the database first).

    gunicorn's master with uvicorn workers when gunicorn is installed
    (``--no-gunicorn`` or a missing gunicorn: one uvicorn process).
    """
    settings_problem = _check_settings(port)
    if settings_problem is not None:
        raise click.UsageError(settings_problem)
    app.migrate()
    # create_app() reads it, also in the gunicorn workers; absolute (see AppContext), so
    # the workers open the file just migrated whatever directory they run in.
    os.environ["DATABASE_URL"] = app.url
    os.environ["SQUARES_THREADS"] = str(threads)
    if not single and gunicorn_available():
        _prepare_metrics_dir()
        argv = gunicorn_argv(host, port, workers)
        click.echo(f"serving {safe_url(app.url)} with gunicorn on http://{host}:{port}", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, argv, os.environ)
    _run_single(host, port)


def _check_settings(port: int) -> str | None:
    """Why the logging, metrics or export key settings cannot work, or None. The
    export key file is created here, at the first start (`service.export_keys`)."""
    from service import config, export_keys, logs
    from service.errors import BadSetting

    try:
        logs.log_format()
        metrics_port = config.metrics_port()
        export_keys.known_secrets()
    except ValueError as exc:
        return str(exc)
    except BadSetting as exc:
        return exc.message
    if metrics_port is not None and metrics_port == port:
        return (f"SQUARES_METRICS_PORT={metrics_port} is the app's own port: metrics are "
                "served on a port of their own")
    return None


def _prepare_metrics_dir() -> None:
    """With metrics on, the workers write them to files in ``PROMETHEUS_MULTIPROC_DIR``
    that the master sums (`service.gunicorn_conf`): a fresh directory of our own
    (removed when gunicorn exits), or the one given, emptied of an earlier run's."""
    from service import config
    from service.gunicorn_conf import OWNED_DIR_ENV
    from service.metrics import MULTIPROC_DIR_ENV

    if config.metrics_port() is None:
        os.environ.pop(MULTIPROC_DIR_ENV, None)  # each worker counts in memory alone
        return
    given = os.environ.get(MULTIPROC_DIR_ENV)
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
        for old in Path(given).glob("*.db"):
            old.unlink()
        return
    os.environ[MULTIPROC_DIR_ENV] = tempfile.mkdtemp(prefix="squares-metrics-")
    os.environ[OWNED_DIR_ENV] = "1"


def _run_single(host: str, port: int) -> None:
    import uvicorn

    from service import config, logs
    from service.server import uvicorn_settings

    click.echo(f"serving on http://{host}:{port} (single process)", err=True)
    logs.configure()
    metrics_port = config.metrics_port()
    if metrics_port is not None:
        from prometheus_client import start_http_server

        start_http_server(metrics_port, config.metrics_host())
    uvicorn.run(ASGI_TARGET.removesuffix("()"), factory=True, host=host, port=port,
                **uvicorn_settings())
