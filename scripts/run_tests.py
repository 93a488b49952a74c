"""Run the test suite (called by `./dev test`).

Starts a throwaway PostgreSQL cluster when the server binaries are present, so
the storage suite runs on both databases, and a throwaway Redis server (for the
shared rate limits, `SQUARES_TEST_REDIS_URL`), then runs pytest in two passes and
stops both. The launchers are `squares_testing`'s (on the venv's path: `./dev`
writes a .pth).

The two passes:

1. every test not marked ``serial``, on up to two cores: pytest-xdist with
   ``-n 2 --dist loadfile`` (one worker on a one-core machine: then ``-n 0``). Each
   worker is a session of its own: its own migrated templates, databases, temp
   directories, live server and browser; a test file runs whole on one worker, and
   the files are handed out in the order they are collected
   (``--no-loadscope-reorder``: xdist would hand out the files with the most tests
   first, which leaves the browser and server files, few tests each but long, for
   the end, one worker waiting for the other).
2. the tests marked ``serial``, in one process: those that time the service under
   pressure or a whole game (beside a busy worker they would time the machine; a
   two-browser online game took 52 s of its 60 there), the one that busies
   every core on purpose. The first pass notes the files it left serial tests out
   of: without arguments the second collects those files only, and when
   there are none it does not run.

The exit status is the first pass's failure, else the second's; a pass that selects
no test is no failure unless neither selects any (pytest's 5). At the end the 20
slowest phases of both passes are listed, as ``--durations=20`` lists them.

Arguments are pytest's and go to both passes (``./dev test tests/api -k foo`` runs
what each pass selects of them); how some are taken:

- ``-m EXPR`` narrows both passes: ``(EXPR) and not serial``, then ``(EXPR) and serial``;
- ``-n N`` (and ``--dist``) replace the first pass's (``-n 0``: in one process); the
  serial pass always runs in one process;
- ``-x`` / ``--exitfirst``: a failure in the first pass skips the second;
- ``--pdb`` runs the first pass in one process too (xdist refuses it with workers),
  and so does ``-p no:xdist``;
- ``--co`` lists each pass's tests in turn.
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from squares_testing.throwaway_postgres import throwaway_postgres
from squares_testing.throwaway_redis import throwaway_redis

SERIAL_FILES_VAR = "SQUARES_TEST_SERIAL_FILES"  # tests/conftest.py writes it
MAX_WORKERS = 2
SLOWEST = 20
OK = int(pytest.ExitCode.OK)
TESTS_FAILED = int(pytest.ExitCode.TESTS_FAILED)
NO_TESTS = int(pytest.ExitCode.NO_TESTS_COLLECTED)


class Durations:
    """A pytest plugin that keeps every phase's duration (in an xdist controller too:
    the workers' reports come through it)."""

    def __init__(self) -> None:
        self.phases: list[tuple[float, str, str]] = []

    def pytest_runtest_logreport(self, report: Any) -> None:
        self.phases.append((float(report.duration), report.when, report.nodeid))

    def print_slowest(self, count: int = SLOWEST) -> None:
        if not self.phases:
            return
        print(f"\n{f' slowest {count} durations (both passes) ':=^80}")
        for duration, when, nodeid in sorted(self.phases, reverse=True)[:count]:
            print(f"{duration:.2f}s {when:<8} {nodeid}")


def split_marker(args: Sequence[str]) -> tuple[list[str], str | None]:
    """`args` without their ``-m EXPR`` (the last one counts, as in pytest), and EXPR."""
    rest: list[str] = []
    marker = None
    items = iter(args)
    for arg in items:
        if arg == "-m":
            marker = next(items, "")
        elif arg.startswith("-m") and len(arg) > 2 and not arg.startswith("--"):
            marker = arg[2:]
        else:
            rest.append(arg)
    return rest, marker


def narrowed(marker: str | None, own: str) -> str:
    return own if not marker else f"({marker}) and {own}"


def without_xdist(args: Sequence[str]) -> bool:
    return any(arg.endswith("no:xdist") for arg in args)


def worker_count(args: Sequence[str]) -> list[str]:
    """The first pass's xdist options; the user's, when given, follow and win."""
    if "--pdb" in args or without_xdist(args):
        return []
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    workers = min(MAX_WORKERS, cores or 1)
    return ["-n", str(workers if workers > 1 else 0), "--dist", "loadfile",
            "--no-loadscope-reorder"]


def passes(args: Sequence[str], serial_files: Sequence[str] = ()) -> list[list[str]]:
    """The argument lists of the two pytest runs. `serial_files`: where the first
    found the serial tests; without arguments the second collects only those."""
    rest, marker = split_marker(args)
    parallel = [*worker_count(args), *rest, "-m", narrowed(marker, "not serial")]
    serial = [*rest, "-m", narrowed(marker, "serial")]
    if not without_xdist(args):
        serial += ["-n", "0"]
    if not args:
        serial = [*serial_files, *serial]
    return [parallel, serial]


def exits_first(args: Sequence[str]) -> bool:
    return "-x" in args or "--exitfirst" in args


def goes_on(code: int, args: Sequence[str]) -> bool:
    """Whether the second pass runs after the first ended with `code`."""
    if code == TESTS_FAILED:
        return not exits_first(args)
    return code in (OK, NO_TESTS)


def run_pass(number: int, args: list[str], durations: Durations) -> int:
    print(f"\n--- pass {number} of 2: pytest {shlex.join(args)}", flush=True)
    return int(pytest.main(args, plugins=[durations]))


def run_passes(args: Sequence[str]) -> int:
    """The first pass notes the files of the serial tests it leaves out (tests/conftest.py,
    `SERIAL_FILES_VAR`): none, and the second does not run."""
    durations = Durations()
    with tempfile.TemporaryDirectory(prefix="squares-passes-") as tmp:
        noted = Path(tmp) / "serial-files"
        os.environ[SERIAL_FILES_VAR] = str(noted)
        try:
            codes = [run_pass(1, passes(args)[0], durations)]
        finally:
            del os.environ[SERIAL_FILES_VAR]
        files = sorted(set(noted.read_text().splitlines())) if noted.exists() else []
    if goes_on(codes[0], args):
        if files:
            codes.append(run_pass(2, passes(args, files)[1], durations))
        else:
            print("\n--- pass 2 of 2: no serial test among those selected")
    durations.print_slowest()
    return combined(codes)


def combined(codes: Sequence[int]) -> int:
    """The first failure's code; 5 only when no pass selected a test."""
    failures = [code for code in codes if code not in (OK, NO_TESTS)]
    if failures:
        return failures[0]
    return NO_TESTS if all(code == NO_TESTS for code in codes) else OK


def main(argv: list[str]) -> int:
    with throwaway_postgres() as url, throwaway_redis() as redis_url:
        if url:
            os.environ.setdefault("SQUARES_TEST_POSTGRES_URL", url)
            print(f"PostgreSQL for tests: {url}")
        else:
            print("PostgreSQL server binaries not found: storage tests run on SQLite only")
        if redis_url:
            os.environ.setdefault("SQUARES_TEST_REDIS_URL", redis_url)
            print(f"Redis for tests: {redis_url}")
        else:
            print("redis-server not found: the shared rate limit tests fail")
        return run_passes(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
