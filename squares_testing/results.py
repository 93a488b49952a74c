"""Benchmark figures as JSON, one format for every script under ``benchmarks/``.

A full run (not ``--quick``) writes ``build/benchmarks/<script>-<UTC time>.json``;
``--json PATH`` writes to PATH instead, in quick mode too. The document::

    {"script": "fold", "started": "2026-01-02T03:04:05+00:00", "commit": "67feebf",
     "argv": ["--games", "50"], "quick": false,
     "figures": {"fold rate": {"value": 615000.0, "unit": "events/s",
                               "target": ">= 150,000"}, ...}}

``commit`` is ``git rev-parse --short HEAD`` (null outside a checkout), ``target``
is optional, and a figure that could not be measured has the value null. A script
may add ``details`` (free-form context, e.g. the database), which
``benchmarks/compare.py`` ignores.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "build" / "benchmarks"
STARTED = datetime.now(UTC).replace(microsecond=0)  # scripts import this module first thing

Figure = dict[str, Any]  # {"value": number | None, "unit": str, "target"?: str}
Figures = dict[str, Figure]


def figure(value: float | None, unit: str, target: str | None = None) -> Figure:
    """One figure; NaN, infinities and None are stored as null (not measured)."""
    if isinstance(value, bool) or not (value is None or isinstance(value, int | float)):
        raise TypeError(f"a figure's value is a number, not {value!r}")
    if isinstance(value, float):  # 6 significant digits: more would be noise
        value = float(f"{value:.6g}") if math.isfinite(value) else None
    return {"value": value, "unit": unit} | ({"target": target} if target else {})


def commit() -> str | None:
    try:
        done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO,
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout.strip() or None) if done.returncode == 0 else None


def write_figures(script: str, figures: Figures, quick: bool, out_dir: Path = OUT_DIR,
                  path: Path | None = None, details: dict[str, Any] | None = None,
                  argv: list[str] | None = None, started: datetime = STARTED) -> Path:
    """Write the document to `path`, or to ``out_dir/<script>-<UTC time>.json``."""
    document: dict[str, Any] = {
        "script": script, "started": started.isoformat(), "commit": commit(),
        "argv": list(sys.argv[1:] if argv is None else argv), "quick": quick,
        "figures": {name: figure(f.get("value"), f.get("unit", ""), f.get("target"))
                    for name, f in figures.items()},
    }
    if details is not None:
        document["details"] = details
    if path is None:
        stamp = started.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
        path = out_dir / f"{script}-{stamp}.json"
        n = 1
        while path.exists():  # two runs in one second
            n += 1
            path = out_dir / f"{script}-{stamp}-{n}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    return path


def add_run_options(parser: argparse.ArgumentParser, quick: str) -> None:
    """Every script's ``--quick`` (a run of seconds for the tests, `quick` says what it
    does) and ``--json``."""
    parser.add_argument("--quick", action="store_true", help=quick)
    add_json_option(parser)


def add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", metavar="PATH", default=None,
                        help="write the figures as JSON to PATH, also with --quick "
                             "(default: a full run writes build/benchmarks/<script>-<UTC "
                             "time>.json, a quick one nothing)")


def fill_defaults(args: argparse.Namespace, **defaults: tuple[Any, Any]) -> None:
    """Give each option left unset (None) its default: ``name=(full run, --quick run)``."""
    for name, (full, quick) in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, quick if getattr(args, "quick", False) else full)


def save(script: str, figures: Figures, args: argparse.Namespace,
         details: dict[str, Any] | None = None) -> Path | None:
    """After the figures are printed: write them where `args` (``--quick``, ``--json``)
    say, and print where. Returns the path, or None (a quick run without --json)."""
    quick = bool(getattr(args, "quick", False))
    json_path = getattr(args, "json", None)
    if json_path is None and quick:
        return None
    path = write_figures(script, figures, quick,
                         path=Path(json_path) if json_path else None, details=details)
    print(f"\nfigures written to {path}")
    return path
