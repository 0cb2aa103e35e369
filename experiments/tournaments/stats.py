"""Confidence intervals for tournament results, from values or from exact running sums.

A tournament never holds its per-deal values: it keeps, per quantity, the count, the sum and
the sum of squares (``Moments``). Sums are exact rationals (``fractions.Fraction``), so adding
the moments of chunks in any order gives the same result to the last bit, and the interval
computed from them equals the one computed from all values (rounded once, at the end).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

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


def exact(x, scale: int = 0) -> Fraction:
    """A stored sum as an exact rational: an integer count of ``1/scale`` units, or (scale 0)
    the exact value of a float."""
    return Fraction(int(x), scale) if scale else Fraction(float(x))


@dataclass(frozen=True)
class Moments:
    """Count, sum and sum of squares of one quantity, exact; ``a + b`` merges two parts."""

    n: int = 0
    total: Fraction = Fraction(0)
    squares: Fraction = Fraction(0)

    def __add__(self, other: "Moments") -> "Moments":
        return Moments(self.n + other.n, self.total + other.total,
                       self.squares + other.squares)

    def mean(self) -> float | None:
        """The mean, None for no values."""
        return float(self.total / self.n) if self.n else None

    def mean_ci(self) -> tuple[float | None, float | None]:
        """Mean and half-width of its 95% interval (as ``mean_ci``); None where undefined:
        no mean without values, no interval for fewer than 2."""
        if self.n < 2:
            return self.mean(), None
        var = (self.squares - self.total * self.total / self.n) / (self.n - 1)
        return self.mean(), Z95 * math.sqrt(max(float(var), 0.0) / self.n)
