"""The statistics benchmarks share: the interval of a rate (the computer players'
benchmarks, :mod:`bench.yard_ai` and :mod:`bench.classic_ai`) and a percentile of
latencies (the Telegram benchmarks, :mod:`bench.telegram` and
:mod:`bench.telegram_floor`)."""

from __future__ import annotations

import math


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> low, high = wilson(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = p + z * z / (2 * trials)
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials))
    denominator = 1 + z * z / trials
    return ((centre - margin) / denominator, (centre + margin) / denominator)


def percentile(values: list[float], percent: float) -> float:
    """The nearest-rank percentile of ``values`` (0 when there are none).

    >>> percentile([4.0, 1.0, 3.0, 2.0], 50), percentile([4.0, 1.0, 3.0, 2.0], 99)
    (2.0, 4.0)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(percent / 100 * len(ordered)) - 1))]
