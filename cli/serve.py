"""``squares serve``: migrate, then run gunicorn (or a single-process fallback)."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys

import click

from .context import AppContext, pass_app
from .output import safe_url


def gunicorn_available() -> bool:
    return importlib.util.find_spec("gunicorn") is not None


ASGI_TARGET = "service.asgi:create_asgi_app()"
WORKER_CLASS = "service.server.Worker"


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
        "--access-logfile", "-",
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
@click.option("--threads", default=32, show_default=True, type=click.IntRange(1, 1000),
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
    app.migrate()
    # create_app() reads it, also in the gunicorn workers; absolute (see AppContext), so
    # the workers open the file just migrated whatever directory they run in.
    os.environ["DATABASE_URL"] = app.url
    os.environ["SQUARES_THREADS"] = str(threads)
    if not single and gunicorn_available():
        argv = gunicorn_argv(host, port, workers)
        click.echo(f"serving {safe_url(app.url)} with gunicorn on http://{host}:{port}", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, argv, os.environ)
    _run_single(host, port)


def _run_single(host: str, port: int) -> None:
    import uvicorn

    from service import access_log
    from service.server import uvicorn_settings

    click.echo(f"serving on http://{host}:{port} (single process)", err=True)
    access = logging.getLogger(access_log.log.name)
    access.addHandler(logging.StreamHandler(sys.stdout))
    access.setLevel(logging.INFO)
    uvicorn.run(ASGI_TARGET.removesuffix("()"), factory=True, host=host, port=port,
                **uvicorn_settings())
