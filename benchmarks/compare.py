"""Two benchmark runs side by side: the figures of A.json and B.json (as the scripts
under benchmarks/ write them, see `squares_testing/results.py`), with the ratio B / A.

    .venv/bin/python benchmarks/compare.py build/benchmarks/fold-A.json build/benchmarks/fold-B.json
    .venv/bin/python benchmarks/compare.py --quick    # two built-in sample runs

Columns: name, A, B, B / A, unit (and the target, when the runs name one). A figure
that only one run has, or that was not measured, shows "—". Prints only; ``--json
PATH`` also writes the ratios as a figures document (unit "B/A").
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from squares_testing import results as _results

NONE = "—"

SAMPLE_A: dict[str, Any] = {
    "script": "sample", "started": "2026-01-01T00:00:00+00:00", "commit": None, "argv": [],
    "quick": True, "figures": {
        "fold rate": {"value": 300000.0, "unit": "events/s", "target": ">= 150,000"},
        "median fold": {"value": 0.6, "unit": "ms", "target": "< 3 ms"},
        "only in A": {"value": 1, "unit": "games"}}}
SAMPLE_B: dict[str, Any] = {
    "script": "sample", "started": "2026-01-02T00:00:00+00:00", "commit": None, "argv": [],
    "quick": True, "figures": {
        "fold rate": {"value": 600000.0, "unit": "events/s", "target": ">= 150,000"},
        "median fold": {"value": 0.3, "unit": "ms", "target": "< 3 ms"},
        "only in B": {"value": 2, "unit": "games"}}}


def number(value: Any) -> str:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return NONE
    if isinstance(value, int) or abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.1f}" if abs(value) >= 10 else f"{value:.3g}"


def ratio(a: Any, b: Any) -> float | None:
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b))
    return b / a if numbers and a != 0 else None


def compare(a: dict[str, Any], b: dict[str, Any]) -> tuple[list[list[str]], _results.Figures]:
    """The table's rows and the ratios as figures."""
    fa, fb = a.get("figures", {}), b.get("figures", {})
    rows, ratios = [], {}
    for name in [*fa, *(n for n in fb if n not in fa)]:
        x, y = fa.get(name, {}), fb.get(name, {})
        units = list(dict.fromkeys(u for u in (x.get("unit"), y.get("unit")) if u))
        r = ratio(x.get("value"), y.get("value")) if len(units) <= 1 else None
        target = x.get("target") or y.get("target") or ""
        rows.append([name, number(x.get("value")), number(y.get("value")),
                     NONE if r is None else f"{r:.2f}", " / ".join(units), target])
        if r is not None:
            ratios[name] = _results.figure(r, "B/A")
    return rows, ratios


def describe(doc: dict[str, Any]) -> str:
    quick = " --quick" if doc.get("quick") else ""
    return (f"{doc.get('script', '?')}{quick}, started {doc.get('started', '?')}, "
            f"commit {doc.get('commit') or '?'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("a", nargs="?", metavar="A.json", help="the first run")
    parser.add_argument("b", nargs="?", metavar="B.json", help="the second run")
    _results.add_run_options(parser, quick="without files: compare two built-in sample runs")
    args = parser.parse_args(argv)
    if args.a and args.b:
        docs = [json.loads(Path(p).read_text()) for p in (args.a, args.b)]
    elif args.quick and not args.a:
        docs = [SAMPLE_A, SAMPLE_B]
    else:
        parser.error("give two JSON files (or --quick alone for the built-in samples)")
    rows, ratios = compare(*docs)
    print(f"A: {args.a or 'sample A'}: {describe(docs[0])}")
    print(f"B: {args.b or 'sample B'}: {describe(docs[1])}")
    if docs[0].get("script") != docs[1].get("script"):
        print("(runs of different scripts)")
    table = [["figure", "A", "B", "B / A", "unit", "target"], *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    for r in table:
        cells = [r[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(r[1:4], widths[1:4],
                                                                     strict=True)),
                 r[4].ljust(widths[4]), r[5]]
        print("  ".join(cells).rstrip())
    if args.json:  # compare measures nothing: it writes only when asked
        _results.save("compare", ratios, args, details={"a": args.a, "b": args.b})
    return 0


if __name__ == "__main__":
    sys.exit(main())
