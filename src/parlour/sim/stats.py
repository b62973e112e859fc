"""The statistics a simulation reports: Wilson intervals for win rates, summaries of lengths.

>>> lo, hi = wilson(80, 100)
>>> round(lo, 3), round(hi, 3)
(0.711, 0.867)
>>> wilson(0, 0)
(0.0, 1.0)
>>> summary([3, 1, 2])["median"]
2
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    Unlike the normal approximation it stays inside [0, 1] and behaves at 0 and n successes,
    which a lopsided match between computer players hits.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(ordered: Sequence[float], q: float) -> float:
    # nearest-rank: a quantile is always a value that occurred
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def summary(values: Sequence[float]) -> dict[str, Any]:
    """Count, mean, standard deviation, min, 5th percentile, median, 95th percentile, max."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)
    n = len(ordered)
    mean = sum(ordered) / n
    var = sum((v - mean) ** 2 for v in ordered) / (n - 1) if n > 1 else 0.0
    return {"count": n, "mean": mean, "sd": math.sqrt(var), "min": ordered[0],
            "p5": _quantile(ordered, 0.05), "median": _quantile(ordered, 0.5),
            "p95": _quantile(ordered, 0.95), "max": ordered[-1]}
