"""The real service in processes of its own on loopback ports, for benchmarks and tests.

`running_server(url)` migrates the database at `url` (Alembic upgrade head), starts
``squares serve`` as shipped (the app server with its 2 workers on 127.0.0.1:<free
port>, the streams server on the next port, the analyst) in its own process group
with ``DATABASE_URL=url``, waits for ``GET /healthz`` on both ports and yields a
`Server`. At exit the server is stopped (SIGTERM, then SIGKILL to its process groups:
its own and its children's, which ``squares serve`` starts in groups of their own),
also after a failure or after a test has already killed ``squares serve`` with
``kill -9``.
`start_server` is the same without the migration and the ``with``.

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

from squares_testing.net import HOST, free_port, free_port_pair, http_get_status
from squares_testing.processes import (
    child_pids,
    cpu_seconds,
    descendants,
    group_alive,
    status_kb,
)

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = REPO / ".venv" / "bin"
APP_SERVER = "service.serve.app_server"  # in the app server's command line


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


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@dataclass
class Server:
    """A running server (``squares serve``, or any process serving the app): its
    process, ports, database and log file (and stderr's, when apart)."""

    proc: subprocess.Popen[bytes]
    port: int
    database_url: str
    log_path: Path
    workers: int
    killed: list[int] = field(default_factory=list)
    err_path: Path | None = None
    live_port: int | None = None  # the streams server's (``squares serve``: port + 1)
    # the process groups of the server and its children (`note_groups`)
    groups: set[int] = field(default_factory=set)

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def live_url(self) -> str:
        """Where the live streams are served (the app's own port for other servers)."""
        return f"http://{HOST}:{self.live_port or self.port}"

    @property
    def master_pid(self) -> int:
        return self.proc.pid

    def processes(self) -> list[int]:
        """Every live process of the server."""
        return [self.master_pid, *descendants(self.master_pid)]

    def app_server_pid(self) -> int | None:
        """The app server's own process (granian's, which runs the workers), or None
        when the server is not ``squares serve``."""
        for pid in child_pids(self.master_pid):
            if APP_SERVER in _cmdline(pid):
                return pid
        return None

    def worker_pids(self) -> list[int]:
        """The processes that answer the app's requests: the app server's workers
        (a plain server's children)."""
        app_server = self.app_server_pid()
        return child_pids(self.master_pid if app_server is None else app_server)

    def wait_workers(self, count: int | None = None, timeout: float = 30.0) -> list[int]:
        """Wait until the app server has `count` (default: all) workers; their pids."""
        want = self.workers if count is None else count
        deadline = time.monotonic() + timeout
        while True:
            pids = self.worker_pids()
            if len(pids) >= want:
                return pids
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the app server has {len(pids)} workers, not {want}:\n"
                                   + self.log_tail())
            time.sleep(0.05)

    def wait_healthy(self, timeout: float = 60.0) -> None:
        wait_for_health(self.port, self.proc, timeout, self.log_tail)
        if self.live_port is not None:
            wait_for_health(self.live_port, self.proc, timeout, self.log_tail)

    def wait_workers_idle(self, timeout: float = 30.0, quiet_s: float = 0.5) -> None:
        """Until every app worker has used no CPU for `quiet_s` (each has loaded the
        app: a worker answers ``/healthz`` only once it has, and the first answer may
        come from either); AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        pids = self.wait_workers(timeout=timeout)
        used = [cpu_seconds(pid) for pid in pids]
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < quiet_s:
            assert time.monotonic() < deadline, "the app workers did not settle"
            time.sleep(0.1)
            now = [cpu_seconds(pid) for pid in pids]
            if now != used:
                used, quiet_since = now, time.monotonic()

    def peak_rss_kb(self) -> dict[int, int]:
        """VmHWM (peak resident set, kB) of every live app worker."""
        peaks = {}
        for pid in self.worker_pids():
            value = status_kb(pid, "VmHWM")
            if value is not None:
                peaks[pid] = value
        return peaks

    def cpu_seconds(self) -> float:
        """User + system CPU time used so far by every live process of the server."""
        return sum(cpu_seconds(pid) for pid in self.processes())

    def kill9(self, pid: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        self.killed.append(pid)

    def kill9_master(self) -> None:
        self.note_groups()
        self.kill9(self.master_pid)
        self.proc.wait(timeout=30)

    def note_groups(self) -> None:
        """Remember the process groups of the server's processes as they are now
        (``squares serve`` starts each child in a group of its own), so that they can
        be killed once the server's own process is gone and its children orphaned."""
        self.groups.add(self.master_pid)
        for pid in descendants(self.master_pid):
            with contextlib.suppress(ProcessLookupError):
                self.groups.add(os.getpgid(pid))

    def _live_groups(self) -> list[int]:
        return [pgid for pgid in {self.master_pid, *self.groups} if group_alive(pgid)]

    def kill9_all(self) -> None:
        """kill -9 every process of the server's groups (a machine crash)."""
        self.note_groups()
        for pgid in self._live_groups():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=30)

    def stop(self, grace: float = 15.0) -> None:
        """SIGTERM the server's own process (it stops its children), SIGKILL to its
        process groups after `grace` seconds; idempotent."""
        if self.proc.poll() is None:
            self.note_groups()
        elif not self._live_groups():
            return  # already gone (and its group ids must not be signalled again)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.master_pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace)
        # orphaned children (the master was killed) or a master that did not stop
        for pgid in self._live_groups():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=15)
        deadline = time.monotonic() + 15
        while self._live_groups() and time.monotonic() < deadline:
            time.sleep(0.05)

    def _logs(self) -> list[str]:
        texts = []
        for path in (self.log_path, self.err_path):
            if path is not None:
                with contextlib.suppress(OSError):
                    texts.append(path.read_text(errors="replace"))
        return texts

    def log_text(self) -> str:
        """The whole log (and stderr's file, when apart)."""
        return "\n".join(self._logs())

    def log_tail(self, chars: int = 4000) -> str:
        return "\n".join(text[-chars:] for text in self._logs())


def launch(command: Callable[[int], Sequence[str] | str], *, log_path: Path,
           env: Mapping[str, str] | None = None, cwd: Path = REPO, port: int | None = None,
           timeout: float = 60.0, workers: int = 0, database_url: str = "",
           err_path: Path | None = None, live: bool = False) -> Server:
    """Run `command(port)` (a shell command line when it is a string) in its own process
    group, output to `log_path` (stderr to `err_path` when given); wait for /healthz
    (with `live`, on port + 1 too: ``squares serve``'s streams) and, with `workers`,
    for that many app workers. On a free port unless `port` is given: up to 3 of them
    when one is taken meanwhile."""
    last_error: Exception | None = None
    for _attempt in range(1 if port is not None else 3):
        port_now = port if port is not None else (free_port_pair() if live else free_port())
        argv = command(port_now)
        with log_path.open("ab") as log, contextlib.ExitStack() as stack:
            err = log if err_path is None else stack.enter_context(err_path.open("ab"))
            proc = subprocess.Popen(argv, shell=isinstance(argv, str), cwd=cwd,
                                    env=None if env is None else dict(env),
                                    stdin=subprocess.DEVNULL, stdout=log, stderr=err,
                                    start_new_session=True)
        server = Server(proc, port_now, database_url, log_path, workers, err_path=err_path,
                        live_port=port_now + 1 if live else None)
        try:
            server.wait_healthy(timeout)
            if workers:
                server.wait_workers(workers, timeout)
            server.note_groups()
            return server
        except RuntimeError as exc:
            server.stop()
            last_error = exc
            # the whole log: with RUST_BACKTRACE set, granian's backtrace after the
            # bind error is longer than a log tail
            if "already in use" not in server.log_text():
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


def serve_command(port: int, workers: int, extra_args: Sequence[str] = ()) -> list[str]:
    """``squares serve`` on `port` (its streams on port + 1) with `workers` app workers."""
    return [*squares_command(), "serve", "--host", HOST, "--port", str(port),
            "--workers", str(workers), *extra_args]


# Many clients share one address here: no per-address limits unless asked for.
PER_CLIENT_LIMITS_OFF = {"SQUARES_RATELIMIT_ENABLED": "0", "SQUARES_ACTIVE_GAMES_PER_CLIENT": "0"}


def start_server(database_url: str, *, log_path: Path, workers: int = 2,
                 extra_args: Sequence[str] = (), env: dict[str, str] | None = None,
                 timeout: float = 60.0, port: int | None = None,
                 limits_off: bool = True) -> Server:
    """Start ``squares serve`` on `port` (default: a free one, its streams on the next)
    on 127.0.0.1; wait for /healthz on both and for its app workers. `limits_off`:
    without the per-address limits (`PER_CLIENT_LIMITS_OFF`).

    No migrations here (see `running_server`).
    """
    full_env = {**os.environ, **(PER_CLIENT_LIMITS_OFF if limits_off else {}),
                **(env or {}), "DATABASE_URL": database_url}
    return launch(lambda p: serve_command(p, workers, extra_args), log_path=log_path,
                  env=full_env, port=port, timeout=timeout, workers=workers,
                  database_url=database_url, live=True)


@contextlib.contextmanager
def running_server(database_url: str, *, log_path: Path, migrate: bool = True,
                   workers: int = 2, extra_args: Sequence[str] = (),
                   env: dict[str, str] | None = None) -> Iterator[Server]:
    """Migrate `database_url`, run ``squares serve`` on it; always stopped at exit."""
    if migrate:
        migrate_database(database_url)
    server = start_server(database_url, log_path=log_path, workers=workers,
                          extra_args=extra_args, env=env)
    try:
        yield server
    finally:
        server.stop()
