"""What a tournament keeps of its play: sufficient statistics per chunk, not per-deal values.

A chunk is items ``lo .. hi-1`` of one pairing (agents a and b). Its ``ChunkTally`` holds, per
group of items (group 0: all items; Barbu by contract: one group per contract), the count and
the sums and sums of squares of a's points, b's points and the paired difference a - b; the
sums of both win shares; the deals played; the partial sums of the difference at the prefix
lengths of ``CURVE_GRID`` inside the chunk (the settling curve of the plots); and the points
of the items below ``SAMPLE_ITEMS`` (the bounded sample behind score distributions and
ratings); and the cost record of a's and b's decisions (cardsim.decision_cost_nb: decisions
taken, and the time of those timed), so that a resumed run reports the cost of every
chunk, each as it was measured when played. A ``PairingTally`` merges the chunks of a
pairing in any order to the same result.

Exactness: a seat scores whole points, and an agent's points per item are averaged over the
seats it holds and the seating patterns, so in hands mode they are whole multiples of
``1/scale`` (scale = patterns x lcm of the seat counts). Their sums are kept as int64 counts
of ``1/scale``: exact in any chunking. Whole games average over a varying number of deals;
their chunk sums are float64. Across chunks everything is added as exact rationals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cardsim.decision_cost_nb import COST_WIDTH, empty_cost
from experiments.tournaments import tally_nb
from experiments.tournaments.stats import Moments, exact

SAMPLE_ITEMS = 100_000      # items per pairing kept for score distributions and ratings
CURVE_PER_DECADE = 100      # points of the settling curve per factor of 10 in items
# prefix lengths where the running difference is recorded: fixed, whatever the run's length,
# so a run extended later (more deals) keeps the points its finished chunks recorded
CURVE_GRID = np.unique(np.rint(
    10.0 ** (np.arange(0, 15 * CURVE_PER_DECADE + 1) / CURVE_PER_DECADE)).astype(np.int64))
CURVE_GRID = CURVE_GRID[CURVE_GRID >= 2]
FORMAT = "cardsim-tally/1"
A, B, DIFF = 0, 1, 2        # columns of the sums: a's points, b's points, a - b


def points_scale(patterns: np.ndarray, a: int, b: int) -> int:
    """The denominator that makes every per-item points value and win share of a pairing
    whole: patterns x lcm of the number of seats each agent holds in a pattern."""
    counts = [int((row == x).sum()) for row in patterns for x in (a, b)]
    return patterns.shape[0] * math.lcm(*[c for c in counts if c])


@dataclass
class ChunkTally:
    """The sufficient statistics of one chunk of a pairing, items ``lo .. hi-1`` (module
    docstring); the comments of the fields give their shapes. Made by ``from_items`` in the worker
    that played the chunk, saved with ``to_arrays`` and merged by ``PairingTally.add``."""
    lo: int
    hi: int
    scale: int               # int64 sums count 1/scale units, squares 1/scale**2; 0: float64
    count: np.ndarray        # (groups,) items per group
    sums: np.ndarray         # (groups, 3) sums of a, b, a - b
    squares: np.ndarray      # (groups, 3) sums of squares
    wins: np.ndarray         # (2,) sums of a's and b's win shares
    deals: int               # deals played
    curve_at: np.ndarray     # prefix lengths of CURVE_GRID in (lo, hi]
    curve_sums: np.ndarray   # sums of a - b over items lo .. at-1
    curve_squares: np.ndarray
    sample: np.ndarray       # (m, 2) points of items lo .. lo+m-1 (those below SAMPLE_ITEMS)
    cost: np.ndarray | None = None  # (2, COST_WIDTH) a's and b's cost record; None: not kept

    @classmethod
    def from_items(cls, lo: int, hi: int, points, wins, deals, contracts=None,
                   groups: int = 1, scale: int = 0, cost=None) -> "ChunkTally":
        """The tally of one chunk's per-item results (``Table.duplicate``'s arrays; the
        label of each item, e.g. Barbu's contract, when ``groups`` > 1), in one compiled
        pass; ``cost``: the chunk's cost record (rows a, b), when kept."""
        points = np.ascontiguousarray(np.asarray(points, dtype=np.float64)[:, :2])
        wins = np.ascontiguousarray(np.asarray(wins, dtype=np.float64)[:, :2])
        n = hi - lo
        if points.shape[0] != n:
            raise ValueError(f"chunk {lo}-{hi} has {points.shape[0]} items")
        values = points
        if scale:
            units, win_units = np.empty((n, 2), np.int64), np.empty((n, 2), np.int64)
            if tally_nb.to_units(points, scale, units) and tally_nb.to_units(wins, scale,
                                                                             win_units):
                values, wins = units, win_units
            else:
                scale = 0  # not whole multiples after all: float sums instead
        at = CURVE_GRID[(CURVE_GRID > lo) & (CURVE_GRID <= hi)]
        count = np.zeros(groups, dtype=np.int64)
        sums = np.zeros((groups, 3), dtype=values.dtype)
        squares = np.zeros((groups, 3), dtype=values.dtype)
        curve_sums = np.zeros(at.shape[0], dtype=values.dtype)
        curve_squares = np.zeros(at.shape[0], dtype=values.dtype)
        labels = (np.zeros(n, np.int64) if contracts is None
                  else np.ascontiguousarray(contracts, dtype=np.int64))
        tally_nb.chunk_sums(values, labels, lo, at, count, sums, squares, curve_sums,
                            curve_squares)
        m = max(0, min(hi, SAMPLE_ITEMS) - lo)
        return cls(lo, hi, scale, count, sums, squares, wins.sum(axis=0),
                   int(np.asarray(deals).sum()), at, curve_sums, curve_squares,
                   points[:m].copy(),
                   None if cost is None else np.array(cost, dtype=np.int64)[:2])

    def to_arrays(self) -> dict:
        """The tally as named numpy arrays (``np.savez``), tagged with the format
        ``cardsim-tally/1``; ``from_arrays`` reads them back. The cost record, when kept,
        is one more array (``cost``): tallies written before it was kept read back
        without it."""
        out = {"format": np.array(FORMAT), "lo": np.array(self.lo), "hi": np.array(self.hi),
               "scale": np.array(self.scale), "count": self.count, "sums": self.sums,
               "squares": self.squares, "wins": self.wins, "deals": np.array(self.deals),
               "curve_at": self.curve_at, "curve_sums": self.curve_sums,
               "curve_squares": self.curve_squares, "sample": self.sample}
        if self.cost is not None:
            out["cost"] = self.cost
        return out

    @classmethod
    def from_arrays(cls, z) -> "ChunkTally":
        """A tally written by ``to_arrays``; ValueError if it is not one or is inconsistent."""
        if "format" not in z or str(z["format"]) != FORMAT:
            raise ValueError("not a chunk tally")
        t = cls(int(z["lo"]), int(z["hi"]), int(z["scale"]), z["count"], z["sums"],
                z["squares"], z["wins"], int(z["deals"]), z["curve_at"], z["curve_sums"],
                z["curve_squares"], z["sample"], z["cost"] if "cost" in z else None)
        g = t.count.shape[0]
        whole = [x.dtype.kind == "i" for x in (t.sums, t.squares, t.wins, t.curve_sums)]
        if (g < 1 or t.count[0] != t.hi - t.lo or t.sums.shape != (g, 3)
                or whole != [t.scale > 0] * 4
                or t.squares.shape != (g, 3) or t.wins.shape != (2,)
                or t.curve_sums.shape != t.curve_at.shape
                or t.sample.shape != (max(0, min(t.hi, SAMPLE_ITEMS) - t.lo), 2)
                or (t.cost is not None and (t.cost.shape != (2, COST_WIDTH)
                                            or t.cost.dtype.kind != "i"))):
            raise ValueError("inconsistent chunk tally")
        return t


class PairingTally:
    """The merged tallies of one pairing: exact moments per group and column, win sums,
    deals, the settling curve, the sample and the cost of a's and b's decisions. Chunks may
    arrive in any order."""

    def __init__(self, groups: int, items: int):
        self.moments = [[Moments() for _ in range(3)] for _ in range(groups)]
        self.wins = [Fraction(0), Fraction(0)]
        self.deals = 0
        self.cost = empty_cost(2)   # a's and b's cost records, summed (cardsim.decision_cost_nb)
        self.costless = 0           # items merged from chunks kept without a cost record
        self.items = items
        self.sample = None  # (min(items, SAMPLE_ITEMS), 2) points, made by the first chunk
        self.curve: list[tuple[int, float, float | None]] = []  # (items, mean, half) of a-b
        self._merged = 0            # items 0 .. _merged-1 are in _prefix
        self._prefix = Moments()    # moments of a - b over those items
        self._later: dict[int, tuple] = {}  # chunks waiting for an earlier one, by lo

    @property
    def n(self) -> int:
        """Number of items merged so far."""
        return self.moments[0][A].n

    def add(self, t: ChunkTally) -> None:
        """Merge chunk tally ``t`` (chunks may come in any order; the settling curve is extended
        once every earlier chunk has arrived). Raises ValueError if ``t`` has more groups than this
        pairing."""
        if t.count.shape[0] > len(self.moments):
            raise ValueError(f"chunk {t.lo}-{t.hi} has {t.count.shape[0]} groups")
        for g in range(t.count.shape[0]):
            for j in range(3):
                self.moments[g][j] += Moments(int(t.count[g]), exact(t.sums[g, j], t.scale),
                                              exact(t.squares[g, j], t.scale ** 2))
        self.wins = [w + exact(x, t.scale) for w, x in zip(self.wins, t.wins)]
        self.deals += t.deals
        if t.cost is None:
            self.costless += t.hi - t.lo
        else:
            self.cost += t.cost
        if self.sample is None:
            self.sample = np.full((min(self.items, SAMPLE_ITEMS), 2), np.nan)
        self.sample[t.lo:t.lo + t.sample.shape[0]] = t.sample
        total = Moments(t.hi - t.lo, exact(t.sums[0, DIFF], t.scale),
                        exact(t.squares[0, DIFF], t.scale ** 2))
        self._later[t.lo] = (t.hi, total, t.scale, t.curve_at, t.curve_sums, t.curve_squares)
        # curve points need the sums of every earlier item: settle chunks in item order
        while self._merged in self._later:
            hi, total, scale, at, sums, squares = self._later.pop(self._merged)
            for k, s1, s2 in zip(at, sums, squares):
                part = Moments(int(k) - self._merged, exact(s1, scale), exact(s2, scale ** 2))
                self.curve.append((int(k), *(self._prefix + part).mean_ci()))
            self._prefix += total
            self._merged = hi

    def win_rates(self) -> list[float]:
        """The mean win share of agent a and of agent b per item, over the items merged."""
        return [float(w / self.n) for w in self.wins]
