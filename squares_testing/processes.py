"""Processes seen through /proc (children, memory, CPU), process groups, SIGTERM,
and a function run in a forked child (`Forked`)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any


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


def descendants(pid: int) -> list[int]:
    """Every process under `pid`: its children, theirs, ..."""
    found, todo = [], [pid]
    while todo:
        found += (children := child_pids(todo.pop()))
        todo += children
    return found


def status_kb(pid: int, key: str) -> int | None:
    """A numeric field of /proc/<pid>/status (``VmHWM``: peak resident set, kB;
    ``Threads``), or None."""
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


def machine_cpu_seconds() -> float:
    """CPU seconds used by every process since boot (the first line of /proc/stat)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(v) for v in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def group_alive(pgid: int) -> bool:
    """Whether any process of the process group `pgid` is left."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def exit_on_sigterm() -> Callable[[], None]:
    """Turn SIGTERM (a CI timeout, `kill`) into SystemExit, so that a launcher's
    ``finally`` stops what it started; returns what restores the old handler.
    Only in the main thread, and only over the default handler."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGTERM)
    if previous not in (signal.SIG_DFL, None):
        return lambda: None

    def handler(signum: int, frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, handler)
    return lambda: signal.signal(signal.SIGTERM, previous)


def keep_up(launcher: AbstractContextManager[str | None], missing: str) -> int:
    """A launcher's ``__main__``: start it, print its URL, wait for Ctrl-C or SIGTERM
    (then it stops and removes what it started). Exit status 1 with `missing` when
    the launcher yields None (its binaries are not installed)."""
    with launcher as url:
        if url is None:
            print(missing, file=sys.stderr)
            return 1
        print(url, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            while True:
                time.sleep(3600)
    return 0


class Forked:
    """`fn(**kwargs)` run in a forked child process (before this process starts any
    thread of its own, so that the fork copies none); `result()` waits for what it
    returns (picklable) and re-raises its failure as RuntimeError."""

    def __init__(self, fn: Callable[..., Any], /, **kwargs: Any) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe(duplex=False)

        def target() -> None:
            try:
                child.send(("ok", fn(**kwargs)))
            except BaseException as exc:  # noqa: BLE001 - reported to the parent
                child.send(("error", repr(exc)))
            finally:
                child.close()

        self.proc = ctx.Process(target=target, daemon=True)
        self.proc.start()
        child.close()

    @staticmethod
    def event() -> Any:
        """An event the parent sets and the child sees (made before the fork)."""
        return multiprocessing.get_context("fork").Event()

    def result(self, timeout: float) -> Any:
        try:
            if not self.conn.poll(timeout):
                raise RuntimeError("the forked process did not answer in time")
            kind, value = self.conn.recv()
        finally:
            self.proc.join(timeout=30)
            if self.proc.is_alive():
                self.proc.kill()
                self.proc.join(timeout=10)
        if kind != "ok":
            raise RuntimeError(f"the forked process failed: {value}")
        return value
