"""Confidence intervals for tournament results."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def mean_ci(values: np.ndarray) -> tuple[float, float]:
    """Mean and half-width of its 95% confidence interval (normal approximation, which
    the sample sizes of card simulations justify; nan half-width for fewer than 2 values)."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    if n == 0:
        return math.nan, math.nan
    mean = float(values.mean())
    if n < 2:
        return mean, math.nan
    return mean, float(Z95 * values.std(ddof=1) / math.sqrt(n))


def running_mean_ci(values: np.ndarray, points: int = 200) -> tuple[np.ndarray, ...]:
    """(n, mean, half-width) at up to ``points`` prefix lengths, for plots of a difference
    settling as deals accumulate."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    idx = np.unique(np.linspace(2, n, num=min(points, max(n - 1, 1)), dtype=np.int64))
    idx = idx[idx >= 2]
    c1 = np.cumsum(values)
    c2 = np.cumsum(values * values)
    k = idx.astype(np.float64)
    mean = c1[idx - 1] / k
    var = np.maximum(c2[idx - 1] / k - mean * mean, 0.0) * k / (k - 1)
    return idx, mean, Z95 * np.sqrt(var / k)
