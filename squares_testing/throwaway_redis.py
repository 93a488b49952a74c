"""A throwaway Redis server in a temp dir on a free loopback port.

`throwaway_redis()` is a context manager yielding a URL ``redis://127.0.0.1:<port>``
of a fresh server that keeps nothing on disk (``--save '' --appendonly no``), or None
when the binary is missing; the server is stopped and its directory removed at exit.
``throwaway_redis(port)`` starts it on that port (a test starts a stopped one again).
Binary: ``SQUARES_REDIS_SERVER``, else ``/usr/bin/redis-server`` (Debian's
``redis-server`` package), else ``redis-server`` on PATH.

Run it alone to keep a server up for manual testing:
``.venv/bin/python -m squares_testing.throwaway_redis`` (Ctrl-C or SIGTERM stops it). SIGTERM during the
``with`` block also stops it.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from squares_testing.net import HOST, free_port
from squares_testing.processes import exit_on_sigterm, keep_up


def find_redis_server() -> str | None:
    env = os.environ.get("SQUARES_REDIS_SERVER")
    if env:
        return env if os.access(env, os.X_OK) else None
    if os.access("/usr/bin/redis-server", os.X_OK):
        return "/usr/bin/redis-server"
    return shutil.which("redis-server")


def answers_ping(port: int, timeout: float = 0.5) -> bool:
    try:
        with socket.create_connection((HOST, port), timeout=timeout) as s:
            s.sendall(b"PING\r\n")
            return s.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def _start(binary: str, port: int, root: Path) -> subprocess.Popen[bytes] | None:
    """A server on `port` that answers PING, or None if it exited (port taken)."""
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", HOST, "--save", "",
         "--appendonly", "no", "--dir", str(root), "--logfile", str(root / "server.log"),
         "--daemonize", "no"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return None
        if answers_ping(port) and process.poll() is None:
            return process
        time.sleep(0.02)
    _stop(process)
    raise RuntimeError(f"redis-server on port {port} did not answer PING within 30 s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def throwaway_redis(port: int | None = None) -> Iterator[str | None]:
    binary = find_redis_server()
    if binary is None:
        yield None
        return
    root = Path(tempfile.mkdtemp(prefix="squares-redis-"))
    process = None
    restore_sigterm = exit_on_sigterm()
    try:
        for _attempt in range(1 if port else 5):
            chosen = port or free_port()
            process = _start(binary, chosen, root)
            if process is not None:
                break
        if process is None:
            log = root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"redis-server did not start:\n{tail}")
        yield f"redis://{HOST}:{chosen}"
    finally:
        if process is not None:
            _stop(process)
        shutil.rmtree(root, ignore_errors=True)
        restore_sigterm()


if __name__ == "__main__":
    sys.exit(keep_up(throwaway_redis(), "redis-server not found"))
