"""Per-deal measures of finished Debertz deals, for rules studies (``experiments.study``).

``measure_specs(rules)`` names the measures a table of these rules has; ``deal_measures``
reads them from the end state rows of deals played one per item (hands mode: each deal a
fresh game, its first dealer drawn) and the statistics row of each (``simulate_nb.S_*``).
Values are whole multiples of ``1 / scale`` and come back as int64 counts of that unit, so
sums over millions of deals stay exact.

Every rate is a share of *all* deals (void deals included), so that the same deal can be
compared under two rules variants whatever happened in it. Positions count from the dealer:
hand 1 is the seat after the dealer (the first to bid), hand ``players`` the dealer (D1).
"""

from __future__ import annotations

import numpy as np

from cardsim.debertz import layout as L
from cardsim.debertz import simulate_nb as SN

CLOSE_POINTS = 10  # a played deal whose top two sides' round points are at most this apart


def _side_names(rules) -> list[tuple[str, str]]:
    if rules.teams:
        return [("points_first_side", "recorded points of the side of the seat after the "
                                      "dealer (D9)"),
                ("points_dealer_side", "recorded points of the dealer's side (D9)")]
    out = [(f"points_hand{k}", f"recorded points of the seat {k} after the dealer (D9)")
           for k in range(1, rules.players)]
    return out + [("points_dealer", "recorded points of the dealer (D9)")]


def measure_specs(rules) -> list[tuple[str, int, str, str]]:
    """(name, scale, kind, description) of every measure, in the order of
    ``deal_measures``' columns; kind is "points" or "rate"."""
    specs = [(name, 1, "points", text) for name, text in _side_names(rules)]
    specs += [
        ("first_hand_edge", rules.sides - 1, "points",
         "recorded points of the side of the seat after the dealer minus the mean of the "
         "other sides"),
        ("bidder_round_points", 1, "points", "round points of the bidder's side (D9.1)"),
        ("made", 1, "rate", "the bidder's side scored strictly more than every opponent (D9.2)"),
        ("byte", 1, "rate", "the bidder's side lost the deal: a byte (D9.2)"),
        ("hanging_byte", 1, "rate", "the bidder's side tied the best opponent (D9.2)"),
        ("void_deal", 1, "rate", "the deal was void: four sevens or all passed (D3.2, D4)"),
        ("bidder_first_hand", 1, "rate", "the seat after the dealer became the bidder (D4)"),
        ("bid_round2", 1, "rate", "trump named in bidding round 2, not the turn-up suit (D4)"),
        ("seven_swap", 1, "rate", "the 7 of trump was swapped for the turn-up (D5)"),
        ("terz", 1, "rate", "the highest sequence of the deal was a terz (D6)"),
        ("fifty", 1, "rate", "the highest sequence of the deal was a fifty (D6)"),
        ("debertz", 1, "rate", "a debertz ended the game (D6.5)"),
        ("bella", 1, "rate", "a bella was held (D7)"),
        ("capot", 1, "rate", "one side took every trick"),
    ]
    if rules.sides > 2:
        specs.append(("trickless_side", 1, "rate", "some side took no trick (D9.4)"))
    specs += [
        ("round_margin", 1, "points", "round points of the top side minus the second (D9.1)"),
        ("close_deal", 1, "rate", f"a played deal whose top two sides' round points are at "
                                  f"most {CLOSE_POINTS} apart"),
    ]
    return specs


def _per_side(values: np.ndarray, rules) -> np.ndarray:
    """Per-seat columns (n, 4) summed into per-side columns (n, sides)."""
    if rules.teams:
        return values[:, 0::2] + values[:, 1::2]
    return values[:, :rules.players]


def deal_measures(S: np.ndarray, stats: np.ndarray, rules) -> np.ndarray:
    """(n, len(measure_specs(rules))) int64 units of every measure of the finished deals in
    ``S`` (one deal per row, hands mode) with their statistics rows ``stats``."""
    n = S.shape[0]
    players, sides = rules.players, rules.sides
    rows = np.arange(n)
    dealer = S[:, L.DEALER]
    side = (lambda seat: seat % 2) if rules.teams else (lambda seat: seat)
    recorded = S[:, L.RECORDED:L.RECORDED + sides]
    round_points = S[:, L.ROUND_POINTS:L.ROUND_POINTS + sides]
    end = S[:, L.END]
    played = (end == L.END_PLAYED_OUT) | (end == L.END_POINTS)
    cols = []
    hands = [1, players] if rules.teams else list(range(1, players + 1))
    for k in hands:
        cols.append(recorded[rows, side((dealer + k) % players)])
    first = recorded[rows, side((dealer + 1) % players)]
    cols.append((sides - 1) * first - (recorded.sum(axis=1) - first))
    bidder = S[:, L.BIDDER]
    bside = side(np.maximum(bidder, 0))
    cols.append(np.where(bidder >= 0, round_points[rows, bside], 0))
    byte = S[:, L.BYTE]
    cols.append(played & (byte == L.BYTE_NONE))
    cols.append(played & (byte == L.BYTE_BYTE))
    cols.append(played & (byte == L.BYTE_HANGING))
    cols.append(end == L.END_VOID)
    cols.append(bidder == (dealer + 1) % players)
    cols.append(played & (S[:, L.TRUMP] != S[:, L.TURNUP] // 8))
    cols.append(played & (S[:, L.SWAP_SEAT] >= 0))
    for column in (SN.S_TERZ, SN.S_FIFTY, SN.S_DEBERTZ, SN.S_BELLA):
        cols.append(stats[:, column])
    tricks = _per_side(S[:, L.TRICKS_WON:L.TRICKS_WON + 4], rules)
    cols.append(played & (tricks.max(axis=1) == rules.tricks))
    if sides > 2:
        cols.append(played & (tricks.min(axis=1) == 0))
    top2 = np.sort(round_points, axis=1)[:, -2:]
    margin = np.where(played, top2[:, 1] - top2[:, 0], 0)
    cols.append(margin)
    cols.append(played & (margin <= CLOSE_POINTS))
    return np.stack([np.asarray(c, dtype=np.int64) for c in cols], axis=1)
