"""The real service under gunicorn on a loopback port, for benchmarks and reliability tests.

`running_server(url)` migrates the database at `url` (Alembic upgrade head), starts
the server as ``squares serve`` does (gunicorn with its uvicorn workers, 2 of them,
on 127.0.0.1:<free port>) in its own process group with ``DATABASE_URL=url``, waits
for ``GET /healthz`` and yields a `Server`. At exit the
whole process group is stopped (SIGTERM, then SIGKILL), also after a failure or after
a test has already killed the master with ``kill -9``.

Databases are the caller's: ``benchmarks/load.py --postgres`` uses a throwaway
cluster (`scripts/throwaway_postgres.py`), the reliability tests a fresh database
from `tests/databases.py`.

Only 127.0.0.1 is ever used.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
VENV_BIN = REPO / ".venv" / "bin"
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


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
    exe = VENV_BIN / "squares"
    if exe.exists():
        return [str(exe)]
    return [sys.executable, "-c", "from cli.main import cli; cli()"]


def child_pids(pid: int) -> list[int]:
    """The direct children of `pid` (from /proc; empty when it is gone)."""
    children: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks:
        with contextlib.suppress(OSError):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            children.extend(int(c) for c in text.split())
    if children or not tasks:
        return sorted(set(children))
    # kernels without /proc/<pid>/task/<tid>/children: scan every process' parent
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    children.append(int(entry))
    return sorted(children)


def status_kb(pid: int, key: str) -> int | None:
    """A ``kB`` field of /proc/<pid>/status (VmHWM: peak resident set), or None."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float:
    """utime + stime of `pid` from /proc/<pid>/stat (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def http_get_status(port: int, path: str, timeout: float = 2.0) -> int | None:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    except OSError:
        return None
    finally:
        conn.close()


@dataclass
class Server:
    """A running gunicorn: its master process, port, database and log file."""

    proc: subprocess.Popen[bytes]
    port: int
    database_url: str
    log_path: Path
    workers: int
    killed: list[int] = field(default_factory=list)

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
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}:\n"
                                   + self.log_tail())
            if http_get_status(self.port, "/healthz", timeout=2.0) == 200:
                return
            time.sleep(0.1)
        raise RuntimeError("gunicorn did not answer /healthz in time:\n" + self.log_tail())

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

    def stop(self) -> None:
        """SIGTERM the process group, SIGKILL after 15 s; idempotent."""
        pgid = self.master_pid
        if self.proc.poll() is not None and not _group_alive(pgid):
            return  # already gone (and its group id must not be signalled again)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=15)
        # orphaned workers (the master was killed) or a master that did not stop
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=15)
        deadline = time.monotonic() + 15
        while _group_alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.05)

    def log_tail(self, chars: int = 4000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def migrate_database(url: str) -> None:
    """Alembic upgrade head on `url` (the same migrations as ``squares db upgrade``)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from service.store import migrate

    migrate(url)


def server_command(port: int, workers: int, app: str | None,
                   extra_args: tuple[str, ...], log_path: Path) -> list[str]:
    """``squares serve``'s own gunicorn command line (its worker class, its ASGI app),
    or, given a WSGI `app`, plain gunicorn on it (the profiler's)."""
    logging = ["--timeout", "120", "--error-logfile", str(log_path)]
    if app is None:
        if str(REPO) not in sys.path:
            sys.path.insert(0, str(REPO))
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
    serve`` runs it (or a WSGI `app` under plain gunicorn); wait for /healthz.
    `limits_off`: without the per-address limits (`PER_CLIENT_LIMITS_OFF`).

    No migrations here (see `running_server`).
    """
    last_error: Exception | None = None
    for _attempt in range(1 if port is not None else 3):
        port_now = free_port() if port is None else port
        cmd = server_command(port_now, workers, app, extra_args, log_path)
        full_env = {**os.environ, **(PER_CLIENT_LIMITS_OFF if limits_off else {}),
                    **(env or {}), "DATABASE_URL": database_url}
        full_env.pop("WEB_CONCURRENCY", None)
        with log_path.open("ab") as log:
            proc = subprocess.Popen(cmd, cwd=REPO, env=full_env, stdin=subprocess.DEVNULL,
                                    stdout=log, stderr=log, start_new_session=True)
        server = Server(proc, port_now, database_url, log_path, workers)
        try:
            server.wait_healthy(timeout)
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


PROFILE_DIR_ENV = "SQUARES_PROFILE_DIR"
PROFILE_CLOCK_ENV = "SQUARES_PROFILE_CLOCK"  # "wall" (default) or "cpu"
PROFILED_APP = "benchmarks._server:profiled_app()"


def profiled_app() -> Any:
    """``wsgi:app`` under cProfile, for ``gunicorn 'benchmarks._server:profiled_app()'``.

    Each worker profiles only its request handling and writes
    ``$SQUARES_PROFILE_DIR/worker-<pid>.prof`` when it exits (a graceful stop).
    ``SQUARES_PROFILE_CLOCK=cpu`` counts the process' CPU time instead of wall time
    (on a shared machine: no waiting for the CPU, but no waiting for fsync either).
    """
    import atexit
    import cProfile

    from wsgi import app

    out_dir = Path(os.environ[PROFILE_DIR_ENV])
    if os.environ.get(PROFILE_CLOCK_ENV, "wall") == "cpu":
        profiler = cProfile.Profile(time.process_time)
    else:
        profiler = cProfile.Profile()

    def profiled(environ: dict[str, Any], start_response: Any) -> Any:
        profiler.enable()
        try:
            # Flask's answers are lists of bytes: nothing runs after this returns
            return list(app(environ, start_response))
        finally:
            profiler.disable()

    def dump() -> None:
        out_dir.mkdir(parents=True, exist_ok=True)
        profiler.dump_stats(str(out_dir / f"worker-{os.getpid()}.prof"))

    atexit.register(dump)
    return profiled


@contextlib.contextmanager
def asgi_server(app: Any, host: str = HOST) -> Iterator[int]:
    """Serve the Flask `app` as ``squares serve`` does, in one process: uvicorn with its
    settings (`service.server.uvicorn_settings`) in a thread of this process, so that
    the app's objects stay at hand; yield the port. (Tests use it too.)"""
    import threading

    import uvicorn

    from service.asgi import SquaresAsgi
    from service.server import uvicorn_settings

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    config = uvicorn.Config(SquaresAsgi(app), log_level="warning", **uvicorn_settings())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="in-process-asgi-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the in-process server did not start")
        time.sleep(0.01)
    try:
        yield int(sock.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
