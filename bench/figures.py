"""How the benchmarks turn timings into figures: one percentile (nearest rank, as every
benchmark here reports it) and a latency's median and 99th percentile in microseconds.

>>> percentile([5, 1, 4, 2, 3], 0.5), percentile([5, 1, 4, 2, 3], 0.99), percentile([], 0.5)
(3, 5, nan)
>>> latency_us([0.001, 0.002, 0.003])
{'median_us': 2000.0, 'p99_us': 3000.0}
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` by nearest rank (``nan`` for none)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def latency_us(seconds: Sequence[float]) -> dict[str, Any]:
    """Median and 99th percentile of round trips timed in seconds, in microseconds."""
    return {"median_us": statistics.median(seconds) * 1e6,
            "p99_us": percentile(seconds, 0.99) * 1e6}
