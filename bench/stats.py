"""What the computer players' benchmarks (:mod:`bench.yard_ai`, :mod:`bench.classic_ai`)
share: the interval of a rate."""

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
