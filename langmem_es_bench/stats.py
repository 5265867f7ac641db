"""Latency figures shared by the benchmarks and ``langmem-es load``: one percentile, one summary.

Percentiles interpolate linearly between the two nearest ranks (numpy's default), so
the figures of every report are computed the same way.

>>> percentile([10.0, 20.0, 30.0, 40.0], 50)
25.0
>>> summary([1.0, 2.0, 3.0, 10.0], digits=2)["max_over_median"]
4.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["percentile", "summary"]


def percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile (0-100) of ``values``, linearly interpolated; NaN when empty."""
    if not 0 <= p <= 100:
        raise ValueError(f"percentile p must be within 0-100, got {p}")
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = p / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def summary(values: Sequence[float], *, digits: int = 3) -> dict[str, float]:
    """``n``, ``p50``, ``p95``, ``mean``, ``max`` and ``max_over_median`` (a hidden flush or
    refresh shows as a max far above the median), rounded to ``digits``; NaN figures when empty."""
    if not values:
        nan = math.nan
        return {"n": 0, "p50": nan, "p95": nan, "mean": nan, "max": nan, "max_over_median": nan}
    p50 = percentile(values, 50)
    top = max(values)
    return {
        "n": len(values),
        "p50": round(p50, digits),
        "p95": round(percentile(values, 95), digits),
        "mean": round(math.fsum(values) / len(values), digits),
        "max": round(top, digits),
        "max_over_median": round(top / p50, 2) if p50 else math.nan,
    }
