"""Barbu's compiled face: the kernels every game provides under the same names and
signatures (see cardsim/debertz/face_nb.py and ``cardsim.game_nb``).

Items are those of ``cardsim.barbu.simulate_nb``: a whole 28-deal match, or in hands mode
deal ``i % 28`` of match ``i // 28``. The legal set is ``(base, bits)`` (80 action ids).
As in Debertz, the legal set and the random action are called, not inlined.
"""

from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import init_game, legal_mask, step
from cardsim.barbu.simulate_nb import (  # noqa: F401
    S_DECISIONS,
    init_hand_item,
    play_random_deal,
    record_deal_stats,
)
from cardsim.barbu.simulate_nb import policy_stream as _policy
from cardsim.barbu.simulate_nb import random_action as _random
from cardsim.game_nb import GameTag
from cardsim.jit import NO_REFCOUNT

DUPLICATE_KEY = stream_keys.DUPLICATE  # pattern p of item i: stream(seed, i, DUPLICATE_KEY + p)


GAME = GameTag("barbu")  # this game's tag: code written once over the tag, for Barbu

@njit(cache=True, inline="always")
def init_item(st, R, seed, item, whole):
    """Row ``st`` starts item ``item``: match ``item``, or its hands-mode deal."""
    if whole:
        init_game(st, R, seed, item)
    else:
        init_hand_item(st, R, seed, item)


@njit(cache=True, **NO_REFCOUNT)
def legal(st, R):
    """The legal set ``(base, bits)`` of the seat to act: ``base + k`` is legal for each set bit
    ``k`` (one phase's action ids fit in 64 bits); ``(0, 0)`` when nobody is to act."""
    return legal_mask(st, R)


@njit(cache=True, inline="always")
def num_seats(R):
    """Barbu is always played by four (B1); ``R`` is not read."""
    return 4


@njit(cache=True, inline="always")
def deal_over(st):
    """Whether the current deal has ended (or the match is over)."""
    return st[L.PHASE] >= L.PH_DEAL_END


@njit(cache=True, inline="always")
def game_over(st):
    """Whether the 28-deal match is over (B2)."""
    return st[L.PHASE] == L.PH_MATCH_OVER


@njit(cache=True, inline="always")
def item_over(st, whole):
    """Whether an item whose deal has just ended is finished: in hands mode after its one deal,
    else at the end of the match."""
    return (not whole) or st[L.PHASE] == L.PH_MATCH_OVER


@njit(cache=True, inline="always")
def turn(st):
    """The seat to act (-1 when nobody is)."""
    return st[L.TURN]


@njit(cache=True, **NO_REFCOUNT)
def random_action(st, R, rng, i):
    """The uniformly random legal action (nothing drawn when only one is legal)."""
    base, bits = legal_mask(st, R)
    return _random(base, bits, rng, i)


@njit(cache=True, inline="always")
def random_legal(base, bits, rng, i):
    """A uniformly random member of the legal set ``(base, bits)`` (nothing drawn when only
    one is legal)."""
    return _random(base, bits, rng, i)


@njit(cache=True, inline="always")
def policy_stream(seed, item, whole):
    """The generator state of item ``item``'s decisions in a simulation
    (``simulate_nb.policy_stream``: a hands-mode deal draws from a stream of its match)."""
    return _policy(seed, item, whole)


@njit(cache=True, inline="always")
def duplicate_stream(seed, item, pattern):
    """The generator state of item ``item``'s decisions under seating pattern ``pattern``
    (duplicate tournaments: the same decisions for every rotation of the seats)."""
    return rng_nb.stream(seed, item, DUPLICATE_KEY + pattern)


@njit(cache=True, inline="always")
def record_deal(st, R, stats, whole):
    """Add the deal that just ended to a statistics row (cardsim.barbu.simulate_nb S_*); ``R`` is
    not needed."""
    record_deal_stats(st, stats, whole)


@njit(cache=True, inline="always")
def count_decisions(stats, taken):
    """Add ``taken`` decisions to the statistics row's decision count."""
    stats[S_DECISIONS] += taken


@njit(cache=True, inline="always")
def seat_points(st, R, seat, whole):
    """The deal score (B7.3) in hands mode; in a whole match the final total per deal."""
    # one return: the face is inlined into callers' IR
    return st[L.SCORES + seat] / L.DEALS_PER_MATCH if whole else st[L.DEAL_SCORES + seat] * 1.0


@njit(cache=True, inline="always")
def seat_won(st, R, seat, whole):
    """1 when ``seat`` is among the match winners (a shared win counts for each, B2)."""
    return (st[L.WINNERS] >> seat) & 1 if whole else 0


@njit(cache=True, inline="always")
def deals_played(st, whole):
    """Deals a finished item played: the 28 of a match (B2), or 1 in hands mode."""
    return L.DEALS_PER_MATCH if whole else 1


@njit(cache=True, inline="always")
def item_label(st, whole):
    """The contract played (hands mode); -1 for whole matches."""
    return -1 if whole else st[L.CONTRACT]


@njit(cache=True, **NO_REFCOUNT)  # not inlined: once per item, and step is large
def force_contract(st, R, item):
    """Hands mode: the declarer plays contract ``item % 7`` (used or not)."""
    c = item % A.NUM_CONTRACTS
    st[L.CONTRACTS_LEFT + st[L.DECLARER]] |= 1 << c
    step(st, R, A.CONTRACT + c)


@njit(cache=True, inline="always")
def deal_rewards(st, R, rewards):
    """Each seat gets its deal score (B7.3) of the deal that just ended."""
    for s in range(4):
        rewards[s] += st[L.DEAL_SCORES + s]


@njit(cache=True, inline="always")
def state_width():
    """Width of Barbu's engine state row (``layout.STATE_WIDTH``)."""
    return L.STATE_WIDTH
