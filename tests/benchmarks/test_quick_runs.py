"""Benchmarks cannot rot: every script starts (``--help``), runs in its quick mode,
prints its figures and writes them as JSON (speed itself is never asserted in tests).

The quick runs are a process each, as a user starts them. The ``--help`` checks share
one process (`HELP_EACH`: every script run as ``__main__`` with its own folder first
on the path, as ``python benchmarks/x.py --help`` runs it), which saves a dozen
interpreters importing the service."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from squares_testing import results as _results

REPO = Path(__file__).resolve().parents[2]

SCRIPTS = sorted(p.name for p in (REPO / "benchmarks").glob("*.py") if not p.name.startswith("_"))

# Labels each script prints in its quick run; every script under benchmarks/ has an entry.
QUICK_RUNS = {
    "ai.py": ["turn median ms", "crafted worst positions", "peak memory"],
    "api.py": ["GET /healthz", "POST lines", "lines / healthz ratio", "replay median"],
    "compare.py": ["fold rate", "B / A", "2.00", "—"],
    "daily_table.py": ["today's daily table median / max", "a past date's final table",
                       "plan:"],
    "fold.py": ["fold rate:", "median fold of one whole game"],
    "live.py": ["delivery, answer -> client", "events missed / twice", "GET /healthz with streams",
                "workers' RSS before -> with streams"],
    "move_cost.py": ["app CPU per move", "app CPU per move without the AI",
                     "app CPU per bare GET /healthz",
                     "database statements", "rate limiter", "hint and computer turns"],
    "load.py": ["moves/s", "move latency p99", "bare GET /healthz", "peak RSS per worker"],
    "servers.py": ["granian (shipped)", "gunicorn gthread", "uvicorn + a2wsgi",
                   "a move with its hint"],
    "review.py": ["review CPU median / p99 / max", "crafted review CPU max",
                  "analyst games/min (wall)",
                  "game over -> review ready p99", "Summary (issue 24 targets"],
    "storage.py": ["events / game", "event JSON / game", "database growth / game"],
    "store.py": ["raw sqlite3 inserts", "store appends", "store append CPU", "ratio store/raw",
                 "load + fold"],
    "worst_case.py": ["worst request per endpoint", "GET hint (stage 1)", "worst request:"],
}
TIMEOUT_S = {"live.py": 120, "load.py": 120, "review.py": 120, "servers.py": 120}


def _review_figures_are_sane(figures: dict[str, Any]) -> None:
    """review.py: every figure there, the counts whole and the times in order (the
    speed itself is not judged)."""
    value = {name: f["value"] for name, f in figures.items()}
    for name in ("review CPU median", "review CPU p99", "review CPU max", "inexact reviews",
                 "reviewed games (CPU)", "crafted review CPU max",
                 "crafted approximate turns", "analyst games/min", "analyst CPU per game",
                 "games caught up", "review latency p50", "review latency p99",
                 "review latency max", "games ended through the API", "reviews never ready",
                 "reviews stored", "5xx answers", "connection errors"):
        assert isinstance(value.get(name), int | float), (name, value)
    assert 0 < value["review CPU median"] <= value["review CPU p99"] <= value["review CPU max"]
    assert value["reviewed games (CPU)"] >= 1
    assert value["crafted review CPU max"] > 0 and value["crafted approximate turns"] >= 1
    assert 0 <= value["inexact reviews"] <= value["reviewed games (CPU)"]
    assert value["games caught up"] >= 1 and value["analyst games/min"] > 0
    assert value["analyst CPU per game"] > 0
    assert value["games ended through the API"] >= 1 and value["reviews never ready"] == 0
    assert 0 < value["review latency p50"] <= value["review latency p99"] \
        <= value["review latency max"]
    assert value["reviews stored"] >= value["games ended through the API"]
    assert value["5xx answers"] == 0 and value["connection errors"] == 0


FIGURE_CHECKS = {"review.py": _review_figures_are_sane}


# Runs each script named after the folder with ``--help`` as ``__main__``; prints a
# JSON object: script -> its exit status (or "raised"), stdout and stderr.
HELP_EACH = """
import contextlib, io, json, runpy, sys, traceback
folder, names = sys.argv[1], sys.argv[2:]
sys.path.insert(0, folder)
answers = {}
for name in names:
    out, err = io.StringIO(), io.StringIO()
    sys.argv = [folder + "/" + name, "--help"]
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path(sys.argv[0], run_name="__main__")
        except SystemExit as stop:
            code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        except BaseException:
            code = "raised"
            traceback.print_exc()
    answers[name] = {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}
print(json.dumps(answers))
"""


def run(*args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)


def test_every_script_has_a_quick_run() -> None:
    assert sorted(QUICK_RUNS) == SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS)
def test_benchmark_runs_quickly_and_prints_its_figures(script: str, tmp_path: Path) -> None:
    out = tmp_path / "x.json"
    done = run(str(REPO / "benchmarks" / script), "--quick", "--json", str(out),
               timeout=TIMEOUT_S.get(script, 60))
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for label in QUICK_RUNS[script]:
        assert label in done.stdout, (label, done.stdout[-3000:])
    document = json.loads(out.read_text())
    assert document["script"] == script.removesuffix(".py")
    assert document["quick"] is True
    assert document["argv"][:1] == ["--quick"]
    values = [f["value"] for f in document["figures"].values()]
    assert any(isinstance(v, int | float) and not isinstance(v, bool) for v in values), document
    assert all(isinstance(f["unit"], str) for f in document["figures"].values())
    if script in FIGURE_CHECKS:
        FIGURE_CHECKS[script](document["figures"])


def test_move_cost_runs_signed_in(tmp_path: Path) -> None:
    """The signed-in variant: its games are a claimed player's, played with the
    session cookie on every request (a refused cookie or origin would stop it)."""
    out = tmp_path / "signed-in.json"
    done = run(str(REPO / "benchmarks" / "move_cost.py"), "--quick", "--signed-in",
               "--json", str(out), timeout=60)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "games of a signed-in player" in done.stdout, done.stdout[-3000:]
    for label in QUICK_RUNS["move_cost.py"]:
        assert label in done.stdout, (label, done.stdout[-3000:])
    document = json.loads(out.read_text())
    assert document["argv"][:2] == ["--quick", "--signed-in"]
    assert document["figures"]["app CPU per move"]["value"] > 0


def test_move_cost_runs_daily(tmp_path: Path) -> None:
    """The daily variant: every game today's daily challenge, a guest's practice game
    with hints (a refused game or hint would stop it, and the script checks each
    game's state says daily, 19 x 33, hard)."""
    out = tmp_path / "daily.json"
    done = run(str(REPO / "benchmarks" / "move_cost.py"), "--quick", "--daily",
               "--json", str(out), timeout=60)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "daily games of guests (19 x 33, hard, rules edition 2, practice)" in done.stdout, \
        done.stdout[-3000:]
    for label in QUICK_RUNS["move_cost.py"]:
        assert label in done.stdout, (label, done.stdout[-3000:])
    document = json.loads(out.read_text())
    assert document["argv"][:2] == ["--quick", "--daily"]
    figures = document["figures"]
    assert 0 < figures["app CPU per move without the AI"]["value"] \
        < figures["app CPU per move"]["value"]


@pytest.fixture(scope="module")
def helps() -> dict[str, dict[str, Any]]:
    """Every script's ``--help`` (`HELP_EACH`): script -> code, stdout, stderr."""
    done = run("-c", HELP_EACH, str(REPO / "benchmarks"), *SCRIPTS, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    answers: dict[str, dict[str, Any]] = json.loads(done.stdout)
    return answers


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_benchmark_script_starts(script: str, helps: dict[str, dict[str, Any]]) -> None:
    """At least its imports and options hold. Helper modules start with an underscore."""
    done = helps[script]
    assert done["code"] == 0, done["stderr"][-3000:]
    assert "usage:" in done["stdout"]
    assert "--quick" in done["stdout"] and "--json" in done["stdout"]


def test_a_full_run_writes_a_timestamped_file(tmp_path: Path) -> None:
    started = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    figures = {"rate": _results.figure(1234.5678901, "events/s", ">= 1,000"),
               "not measured": _results.figure(float("nan"), "ms")}
    path = _results.write_figures("demo", figures, False, out_dir=tmp_path / "out",
                                  argv=["--games", "3"], started=started)
    again = _results.write_figures("demo", figures, False, out_dir=tmp_path / "out",
                                   argv=[], started=started)
    assert path.name == "demo-20260102T030405Z.json"
    assert again != path and again.exists()
    document = json.loads(path.read_text())
    assert document["script"] == "demo"
    assert document["started"] == "2026-01-02T03:04:05+00:00"
    assert document["argv"] == ["--games", "3"] and document["quick"] is False
    assert "commit" in document
    assert document["figures"] == {
        "rate": {"value": 1234.57, "unit": "events/s", "target": ">= 1,000"},
        "not measured": {"value": None, "unit": "ms"}}


def test_compare_prints_two_runs_side_by_side(tmp_path: Path) -> None:
    def write(name: str, figures: dict[str, float]) -> Path:
        path = tmp_path / name
        _results.write_figures("fold", {k: _results.figure(v, "ms") for k, v in figures.items()},
                               True, path=path, argv=[])
        return path

    a = write("a.json", {"median fold": 0.5, "fold rate": 1000.0, "gone": 3.0})
    b = write("b.json", {"median fold": 1.5, "fold rate": 1000.0, "new": 4.0})
    done = run(str(REPO / "benchmarks" / "compare.py"), str(a), str(b), timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = {line.split()[0] + " " + line.split()[1]: line for line in done.stdout.splitlines()
             if line.startswith(("median fold", "fold rate"))}
    assert "3.00" in lines["median fold"], done.stdout
    assert "1.00" in lines["fold rate"], done.stdout
    gone = next(line for line in done.stdout.splitlines() if line.startswith("gone"))
    new = next(line for line in done.stdout.splitlines() if line.startswith("new"))
    assert "—" in gone and "—" in new
