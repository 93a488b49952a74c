"""A throwaway PostgreSQL cluster in a temp dir on a free loopback port.

`throwaway_postgres()` is a context manager yielding a URL
``postgresql://squares@127.0.0.1:<port>/squares`` of a fresh cluster, or None when
the server binaries are missing. The cluster is stopped and its directory removed
at exit. Binaries: ``SQUARES_PG_BINDIR``, else the newest
``/usr/lib/postgresql/*/bin`` (Debian's ``postgresql`` package), else ``pg_ctl`` on
PATH. PostgreSQL refuses to run as root, so as root the cluster belongs to the
``postgres`` system user (created as ``squares-pg`` if there is none).
`Cluster` is the cluster itself, for a test that stops its server and starts it
again on the same data directory and port (tests/e2e/test_outages.py).

Run it alone to keep a cluster up for manual testing:
``.venv/bin/python -m squares_testing.throwaway_postgres`` (Ctrl-C or SIGTERM stops
it). SIGTERM during the ``with`` block also stops and removes the cluster.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from squares_testing.net import HOST, free_port
from squares_testing.processes import exit_on_sigterm, keep_up

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


class Cluster:
    """A cluster in `root` (its data directory and server log there) whose server can
    be stopped and started again on the same data directory and port."""

    def __init__(self, bindir: Path, root: Path) -> None:
        self.bindir, self.root = bindir, root
        self.data, self.log = root / "data", root / "server.log"
        self.user = _server_user()
        self.port = 0
        self.running = False
        if self.user is not None:  # PostgreSQL refuses to run as root
            os.chown(root, self.user.pw_uid, self.user.pw_gid)

    @property
    def url(self) -> str:
        return f"postgresql://{DB_USER}@{HOST}:{self.port}/{DB_NAME}"

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """A server binary (initdb, pg_ctl, createdb) as the cluster's user."""
        kwargs: dict[str, object] = {}
        if self.user is not None:
            kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid,
                      "extra_groups": []}
        return subprocess.run(
            [str(self.bindir / args[0]), *args[1:]], check=check, capture_output=True,
            text=True, cwd=self.root, timeout=90,
            env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
            **kwargs,  # type: ignore[arg-type]
        )

    def create(self) -> None:
        """initdb, start on a free port, create the database."""
        self.run("initdb", "-D", str(self.data), "-U", DB_USER, "--auth=trust", "-E",
                 "UTF8", "--locale=C.UTF-8", "--no-sync")
        for _attempt in range(5):  # a free port may be taken before the server binds it
            self.port = free_port()
            if self.start(check=False):
                break
        else:
            raise RuntimeError(f"PostgreSQL did not start:\n{self.log_tail()}")
        self.run("createdb", "-h", HOST, "-p", str(self.port), "-U", DB_USER, DB_NAME)

    def start(self, check: bool = True) -> bool:
        options = (f"-c listen_addresses={HOST} -p {self.port} "
                   f"-c unix_socket_directories={self.root} {SERVER_OPTIONS}")
        result = self.run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options,
                          "-w", "-t", "60", "start", check=False)
        self.running = result.returncode == 0
        if check and not self.running:
            raise RuntimeError(f"PostgreSQL did not start again:\n{self.log_tail()}")
        return self.running

    def stop(self) -> None:
        """``pg_ctl stop -m fast``: open connections are cut, new ones refused."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop",
                 check=False)
        self.running = False

    def log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-2000:]
        except OSError:
            return ""


@contextlib.contextmanager
def cluster(prefix: str = "squares-pg-") -> Iterator[Cluster | None]:
    """A created, running `Cluster` in a new temp directory (None without the server
    binaries); stopped and removed at exit, also on SIGTERM."""
    bindir = find_bindir()
    if bindir is None:
        yield None
        return
    restore_sigterm = exit_on_sigterm()
    made = Cluster(bindir, Path(tempfile.mkdtemp(prefix=prefix)))
    try:
        made.create()
        yield made
    finally:
        if made.running:
            made.stop()
        shutil.rmtree(made.root, ignore_errors=True)
        restore_sigterm()


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    """The URL of a fresh cluster's database (None without the server binaries)."""
    with cluster() as made:
        yield None if made is None else made.url


if __name__ == "__main__":
    sys.exit(keep_up(throwaway_postgres(), "PostgreSQL server binaries not found"))
