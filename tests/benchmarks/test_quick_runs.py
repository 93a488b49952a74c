"""Benchmarks cannot rot: every script starts (``--help``), and every one that has a
quick mode runs in it and prints its figures (speed itself is never asserted in tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

QUICK_RUNS = {
    "live.py": ["delivery, answer -> client", "events missed / twice", "GET /healthz with streams",
                "workers' RSS before -> with streams"],
    "storage.py": ["events / game", "event JSON / game", "database growth / game"],
}


@pytest.mark.parametrize("script", sorted(QUICK_RUNS))
def test_benchmark_runs_quickly_and_prints_its_figures(script: str) -> None:
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / script), "--quick"],
                          cwd=REPO, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for figure in QUICK_RUNS[script]:
        assert figure in done.stdout, (figure, done.stdout[-3000:])


SCRIPTS = sorted(p.name for p in (REPO / "benchmarks").glob("*.py") if not p.name.startswith("_"))


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_benchmark_script_starts(script: str) -> None:
    """Until each has a quick mode (issue 22): at least its imports and options hold.
    Helper modules are named with a leading underscore."""
    done = subprocess.run([sys.executable, str(REPO / "benchmarks" / script), "--help"],
                          cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "usage:" in done.stdout
