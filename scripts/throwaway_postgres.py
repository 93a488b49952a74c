"""A throwaway PostgreSQL cluster in a temp dir on a free loopback port.

`throwaway_postgres()` is a context manager yielding a URL
``postgresql://squares@127.0.0.1:<port>/squares`` of a fresh cluster, or None when
the server binaries are missing. The cluster is stopped and its directory removed
at exit. Binaries: ``SQUARES_PG_BINDIR``, else the newest
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package), else ``pg_ctl`` on
PATH. PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` system user (created as ``squares-pg`` if there is none).

Run it alone to keep a cluster up for manual testing:
``python scripts/throwaway_postgres.py`` (Ctrl-C or SIGTERM stops it). SIGTERM
during the ``with`` block also stops and removes the cluster.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

DB_USER = "squares"
DB_NAME = "squares"
# Durability is pointless for a throwaway cluster; these make it start and commit fast.
SERVER_OPTIONS = (
    "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    "-c max_connections=200 -c shared_buffers=64MB"
)


def find_bindir() -> Path | None:
    env = os.environ.get("SQUARES_PG_BINDIR")
    if env:
        return Path(env) if (Path(env) / "initdb").exists() else None
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0,
    )
    for candidate in reversed(candidates):
        if (Path(candidate) / "initdb").exists() and (Path(candidate) / "pg_ctl").exists():
            return Path(candidate)
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl and shutil.which("initdb"):
        return Path(pg_ctl).parent
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_user() -> pwd.struct_passwd | None:
    """The user to run the server as: None (ourselves) unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "squares-pg"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "squares-pg"],
        check=True,
    )
    return pwd.getpwnam("squares-pg")


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    bindir = find_bindir()
    if bindir is None:
        yield None
        return
    user = _server_user()
    root = Path(tempfile.mkdtemp(prefix="squares-pg-"))
    data = root / "data"
    log = root / "server.log"
    if user is not None:
        os.chown(root, user.pw_uid, user.pw_gid)

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {}
        if user is not None:
            kwargs = {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}
        return subprocess.run(
            [str(bindir / args[0]), *args[1:]],
            check=check,
            capture_output=True,
            text=True,
            cwd=root,
            env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
            **kwargs,  # type: ignore[arg-type]
        )

    started = False
    restore_sigterm = _exit_on_sigterm()
    try:
        run("initdb", "-D", str(data), "-U", DB_USER, "--auth=trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync")
        port = 0
        for _attempt in range(5):
            port = free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -p {port} "
                f"-c unix_socket_directories={root} {SERVER_OPTIONS}"
            )
            result = run("pg_ctl", "-D", str(data), "-l", str(log), "-o", options, "-w",
                         "-t", "60", "start", check=False)
            if result.returncode == 0:
                started = True
                break
        if not started:
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"PostgreSQL did not start:\n{tail}")
        run("createdb", "-h", "127.0.0.1", "-p", str(port), "-U", DB_USER, DB_NAME)
        yield f"postgresql://{DB_USER}@127.0.0.1:{port}/{DB_NAME}"
    finally:
        if started:
            run("pg_ctl", "-D", str(data), "-m", "fast", "-w", "-t", "60", "stop", check=False)
        shutil.rmtree(root, ignore_errors=True)
        restore_sigterm()


def _exit_on_sigterm() -> Callable[[], None]:
    """Turn SIGTERM (a CI timeout, `kill`) into SystemExit so the cluster is stopped."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGTERM)
    if previous not in (signal.SIG_DFL, None):
        return lambda: None

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    with throwaway_postgres() as url:
        if url is None:
            sys.exit("PostgreSQL server binaries not found")
        print(url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
