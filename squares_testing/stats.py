"""The one percentile of the tests and benchmarks."""

from __future__ import annotations

import math
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The `q`-th percentile of `values`, `q` on the 0..100 scale (``percentile(v, 99)``
    is p99; 0 the least, 100 the largest): linear interpolation between the closest
    ranks (``statistics.quantiles(..., method="inclusive")``, numpy's default). NaN
    for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"a percentile is from 0 to 100, not {q!r}")
    ordered = sorted(values)
    if not ordered:
        return math.nan
    if len(ordered) == 1 or q == 0:
        return float(ordered[0])
    if q == 100:
        return float(ordered[-1])
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (position - low))

