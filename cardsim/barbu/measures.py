"""Per-deal measures of finished Barbu deals, for rules studies (``experiments.tournaments.study``).

``measure_specs(rules)`` names the measures; ``deal_measures`` reads them from the end state
rows of deals played one per item (hands mode, cardsim.barbu.simulate_nb: deal ``i % 28`` of
match ``i // 28``, the declarer's earlier contracts and owed doubles drawn) and their
statistics rows. Values are whole multiples of ``1 / scale``, returned as int64 counts of
that unit, so sums stay exact. Rates are shares of all deals; positions count from the
declarer (B2): left is the seat after the declarer.
"""

from __future__ import annotations

import numpy as np

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L

CLOSE_POINTS = 5  # a deal whose top two deal scores are at most this apart


def measure_specs(rules) -> list[tuple[str, int, str, str]]:
    """(name, scale, kind, description) of every measure, in the order of
    ``deal_measures``' columns; kind is "points" or "rate"."""
    specs = [(f"points_{where}", 1, "points", f"deal score of the {text} (B7.3)")
             for where, text in (("declarer", "declarer"), ("left", "seat after the declarer"),
                                 ("across", "seat across from the declarer"),
                                 ("right", "seat before the declarer (the dealer)"))]
    specs.append(("declarer_edge", 3, "points",
                  "deal score of the declarer minus the mean of the other three"))
    specs += [(f"contract_{name}", 1, "rate", f"the declarer chose {name} (B3.2)")
              for name in A.CONTRACT_NAMES]
    specs += [
        ("doubled_pairs", 1, "count", "pairs of players with a bet, doubled or redoubled (B6)"),
        ("redoubled_pairs", 1, "count", "pairs redoubled (B6)"),
        ("declarer_doubled_by", 1, "count", "players who doubled the declarer (B6)"),
        ("stakes", 2, "points", "points moved by settlements: half the sum of their sizes "
                                "(B7.2)"),
        ("domino_declarer_first", 1, "rate", "Domino was played and the declarer ran out "
                                             "first (B5)"),
        ("score_margin", 1, "points", "deal score of the top seat minus the second"),
        ("close_deal", 1, "rate", f"the top two deal scores are at most {CLOSE_POINTS} apart"),
    ]
    return specs


def deal_measures(S: np.ndarray, stats: np.ndarray, rules) -> np.ndarray:
    """(n, len(measure_specs(rules))) int64 units of every measure of the finished deals in
    ``S`` (one deal per row, hands mode)."""
    n = S.shape[0]
    rows = np.arange(n)
    declarer = S[:, L.DECLARER]
    scores = S[:, L.DEAL_SCORES:L.DEAL_SCORES + 4]
    cols = [scores[rows, (declarer + k) % 4] for k in range(4)]
    cols.append(3 * cols[0] - (scores.sum(axis=1) - cols[0]))
    contract = S[:, L.CONTRACT]
    cols += [contract == c for c in range(A.NUM_CONTRACTS)]
    bets = S[:, L.BETS:L.BETS + 16]
    cols.append((bets != 0).sum(axis=1))
    cols.append((bets == 2).sum(axis=1))
    cols.append(sum((bets[rows, 4 * s + declarer] != 0) & (s != declarer) for s in range(4)))
    cols.append(np.abs(S[:, L.SETTLEMENTS:L.SETTLEMENTS + 4]).sum(axis=1))
    cols.append((contract == A.DOMINO) & (S[:, L.OUT_ORDER] == declarer))
    top2 = np.sort(scores, axis=1)[:, -2:]
    margin = top2[:, 1] - top2[:, 0]
    cols.append(margin)
    cols.append(margin <= CLOSE_POINTS)
    return np.stack([np.asarray(c, dtype=np.int64) for c in cols], axis=1)


# ---------------------------------------------------------------------------------------------
# whole matches (a study with ``games``): per 28-deal match
# ---------------------------------------------------------------------------------------------
CLOSE_MATCH_POINTS = 20  # a match whose top two totals are at most this apart
POSITIONS = ("first", "second", "third", "fourth")


def game_measure_specs(rules) -> list[tuple[str, int, str, str]]:
    """(name, scale, kind, description) of every whole-match measure (``game_measures``);
    positions count from the first declarer (B2)."""
    specs = [(f"win_{p}_declarer", 12, "rate",
              f"match win share of the {p} declarer (a shared win split, B2)")
             for p in POSITIONS]
    specs += [(f"total_{p}_declarer", 1, "points", f"match total of the {p} declarer")
              for p in POSITIONS]
    specs += [
        ("match_doubled_pairs", 1, "count", "pairs with a bet over the match's deals (B6)"),
        ("match_margin", 1, "points", "match total of the winner minus the second"),
        ("close_match", 1, "rate", f"the top two match totals at most {CLOSE_MATCH_POINTS} "
                                   f"apart"),
    ]
    return specs


def game_measures(S: np.ndarray, stats: np.ndarray, rules) -> np.ndarray:
    """(n, len(game_measure_specs(rules))) int64 units of every measure of the finished
    matches in ``S`` with their statistics rows summed over the match's deals."""
    from cardsim.barbu import simulate_nb as SN

    n = S.shape[0]
    rows = np.arange(n)
    first = S[:, L.FIRST_DECLARER]
    winners = S[:, L.WINNERS]
    count = sum((winners >> s) & 1 for s in range(4))
    cols = []
    for k in range(4):
        seat = (first + k) % 4
        won = (winners >> seat) & 1
        cols.append(np.where(won == 1, 12 // np.maximum(count, 1), 0))
    totals = S[:, L.SCORES:L.SCORES + 4]
    cols += [totals[rows, (first + k) % 4] for k in range(4)]
    cols.append(stats[:, SN.S_PAIRS_DOUBLED] + stats[:, SN.S_PAIRS_REDOUBLED])
    top2 = np.sort(totals, axis=1)[:, -2:]
    margin = top2[:, 1] - top2[:, 0]
    cols.append(margin)
    cols.append(margin <= CLOSE_MATCH_POINTS)
    return np.stack([np.asarray(c, dtype=np.int64) for c in cols], axis=1)
