"""The real service in processes of its own on a loopback port, for benchmarks and tests.

`running_server(url)` migrates the database at `url` (Alembic upgrade head), starts
the server as ``squares serve`` does (gunicorn with its uvicorn workers, 2 of them,
on 127.0.0.1:<free port>) in its own process group with ``DATABASE_URL=url``, waits
for ``GET /healthz`` and yields a `Server`. At exit the whole process group is
stopped (SIGTERM, then SIGKILL), also after a failure or after a test has already
killed the master with ``kill -9``. `start_server` is the same without the
migration and the ``with``.

`launch` (and `serving`, its ``with``) runs any command line that serves on a port it
is given (``squares serve --port N``, the installed wheel's ``squares``, a shell line
for comparisons) the same way, and `wait_for_health` is the one wait for ``/healthz``
they all use.

Databases are the caller's: ``benchmarks/load.py --postgres`` uses a throwaway
cluster (`squares_testing.throwaway_postgres`), the reliability tests a fresh
database from `tests/databases.py`.

Only 127.0.0.1 is ever used.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from squares_testing.net import HOST, free_port, http_get_status
from squares_testing.processes import child_pids, cpu_seconds, group_alive, status_kb

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = REPO / ".venv" / "bin"


def gunicorn_command() -> list[str]:
    exe = VENV_BIN / "gunicorn"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-m", "gunicorn"]


def gunicorn_options() -> list[str]:
    """No shared control socket (gunicorn 27 puts one in ~/.gunicorn by default)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        major = int(version("gunicorn").split(".")[0])
    except (PackageNotFoundError, ValueError):
        return []
    return ["--no-control-socket"] if major >= 27 else []


def squares_command() -> list[str]:
    """The ``squares`` CLI of this interpreter's environment."""
    exe = Path(sys.executable).parent / "squares"
    if exe.exists():
        return [str(exe)]
    exe = VENV_BIN / "squares"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-c", "from cli.main import cli; cli()"]


def wait_for_health(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0,
                    log: Callable[[], str] = str) -> None:
    """Until ``GET /healthz`` on `port` answers 200; RuntimeError (with `log()`, e.g.
    the server's log tail) when `proc` exits first or `timeout` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}:\n{log()}")
        if http_get_status(port, "/healthz", timeout=2.0) == 200:
            return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer /healthz in {timeout:g} s:\n{log()}")


@dataclass
class Server:
    """A running server (gunicorn's master, or any process serving the app): its
    process, port, database and log file (and stderr's, when apart)."""

    proc: subprocess.Popen[bytes]
    port: int
    database_url: str
    log_path: Path
    workers: int
    killed: list[int] = field(default_factory=list)
    err_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def master_pid(self) -> int:
        return self.proc.pid

    def worker_pids(self) -> list[int]:
        return child_pids(self.master_pid)

    def wait_workers(self, count: int | None = None, timeout: float = 30.0) -> list[int]:
        """Wait until the master has `count` (default: all) workers; return their pids."""
        want = self.workers if count is None else count
        deadline = time.monotonic() + timeout
        while True:
            pids = self.worker_pids()
            if len(pids) >= want:
                return pids
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn has {len(pids)} workers, not {want}:\n"
                                   + self.log_tail())
            time.sleep(0.05)

    def wait_healthy(self, timeout: float = 60.0) -> None:
        wait_for_health(self.port, self.proc, timeout, self.log_tail)

    def peak_rss_kb(self) -> dict[int, int]:
        """VmHWM (peak resident set, kB) of every live worker."""
        peaks = {}
        for pid in self.worker_pids():
            value = status_kb(pid, "VmHWM")
            if value is not None:
                peaks[pid] = value
        return peaks

    def cpu_seconds(self) -> float:
        """User + system CPU time used so far by the master and its live workers."""
        return sum(cpu_seconds(pid) for pid in [self.master_pid, *self.worker_pids()])

    def kill9(self, pid: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        self.killed.append(pid)

    def kill9_master(self) -> None:
        self.kill9(self.master_pid)
        self.proc.wait(timeout=30)

    def kill9_all(self) -> None:
        """kill -9 the master and every process left in its group (a machine crash)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.master_pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=30)

    def stop(self, grace: float = 15.0) -> None:
        """SIGTERM the process group, SIGKILL after `grace` seconds; idempotent."""
        pgid = self.master_pid
        if self.proc.poll() is not None and not group_alive(pgid):
            return  # already gone (and its group id must not be signalled again)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace)
        # orphaned workers (the master was killed) or a master that did not stop
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=15)
        deadline = time.monotonic() + 15
        while group_alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.05)

    def log_tail(self, chars: int = 4000) -> str:
        tails = []
        for path in (self.log_path, self.err_path):
            if path is not None:
                with contextlib.suppress(OSError):
                    tails.append(path.read_text(errors="replace")[-chars:])
        return "\n".join(tails)


def launch(command: Callable[[int], Sequence[str] | str], *, log_path: Path,
           env: Mapping[str, str] | None = None, cwd: Path = REPO, port: int | None = None,
           timeout: float = 60.0, workers: int = 0, database_url: str = "",
           err_path: Path | None = None) -> Server:
    """Run `command(port)` (a shell command line when it is a string) in its own process
    group, output to `log_path` (stderr to `err_path` when given); wait for /healthz
    and, with `workers`, for that many child processes. On a free port unless `port`
    is given: up to 3 of them when one is taken meanwhile."""
    last_error: Exception | None = None
    for _attempt in range(1 if port is not None else 3):
        port_now = free_port() if port is None else port
        argv = command(port_now)
        with log_path.open("ab") as log, contextlib.ExitStack() as stack:
            err = log if err_path is None else stack.enter_context(err_path.open("ab"))
            proc = subprocess.Popen(argv, shell=isinstance(argv, str), cwd=cwd,
                                    env=None if env is None else dict(env),
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=err,
                                    start_new_session=True)
        server = Server(proc, port_now, database_url, log_path, workers, err_path=err_path)
        try:
            server.wait_healthy(timeout)
            if workers:
                server.wait_workers(workers, timeout)
            return server
        except RuntimeError as exc:
            server.stop()
            last_error = exc
            if "already in use" not in server.log_tail():
                break
    assert last_error is not None
    raise last_error


@contextlib.contextmanager
def serving(command: Callable[[int], Sequence[str] | str], **options: Any) -> Iterator[Server]:
    """`launch(command, **options)`, always stopped at exit."""
    server = launch(command, **options)
    try:
        yield server
    finally:
        server.stop()


def migrate_database(url: str) -> None:
    """Alembic upgrade head on `url` (the same migrations as ``squares db upgrade``)."""
    from service.store import migrate

    migrate(url)


def server_command(port: int, workers: int, app: str | None,
                   extra_args: tuple[str, ...], log_path: Path) -> list[str]:
    """``squares serve``'s own gunicorn command line (its worker class, its ASGI app),
    or, given a WSGI `app`, plain gunicorn on it (the profiler's)."""
    logging = ["--timeout", "120", "--error-logfile", str(log_path)]
    if app is None:
        from cli.serve import gunicorn_argv

        argv = gunicorn_argv(HOST, port, workers)
        return [*argv[:-1], *logging, *extra_args, argv[-1]]
    return [*gunicorn_command(), "--workers", str(workers), "--bind", f"{HOST}:{port}",
            "--graceful-timeout", "5", *logging, *gunicorn_options(), *extra_args, app]


# Many clients share one address here: no per-address limits unless asked for.
PER_CLIENT_LIMITS_OFF = {"SQUARES_RATELIMIT_ENABLED": "0", "SQUARES_ACTIVE_GAMES_PER_CLIENT": "0"}


def start_server(database_url: str, *, log_path: Path, workers: int = 2,
                 app: str | None = None, extra_args: tuple[str, ...] = (),
                 env: dict[str, str] | None = None, timeout: float = 60.0,
                 port: int | None = None, limits_off: bool = True) -> Server:
    """Start the server on `port` (default: a free one) on 127.0.0.1 as ``squares
    serve`` runs it (or a WSGI `app` under plain gunicorn); wait for /healthz and its
    workers. `limits_off`: without the per-address limits (`PER_CLIENT_LIMITS_OFF`).

    No migrations here (see `running_server`).
    """
    full_env = {**os.environ, **(PER_CLIENT_LIMITS_OFF if limits_off else {}),
                **(env or {}), "DATABASE_URL": database_url}
    full_env.pop("WEB_CONCURRENCY", None)
    return launch(lambda p: server_command(p, workers, app, extra_args, log_path),
                  log_path=log_path, env=full_env, port=port, timeout=timeout,
                  workers=workers, database_url=database_url)


@contextlib.contextmanager
def running_server(database_url: str, *, log_path: Path, migrate: bool = True,
                   workers: int = 2, app: str | None = None,
                   extra_args: tuple[str, ...] = (),
                   env: dict[str, str] | None = None) -> Iterator[Server]:
    """Migrate `database_url`, run the server on it; always stopped at exit."""
    if migrate:
        migrate_database(database_url)
    server = start_server(database_url, log_path=log_path, workers=workers, app=app,
                          extra_args=extra_args, env=env)
    try:
        yield server
    finally:
        server.stop()
