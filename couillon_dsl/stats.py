"""Statistics with 95% intervals for simulation figures.

Every figure a simulation reports is an :class:`Estimate`: a value, an interval and the
sample size behind it, so a reader can tell a real difference from noise. Rates use the
Wilson score interval (good coverage near 0 and 1, where most of our rates live); means use
Student's t; quantiles use the distribution-free order-statistic interval; differences use
Newcombe's hybrid score interval (rates), Welch's interval (means) or a percentile
bootstrap (quantiles). Pure Python, no NumPy.

>>> e = wilson(8, 10)
>>> e.value, round(e.low, 3), round(e.high, 3)
(0.8, 0.49, 0.943)
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist
from typing import Sequence

Z95 = NormalDist().inv_cdf(0.975)  # 1.959963...


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval; ``low``/``high`` are None when there is none (too few data, a maximum)."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    method: str

    def to_dict(self) -> dict[str, object]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "method": self.method}


def wilson(successes: int, trials: int, z: float = Z95) -> Estimate:
    """Wilson score interval for a binomial rate."""
    if trials <= 0:
        return Estimate(None, None, None, 0, "wilson")
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    # clamp away float dust so a rate of 0 or 1 keeps its exact end
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Estimate(p, low, high, trials, "wilson")


def t_quantile(p: float, df: int) -> float:
    """Quantile of Student's t: exact for df 1 and 2, Cornish-Fisher expansion above (relative error < 0.2%)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be >= 1, got {df}")
    if df == 1:
        return math.tan(math.pi * (p - 0.5))
    if df == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    z = NormalDist().inv_cdf(p)
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def _mean_var(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else 0.0
    return mean, var


def mean_t(values: Sequence[float], level: float = 0.95) -> Estimate:
    """Mean with Student's t interval (no interval from a single value)."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, "t")
    mean, var = _mean_var(values)
    if n == 1:
        return Estimate(mean, None, None, 1, "t")
    half = t_quantile(0.5 + level / 2, n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n, "t")


def quantile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile of sorted data, linear interpolation between order statistics (type 7)."""
    if not sorted_values:
        raise ValueError("quantile of no data")
    position = q * (len(sorted_values) - 1)
    below = math.floor(position)
    above = min(below + 1, len(sorted_values) - 1)
    fraction = position - below
    return sorted_values[below] + (sorted_values[above] - sorted_values[below]) * fraction


def quantile_ci(values: Sequence[float], q: float, z: float = Z95) -> Estimate:
    """A quantile with the distribution-free interval from order statistics (normal approximation of the binomial ranks)."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0, "order-statistics")
    data = sorted(values)
    spread = z * math.sqrt(n * q * (1 - q))
    low_rank = max(0, math.floor(n * q - spread))  # 0-based ranks
    high_rank = min(n - 1, math.ceil(n * q + spread))
    return Estimate(quantile(data, q), data[low_rank], data[high_rank], n, "order-statistics")


def diff_rates(a: Estimate, b: Estimate, z: float = Z95) -> Estimate:
    """Difference a - b of two independent Wilson rates, Newcombe's hybrid score interval (method 10)."""
    if a.value is None or b.value is None or a.low is None or b.low is None or a.high is None or b.high is None:
        return Estimate(None, None, None, min(a.n, b.n), "newcombe")
    d = a.value - b.value
    low = d - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = d + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Estimate(d, max(-1.0, low), min(1.0, high), min(a.n, b.n), "newcombe")


def diff_means(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> Estimate:
    """Difference of means mean(a) - mean(b) with Welch's interval (unequal variances)."""
    if len(a) < 2 or len(b) < 2:
        value = (math.fsum(a) / len(a) - math.fsum(b) / len(b)) if a and b else None
        return Estimate(value, None, None, min(len(a), len(b)), "welch")
    mean_a, var_a = _mean_var(a)
    mean_b, var_b = _mean_var(b)
    sa, sb = var_a / len(a), var_b / len(b)
    d = mean_a - mean_b
    if sa + sb == 0:
        return Estimate(d, d, d, min(len(a), len(b)), "welch")
    df = (sa + sb) ** 2 / (sa**2 / (len(a) - 1) + sb**2 / (len(b) - 1))
    half = t_quantile(0.5 + level / 2, max(1, math.floor(df))) * math.sqrt(sa + sb)
    return Estimate(d, d - half, d + half, min(len(a), len(b)), "welch")


def bootstrap_diff(a: Sequence[float], b: Sequence[float], q: float, rng: random.Random,
                   resamples: int = 500, level: float = 0.95) -> Estimate:
    """Difference of q-quantiles quantile(a) - quantile(b), percentile bootstrap interval."""
    if not a or not b:
        return Estimate(None, None, None, min(len(a), len(b)), "bootstrap")
    d = quantile(sorted(a), q) - quantile(sorted(b), q)
    draws = sorted(
        quantile(sorted(rng.choices(a, k=len(a))), q) - quantile(sorted(rng.choices(b, k=len(b))), q)
        for _ in range(resamples)
    )
    tail = (1 - level) / 2
    return Estimate(d, quantile(draws, tail), quantile(draws, 1 - tail), min(len(a), len(b)), "bootstrap")
