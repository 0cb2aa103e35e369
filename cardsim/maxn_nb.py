"""What the open-hand solvers' max-n searches share (``cardsim/<game>/solve_nb.py``).

Max-n (Luckhardt and Irani) values a position by the scores every side takes when each side
to act plays the card best for its own score. It suits the tables where every player plays
for himself (Barbu, Debertz with three players or four each for himself) better than the
paranoid model, where the others are taken for one team against the seat.

No window prunes max-n, so the search keeps every side's score: a row of ``scores`` per
depth (one card played per depth) and a frame per depth in ``frames``. It is iterative over
these frames: numba's disk cache cannot load a second recursive search reached from a
solver's entry point. A transposition-table entry (``cardsim.transposition_nb``) holds the
four scores packed in its lower-bound column.

``search_maxn(game, ...)`` is written once; a game tag (``cardsim.game_nb``) picks the
game's own pieces from ``cardsim.<game>.solve_nb`` at compile time: ``open_node`` (settle a
node at once, or set up its frame), ``order_pick``, ``play_scored`` (play a card: what
undoing needs, the side that took the trick it completed and the points),
``undo_from_frame`` and ``seat_utility`` (what a seat plays for, from the sides' scores),
and ``pairs_sum_below_zero`` (True where the side that acts is the seat, and any two sides'
values add up to zero or less: each side's value is its points less all the others').

Shallow pruning (Korf 1991), where ``pairs_sum_below_zero`` holds: a node whose side has
already found a value ``B`` leaves its parent's side (another side) at most ``-B``, plus or
minus what the parent's card itself scored; once that is no more than the parent's best, the
parent will not choose this node (it keeps its first best on ties), so the node's other cards
are not tried. Only nodes within a trick are cut so: a trick boundary's scores go into the
table, which needs them exact (cutting there too measured more nodes, not fewer).
"""

import importlib

from numba import njit
from numba.extending import overload

from cardsim.game_nb import _name
from cardsim.transposition_nb import (INF, TT_GEN, TT_KEY, TT_LOWER, TT_MOVE, TT_UPPER,
                                      tt_matches, tt_slot)

# a max-n node's frame
F_MOVES = 0      # cards still to try
F_SEAT = 1       # the seat to act
F_BEST = 2       # the best score for its side so far
F_BEST_MOVE = 3
F_CEILING = 4    # the most its side could get: trying more cards cannot beat this
F_CARD = 5       # the card being tried, and what undoing it needs:
F_WINNER = 6     # the side that took the trick it completed (-1 if none)
F_POINTS = 7     # and that trick's points
F_SAVED = 8      # [5] what the game's apply_card saved (up to five values)
F_KEY = 13       # transposition key at a trick boundary
F_SLOT = 14      # its slot, -1 within a trick
FRAME_WIDTH = 15
MAX_DEPTH = 56   # cards after the root card: at most 51 (Barbu)

VALUE_BITS = 15
VALUE_OFFSET = 1 << 14   # scores packed four to a table entry, each in [-2**14, 2**14)


@njit(cache=True, inline="always")
def pack_scores(scores, d):
    """The four scores ``scores[d]`` as one int64."""
    packed = 0
    for j in range(4):
        packed |= (scores[d, j] + VALUE_OFFSET) << (VALUE_BITS * j)
    return packed


@njit(cache=True, inline="always")
def unpack_scores(packed, scores, d):
    """The four scores packed by ``pack_scores`` into ``scores[d]``."""
    for j in range(4):
        scores[d, j] = ((packed >> (VALUE_BITS * j)) & ((1 << VALUE_BITS) - 1)) - VALUE_OFFSET


@njit(cache=True, inline="always")
def store_scores(tt, frames, scores, d, gen):
    """Keep a finished node's scores in the table, when it is a trick boundary (its frame
    has a slot)."""
    slot = frames[d, F_SLOT]
    if slot >= 0:
        tt[slot, TT_KEY] = frames[d, F_KEY]
        tt[slot, TT_GEN] = gen
        tt[slot, TT_LOWER] = pack_scores(scores, d)
        tt[slot, TT_UPPER] = INF  # no bounds: max-n entries hold the scores themselves
        tt[slot, TT_MOVE] = frames[d, F_BEST_MOVE]


@njit(cache=True, inline="always")
def probe_scores(tt, key, gen, scores, frames, d):
    """A trick boundary: True with ``scores[d]`` from the table when it holds the position,
    else False with the position's key and slot in frame ``d`` (for ``store_scores``)."""
    slot = tt_slot(tt, key)
    if tt_matches(tt, slot, key, gen):
        unpack_scores(tt[slot, TT_LOWER], scores, d)
        return True
    frames[d, F_KEY] = key
    frames[d, F_SLOT] = slot
    return False


@njit(cache=True, inline="always")
def open_frame(frames, d, seat, moves, ceiling):
    """Frame ``d`` of a node to search: ``seat`` to act, ``moves`` to try, and the most its
    side could get."""
    frames[d, F_SEAT] = seat
    frames[d, F_MOVES] = moves
    frames[d, F_CEILING] = ceiling
    frames[d, F_BEST] = -INF
    frames[d, F_BEST_MOVE] = -1
    return False


# --- the game's pieces: plain Python (NUMBA_DISABLE_JIT) and their compiled overloads -------
def _solver(game):
    return importlib.import_module(f"cardsim.{_name(game)}.solve_nb")


def piece(fn):
    """The compiled overload of piece ``fn``, inlined into the search."""
    return overload(fn, inline="always")


def open_node(game, pos, tt, scores, frames, d):
    """Start the node at depth ``d``: True when its scores are settled at once
    (``scores[d]`` set), else False with its frame ready for its cards."""
    return _solver(game).open_node(pos, tt, scores, frames, d)


@piece(open_node)
def _open_node(game, pos, tt, scores, frames, d):
    k = _solver(game).open_node
    return lambda game, pos, tt, scores, frames, d: k(pos, tt, scores, frames, d)


def order_pick(game, pos, moves, seat):
    """The next card of ``moves`` to try, likely best first."""
    return _solver(game).order_pick(pos, moves, seat)


@piece(order_pick)
def _order_pick(game, pos, moves, seat):
    k = _solver(game).order_pick
    return lambda game, pos, moves, seat: k(pos, moves, seat)


def play_scored(game, pos, seat, card):
    """Play ``card``: what undoing it needs (a tuple of at most five), the side that took
    the trick it completed (-1 if none) and that trick's points."""
    return _solver(game).play_scored(pos, seat, card)


@piece(play_scored)
def _play_scored(game, pos, seat, card):
    k = _solver(game).play_scored
    return lambda game, pos, seat, card: k(pos, seat, card)


def undo_from_frame(game, pos, seat, card, frames, d):
    """Take back ``card`` with what ``play_scored`` saved in frame ``d``."""
    _solver(game).undo_from_frame(pos, seat, card, frames, d)


@piece(undo_from_frame)
def _undo_from_frame(game, pos, seat, card, frames, d):
    k = _solver(game).undo_from_frame
    return lambda game, pos, seat, card, frames, d: k(pos, seat, card, frames, d)


def pairs_sum_below_zero(game, pos):
    """Whether shallow pruning is sound here (module docstring)."""
    return _solver(game).pairs_sum_below_zero(pos)


@piece(pairs_sum_below_zero)
def _pairs_sum_below_zero(game, pos):
    k = _solver(game).pairs_sum_below_zero
    return lambda game, pos: k(pos)


def seat_utility(game, pos, seat, scores, d):
    """What ``seat`` plays for, from the sides' scores ``scores[d]``."""
    return _solver(game).seat_utility(pos, seat, scores, d)


@piece(seat_utility)
def _seat_utility(game, pos, seat, scores, d):
    k = _solver(game).seat_utility
    return lambda game, pos, seat, scores, d: k(pos, seat, scores, d)


# --- the search --------------------------------------------------------------------------
@njit(cache=True, inline="always")
def play_next(game, pos, frames, d):
    """Play the node's next card, in move order; False when none is left to try."""
    moves = frames[d, F_MOVES]
    if moves == 0:
        return False
    seat = frames[d, F_SEAT]
    card = order_pick(game, pos, moves, seat)
    frames[d, F_MOVES] = moves & ~(1 << card)
    saved, winner, points = play_scored(game, pos, seat, card)
    frames[d, F_CARD] = card
    frames[d, F_WINNER] = winner
    frames[d, F_POINTS] = points
    for k in range(len(saved)):
        frames[d, F_SAVED + k] = saved[k]
    return True


@njit(cache=True, inline="always")
def take_back(game, pos, scores, frames, d):
    """Undo the card ``play_next`` played at depth ``d`` and weigh its outcome
    (``scores[d + 1]``, plus the trick it completed) for the seat that played it: the best
    so far becomes the node's scores, and once it reaches the node's ceiling no other card
    is tried."""
    seat = frames[d, F_SEAT]
    card = frames[d, F_CARD]
    undo_from_frame(game, pos, seat, card, frames, d)
    if frames[d, F_WINNER] >= 0:
        scores[d + 1, frames[d, F_WINNER]] += frames[d, F_POINTS]
    u = seat_utility(game, pos, seat, scores, d + 1)
    if u > frames[d, F_BEST]:
        frames[d, F_BEST] = u
        frames[d, F_BEST_MOVE] = card
        for j in range(4):
            scores[d, j] = scores[d + 1, j]
        if u >= frames[d, F_CEILING]:
            frames[d, F_MOVES] = 0  # nothing better is possible
        elif d > 0 and frames[d, F_SLOT] < 0 and frames[d - 1, F_SEAT] != seat \
                and pairs_sum_below_zero(game, pos) \
                and parent_gets_at_most(frames, d - 1, -u) <= frames[d - 1, F_BEST]:
            frames[d, F_MOVES] = 0  # the parent keeps a card it has (shallow pruning)


@njit(cache=True, inline="always")
def parent_gets_at_most(frames, p, most):
    """The most that the side of the seat acting at depth ``p`` gets by the card it played
    there, when it gets at most ``most`` from the node that card led to: the trick the card
    completed, if any, counts for its taker and against everyone else."""
    if frames[p, F_WINNER] < 0:
        return most
    if frames[p, F_WINNER] == frames[p, F_SEAT]:
        return most + frames[p, F_POINTS]
    return most - frames[p, F_POINTS]


@njit(cache=True)
def search_maxn(game, pos, tt, scores, frames, gen):
    """Max-n from ``pos``: ``scores[0]`` gets the points each side takes over the rest of
    the deal when every side to act plays for its own value; table entries of generation
    ``gen``. Depth-first with an explicit stack of frames, one per card played."""
    if open_node(game, pos, tt, scores, frames, 0):
        return
    d = 0
    while True:
        if play_next(game, pos, frames, d):
            if open_node(game, pos, tt, scores, frames, d + 1):
                take_back(game, pos, scores, frames, d)
            else:
                d += 1
            continue
        store_scores(tt, frames, scores, d, gen)
        if d == 0:
            return
        d -= 1
        take_back(game, pos, scores, frames, d)
