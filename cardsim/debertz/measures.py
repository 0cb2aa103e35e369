"""Per-deal measures of finished Debertz deals, for rules studies
(``experiments.tournaments.study``).

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


# ---------------------------------------------------------------------------------------------
# whole games (a study with ``games``): per game, from its end state and summed statistics
# ---------------------------------------------------------------------------------------------
CLOSE_GAME_POINTS = 50  # a game whose top two sides' final scores are at most this apart


def first_dealers(S: np.ndarray, rules) -> np.ndarray:
    """The first dealer of each game in ``S`` (D1: the rules' seat, or the draw that
    ``engine_nb.init_game`` makes from the game's seeded generator)."""
    from cardsim.debertz.measures_nb import drawn_first_dealers

    if rules.first_dealer != "random":
        return np.full(S.shape[0], rules.first_dealer, dtype=np.int64)
    out = np.empty(S.shape[0], dtype=np.int64)
    drawn_first_dealers(S[:, L.SEED].copy(), S[:, L.GAME_ID].copy(), rules.players, out)
    return out


def game_measure_specs(rules) -> list[tuple[str, int, str, str]]:
    """(name, scale, kind, description) of every whole-game measure (``game_measures``);
    positions count from the game's first dealer."""
    if rules.teams:
        wins = [("win_first_side", "the side of the seat after the first dealer won the game"),
                ("win_dealer_side", "the first dealer's side won the game")]
    else:
        wins = [(f"win_hand{k}", f"the seat {k} after the first dealer won the game")
                for k in range(1, rules.players)]
        wins.append(("win_dealer", "the first dealer won the game"))
    specs = [(name, 1, "rate", text) for name, text in wins]
    specs += [
        ("first_hand_win_edge", rules.sides - 1, "rate",
         "win share of the side after the first dealer minus the mean of the other sides"),
        ("game_deals", 1, "count", "deals in the game, void ones included (game length)"),
        ("game_bytes", 1, "count", "bytes in the game (D9.2)"),
        ("game_void_deals", 1, "count", "void deals in the game (D3.2, D4)"),
        ("debertz_win", 1, "rate", "the game was won by a debertz (D6.5)"),
        ("points_ending", 1, "rate", "the game ended in mid-deal (D11, end_mode points)"),
        ("game_margin", 1, "points", "final score of the winner minus the best other side"),
        ("close_game", 1, "rate", f"the top two final scores at most {CLOSE_GAME_POINTS} "
                                  f"apart"),
    ]
    return specs


def game_measures(S: np.ndarray, stats: np.ndarray, rules) -> np.ndarray:
    """(n, len(game_measure_specs(rules))) int64 units of every measure of the finished
    games in ``S`` with their statistics rows summed over the game's deals."""
    players, sides = rules.players, rules.sides
    side = (lambda seat: seat % 2) if rules.teams else (lambda seat: seat)
    first = first_dealers(S, rules)
    winner = S[:, L.WINNER]
    hands = [1, players] if rules.teams else list(range(1, players + 1))
    cols = [winner == side((first + k) % players) for k in hands]
    won_first = winner == side((first + 1) % players)
    cols.append(sides * won_first.astype(np.int64) - 1)  # (sides-1)*w - (1 - w)
    cols.append(stats[:, SN.S_DEALS])
    cols.append(stats[:, SN.S_BYTE])
    cols.append(stats[:, SN.S_VOID])
    cols.append(stats[:, SN.S_DEBERTZ] > 0)
    cols.append(stats[:, SN.S_POINTS_END] > 0)
    top2 = np.sort(S[:, L.SCORES:L.SCORES + sides], axis=1)[:, -2:]
    margin = top2[:, 1] - top2[:, 0]
    cols.append(margin)
    cols.append(margin <= CLOSE_GAME_POINTS)
    return np.stack([np.asarray(c, dtype=np.int64) for c in cols], axis=1)
