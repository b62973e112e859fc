"""The statistics a simulation reports: Wilson intervals for win rates, summaries of lengths.

>>> lo, hi = wilson(80, 100)
>>> round(lo, 3), round(hi, 3)
(0.711, 0.867)
>>> wilson(0, 0)
(0.0, 1.0)
>>> summary([3, 1, 2])["median"]
2
>>> ratio_ci([1, 0, 2, 1], [2, 2, 2, 2])[0]
0.5
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
    # at 0 or n successes the bound is exactly 0 or 1; rounding would leave it a hair off
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == trials else min(1.0, centre + half)
    return (lo, hi)


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


def ratio_ci(nums: Sequence[float], dens: Sequence[float],
             z: float = Z95) -> tuple[float | None, float, float]:
    """A ratio of sums (chips per round) over independent games, with a 95% interval.

    Rounds within one game are not independent, so the game is the unit: the interval is
    the delta-method (linearisation) interval of a ratio estimator over games.
    """
    n = len(nums)
    total_den = sum(dens)
    if n == 0 or total_den == 0:
        return (None, 0.0, 0.0)
    ratio = sum(nums) / total_den
    if n < 2:
        return (ratio, ratio, ratio)
    mean_den = total_den / n
    resid = sum((a - ratio * b) ** 2 for a, b in zip(nums, dens, strict=True)) / (n - 1)
    half = z * math.sqrt(resid / n) / mean_den
    return (ratio, ratio - half, ratio + half)
