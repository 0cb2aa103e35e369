"""The open-hand solvers' search, written once for both games over the game tag
(``cardsim.game_nb``); each game's solver (``cardsim/<game>/solve_nb.py``) supplies its
position row, its trick rules and its values.

``solve_root(game, pos, tt, values)`` values every legal card of the seat to act in a
position with every hand known: by alpha-beta over cards with zero-window tests (MTD(f),
``exact_value``) when the others play together against the seat (paranoid), or by max-n
(``cardsim.maxn_nb``) when every side plays for itself. Both use a transposition table at
trick boundaries (``cardsim.transposition_nb``), the table's best card first, a killer lead
where the game keeps killers (the lead that cut off a sibling search at the same depth), the
game's move order and equal-card merging, its cut-offs (bounds on what is still to come) and
node budgets (once spent, a trick boundary is valued by the game's static count).

The game's pieces, all on its position row ``pos`` (those that read only the fields every
game's row keeps at the same place are written once, in ``cardsim.solve_row_nb``):

- ``count_node(pos)``: one more node searched; ``trick_len(pos)``: cards in the current trick;
- ``settle_boundary(pos, alpha, beta)``: at a trick boundary, before the table is asked:
  ``(True, value)`` when the value is known at once (the deal's end, the last trick, a bound
  outside the window, the budget spent), else ``(False, 0)``;
- ``table_key(pos)``, ``generation(pos)``: the boundary's key and this solve's generation;
- ``settle_node(pos, alpha, beta)``: at every node, after the table: ``(settled, value,
  killer)``, ``killer`` the index in ``pos`` of the killer lead for this depth (-1: no
  killers);
- ``to_act(pos)``, ``maximises(pos, seat)``, ``moves_of(pos, seat)`` (legal cards, equal
  ones merged), ``order_pick(pos, moves, seat)``, ``apply_card(pos, seat, card)`` -> (what
  undoing needs, points gained for the seat's side), ``undo_card(pos, seat, card, saved)``;
- ``wide_with_budget(pos)``: whether a budgeted solve searches one wide window instead of
  zero-window tests;
- for ``solve_root``: ``start_solve(pos, gen)`` (a new solve, its table generation), ``solves_maxn(pos)``, ``share_budget(pos,
  cards)`` (returns the budget to restore), ``restore_budget(pos, budget)``,
  ``begin_card(pos, maxn)`` / ``end_card(pos, maxn, token)`` (node counts per root card),
  ``play_scored`` and ``maxn_root_value(pos, scores, winner, points)`` (a root card's max-n
  value once ``search_maxn`` has run), ``unplay_scored(pos, winner, points)``, and
  ``value_merged(pos, legal, searched, values)`` (merged cards take a searched card's value).
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import lowest_bit, popcount
from cardsim.game_nb import game_piece
from cardsim.jit import NO_REFCOUNT, WITH_REFCOUNT
from cardsim.maxn_nb import FRAME_WIDTH, MAX_DEPTH, search_maxn
from cardsim.solve_row_nb import P_BUDGET
from cardsim.transposition_nb import (INF, TT_LOWER, TT_MOVE, TT_UPPER, new_generation,
                                      tt_matches, tt_save, tt_slot)

PIECES = "cardsim.{game}.solve_nb"
FIRST_STEP = 2  # an exact solve's first step out from a one-sided bound (then doubled)


@njit(cache=True, inline="always")
def always_zero_window(pos):
    """``zero_window_tests``' default: no limit (-1)."""
    return -1

count_node = game_piece(PIECES, "count_node", "pos")
trick_len = game_piece(PIECES, "trick_len", "pos")
settle_boundary = game_piece(PIECES, "settle_boundary", "pos, alpha, beta")
table_key = game_piece(PIECES, "table_key", "pos")
generation = game_piece(PIECES, "generation", "pos")
settle_node = game_piece(PIECES, "settle_node", "pos, alpha, beta")
to_act = game_piece(PIECES, "to_act", "pos")
maximises = game_piece(PIECES, "maximises", "pos, seat")
moves_of = game_piece(PIECES, "moves_of", "pos, seat")
legal_of = game_piece(PIECES, "legal_of", "pos, seat")
order_pick = game_piece(PIECES, "order_pick", "pos, moves, seat")
apply_card = game_piece(PIECES, "apply_card", "pos, seat, card")
undo_card = game_piece(PIECES, "undo_card", "pos, seat, card, saved")
wide_with_budget = game_piece(PIECES, "wide_with_budget", "pos")
start_solve = game_piece(PIECES, "start_solve", "pos, gen")
solves_maxn = game_piece(PIECES, "solves_maxn", "pos")
share_budget = game_piece(PIECES, "share_budget", "pos, cards")
restore_budget = game_piece(PIECES, "restore_budget", "pos, budget")
begin_card = game_piece(PIECES, "begin_card", "pos, maxn")
end_card = game_piece(PIECES, "end_card", "pos, maxn, token")
play_scored = game_piece(PIECES, "play_scored", "pos, seat, card")
maxn_root_value = game_piece(PIECES, "maxn_root_value", "pos, scores, winner, points")
unplay_scored = game_piece(PIECES, "unplay_scored", "pos, winner, points")
value_merged = game_piece(PIECES, "value_merged", "pos, legal, searched, values")
zero_window_tests = game_piece(PIECES, "zero_window_tests", "pos", default=always_zero_window)


# Without reference counting (cardsim.jit): ``search`` allocates nothing, and with it every
# recursive call paid atomic count updates on ``pos`` and ``tt`` (as each game's own solver
# did before this code was shared).
@njit(cache=True, **NO_REFCOUNT)
def search(game, pos, tt, alpha, beta):
    """Value of the rest of the deal from ``pos`` for the side the values are for, within
    the window (alpha, beta) as alpha-beta bounds (fail-soft)."""
    count_node(game, pos)
    tlen = trick_len(game, pos)
    key = 0
    slot = 0
    tt_move = -1
    alpha0 = alpha
    beta0 = beta
    if tlen == 0:
        settled, value = settle_boundary(game, pos, alpha, beta)
        if settled:
            return value
        key = table_key(game, pos)
        slot = tt_slot(tt, key)
        if tt_matches(tt, slot, key, generation(game, pos)):
            lo = tt[slot, TT_LOWER]
            hi = tt[slot, TT_UPPER]
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
            if lo == hi:
                return lo
            tt_move = tt[slot, TT_MOVE]
    settled, value, killer = settle_node(game, pos, alpha, beta)
    if settled:
        return value
    seat = to_act(game, pos)
    maximise = maximises(game, pos, seat)
    moves = moves_of(game, pos, seat)
    best = -INF if maximise else INF
    best_move = -1
    first = tt_move if (tt_move >= 0 and (moves >> tt_move) & 1) else -1
    # a lead that cut off a sibling search at this depth is likely to cut off here too
    # (killer move; tried at leads only: within a trick it measured worse)
    if first < 0 and tlen == 0 and killer >= 0 and pos[killer] >= 0 \
            and (moves >> pos[killer]) & 1:
        first = pos[killer]
    while True:
        if first >= 0:
            card = first
            first = -1
        elif moves != 0:
            card = order_pick(game, pos, moves, seat)
        else:
            break
        moves &= ~(1 << card)
        saved, gained = apply_card(game, pos, seat, card)
        v = gained + search(game, pos, tt, alpha - gained, beta - gained)
        undo_card(game, pos, seat, card, saved)
        if maximise:
            if v > best:
                best = v
                best_move = card
            alpha = max(alpha, v)
        else:
            if v < best:
                best = v
                best_move = card
            beta = min(beta, v)
        if alpha >= beta:
            if tlen == 0 and killer >= 0:
                pos[killer] = card
            break
    if tlen == 0:
        tt_save(tt, slot, key, generation(game, pos), best, alpha0, beta0, best_move)
    return best


@njit(cache=True, **NO_REFCOUNT)
def exact_value(game, pos, tt, guess):
    """The ``search`` value of ``pos`` by zero-window tests (MTD(f), Plaat et al.): each test
    ``value >= beta?`` prunes far more than one wide-window search, and the transposition
    table carries what earlier tests learned. Starts at ``guess`` and bisects once the
    guesses creep. Where the game says so, a budgeted solve searches one wide window instead
    (each zero-window test would meet the budget's static values anew), and after
    ``zero_window_tests`` tests (a game's optional piece; -1, the default: no limit) one
    search in the window between the bounds found ends it (fail-soft bounds often creep
    towards the value from one side, a test at a time). While only one bound is known, an
    exact solve's tests step out from it by 2, 4, 8, ... (a value far from the guess took
    dozens of tests a point or two apart; a budgeted solve keeps its tests, as its values
    depend on the nodes they search). (One call site of
    ``search``: numba's cache cannot link a recursive function called from two places of one
    caller.)"""
    wide = wide_with_budget(game, pos)
    limit = zero_window_tests(game, pos)
    exact = pos[P_BUDGET] == 0
    lo = -INF
    hi = INF
    g = guess
    tests = 0
    step = FIRST_STEP
    while lo < hi:
        if wide:
            alpha = -INF
            beta = INF
        elif tests == limit:  # one window search over what is left between the bounds
            alpha = lo - 1
            beta = hi + 1
            wide = True
        elif exact and tests > 0 and hi - lo > 1 << 18:
            # one side still open: the next test a growing step beyond the bound found
            beta = lo + step if hi == INF else hi - step + 1
            alpha = beta - 1
            step *= 2
        elif tests < 3 or hi - lo > 1 << 18:
            beta = g + 1 if g == lo else g
            alpha = beta - 1
        else:
            beta = lo + (hi - lo + 1) // 2
            alpha = beta - 1
        v = search(game, pos, tt, alpha, beta)
        if wide:
            return v
        if v < beta:
            hi = v
        else:
            lo = v
        g = v
        tests += 1
    return g


@njit(cache=True)
def maxn_value(game, pos, tt, scores, frames, winner, points):
    """A root card's value under max-n (already played: its trick, if it completed one, went
    to ``winner`` for ``points``)."""
    search_maxn(game, pos, tt, scores, frames, generation(game, pos))
    return maxn_root_value(game, pos, scores, winner, points)


@njit(cache=True, **WITH_REFCOUNT)
def solve_root(game, pos, tt, values):
    """``values[c]``: the value of each legal card ``c`` of the seat to act (the game's
    solver module says of what), exact unless the node budget runs out; other entries are
    left as they are. Returns the legal cards' mask. Equal cards get the value of the one
    searched."""
    start_solve(game, pos, new_generation(tt))  # entries of earlier solves no longer match
    seat = to_act(game, pos)
    legal = legal_of(game, pos, seat)
    searched = moves_of(game, pos, seat)
    maxn = solves_maxn(game, pos)
    depth = MAX_DEPTH if maxn else 1
    scores = np.zeros((depth, 4), dtype=np.int64)  # max-n: one row per depth
    frames = np.zeros((depth, FRAME_WIDTH), dtype=np.int64)
    budget = share_budget(game, pos, popcount(searched)) if maxn else -1
    guess = 0
    m = searched
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        token = begin_card(game, pos, maxn)
        if maxn:
            saved, winner, points = play_scored(game, pos, seat, c)
            values[c] = maxn_value(game, pos, tt, scores, frames, winner, points)
            end_card(game, pos, maxn, token)
            unplay_scored(game, pos, winner, points)
        else:
            saved, gained = apply_card(game, pos, seat, c)
            guess = exact_value(game, pos, tt, guess - gained) + gained
            values[c] = guess
            end_card(game, pos, maxn, token)
        undo_card(game, pos, seat, c, saved)
    if maxn:
        restore_budget(game, pos, budget)
    value_merged(game, pos, legal, searched, values)
    return legal
