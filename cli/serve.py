"""``squares serve``: migrate, then run gunicorn (or a single-process fallback)."""

from __future__ import annotations

import importlib.util
import os
import sys

import click

from service import config

from .context import AppContext, pass_app
from .output import safe_url


def gunicorn_available() -> bool:
    return importlib.util.find_spec("gunicorn") is not None


def wsgi_target() -> str:
    """``wsgi:app`` from the repository root, else (an installed wheel, which has no
    ``wsgi.py``) the app factory itself."""
    if (config.REPO_ROOT / "wsgi.py").exists():
        return "wsgi:app"
    return "service.app:create_app()"


def server_dir() -> str | None:
    """Where gunicorn runs: the repository root for ``wsgi:app``; None (stay in the
    current directory) for an installed wheel, where `config.REPO_ROOT` is
    site-packages. Either way the workers open the file just migrated: `AppContext`
    has made a relative SQLite path absolute against the directory `serve` started in."""
    return str(config.REPO_ROOT) if wsgi_target() == "wsgi:app" else None


def gunicorn_cli_flags() -> set[str]:
    """The command-line flags this gunicorn knows."""
    from gunicorn.config import KNOWN_SETTINGS

    return {flag for setting in KNOWN_SETTINGS for flag in (setting.cli or [])}


def gunicorn_argv(host: str, port: int, workers: int, threads: int = 32) -> list[str]:
    # gthread workers: a live stream (GET /api/games/{id}/live) holds a thread while it
    # is open, so each worker serves up to `threads` requests and streams at once.
    argv = [
        sys.executable, "-m", "gunicorn",
        "--workers", str(workers),
        "--worker-class", "gthread", "--threads", str(threads),
        "--bind", f"{host}:{port}",
        "--access-logfile", "-",
    ]
    if (directory := server_dir()) is not None:
        argv += ["--chdir", directory]
    # Newer gunicorns open a control socket at one fixed path in $HOME; two servers
    # (or tests) would fight over it, and nothing here uses it.
    if "--no-control-socket" in gunicorn_cli_flags():
        argv.append("--no-control-socket")
    return [*argv, wsgi_target()]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="gunicorn worker processes.")
@click.option("--threads", default=32, show_default=True, type=click.IntRange(1, 1000),
              help="Threads per worker: requests and open live streams at once.")
@click.option("--no-gunicorn", "single", is_flag=True,
              help="Serve from this process with werkzeug instead of gunicorn.")
@pass_app
def serve(app: AppContext, host: str, port: int, workers: int, threads: int,
          single: bool) -> None:
    """Serve the game over HTTP (migrates the database first).

    Uses gunicorn when it is installed (``--no-gunicorn`` or a missing gunicorn:
    werkzeug's single-process server).
    """
    app.migrate()
    # create_app() reads it, also in the gunicorn workers; absolute (see AppContext), so
    # the workers open the file just migrated whatever directory they run in.
    os.environ["DATABASE_URL"] = app.url
    if not single and gunicorn_available():
        argv = gunicorn_argv(host, port, workers, threads)
        click.echo(f"serving {safe_url(app.url)} with gunicorn on http://{host}:{port}", err=True)
        sys.stdout.flush()
        sys.stderr.flush()
        if (directory := server_dir()) is not None:
            os.chdir(directory)
        os.execve(sys.executable, argv, os.environ)
    _run_single(app.url, host, port)


def _run_single(url: str, host: str, port: int) -> None:
    from werkzeug.serving import run_simple

    from service.app import create_app

    click.echo(f"serving on http://{host}:{port} (single process)", err=True)
    run_simple(host, port, create_app({"DATABASE_URL": url}), threaded=True)
