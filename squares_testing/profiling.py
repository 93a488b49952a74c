"""App server workers under cProfile (``benchmarks/load.py --profile DIR``), and the
summed profile they leave behind.

``benchmarks/load.py`` runs the app server (`service.serve.app_server.command`) with
``--factory PROFILED_APP`` and ``PROFILE_DIR_ENV=DIR``; each worker writes
``DIR/worker-<pid>.prof`` when it exits (a graceful stop), and `print_profile(DIR)`
prints their sum.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

PROFILE_DIR_ENV = "SQUARES_PROFILE_DIR"
PROFILE_CLOCK_ENV = "SQUARES_PROFILE_CLOCK"  # "wall" (default) or "cpu"
PROFILED_APP = "squares_testing.profiling:profiled_app"


def profiled_app() -> Any:
    """The app server's WSGI app under cProfile (granian's ``--factory`` target).

    Each worker profiles only its request handling and writes
    ``$SQUARES_PROFILE_DIR/worker-<pid>.prof`` when it exits (a graceful stop).
    ``SQUARES_PROFILE_CLOCK=cpu`` counts the process' CPU time instead of wall time
    (on a shared machine: no waiting for the CPU, but no waiting for fsync either).
    """
    import atexit
    import cProfile

    from service.serve.app_server import create

    app = create()  # what squares serve's app server runs
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


def print_profile(directory: Path, clock: str, lines: int = 30) -> None:
    """The workers' cProfile stats (see `profiled_app`), summed."""
    import pstats

    files = sorted(directory.glob("worker-*.prof"))
    if not files:
        print(f"no profiles were written to {directory} (did the workers exit cleanly?)")
        return
    stats = pstats.Stats(*(str(f) for f in files), stream=sys.stdout)
    stats.strip_dirs()
    print(f"\n== server profile: {len(files)} worker(s), both phases, {clock} clock "
          f"(files in {directory}) ==")
    stats.sort_stats("cumulative").print_stats(lines)
    stats.sort_stats("tottime").print_stats(lines)
