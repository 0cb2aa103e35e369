"""Debertz's compiled face: the kernels every game provides under the same names and
signatures, so that code above the engine (the table, the environments) is written once and
picks a game's kernels at compile time (``cardsim.game_nb``).

Items: in hands mode item ``i`` is a fresh game ``i`` played for its first deal; in whole mode
game ``i`` played to its end (D11). The legal set is ``(base, bits)``: action ``base + k`` is
legal when bit ``k`` of ``bits`` is set (Debertz: base 0, 40 action ids).

The small kernels are inlined into their callers. The legal set and the random action are
compiled once and called: inlined, the legal-set rules (D7) were copied into every loop and
environment kernel, about twenty seconds of each one's first compilation, for a call that
costs a few nanoseconds.
"""

from numba import njit

from cardsim import rng_nb
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import init_game, legal_mask, side_of
from cardsim.debertz.simulate_nb import (  # noqa: F401
    POLICY_KEY,
    S_DECISIONS,
    play_random_deal,
    record_deal_stats,
)
from cardsim.game_nb import GameTag
from cardsim.jit import NO_REFCOUNT
from cardsim.rng_nb import random_bit

# Keys of the random streams: decisions of item i in a simulation come from
# stream(seed, i, POLICY_KEY), those of pattern p of a duplicate item from
# stream(seed, i, POLICY_KEY + 1 + p).
DUPLICATE_KEY = POLICY_KEY + 1


GAME = GameTag("debertz")  # this game's tag: code written once over the tag, for Debertz

@njit(cache=True, inline="always")
def init_item(st, R, seed, item, whole):
    """Row ``st`` starts item ``item`` of a run with ``seed`` (a fresh game either way)."""
    init_game(st, R, seed, item)


@njit(cache=True, **NO_REFCOUNT)
def legal(st, R):
    """The legal set ``(base, bits)`` of the seat to act ((0, 0) when nobody is to act)."""
    return 0, legal_mask(st, R)


@njit(cache=True, inline="always")
def num_seats(R):
    """Number of players of the rules ``R`` (2, 3 or 4, D1)."""
    return R[L.R_PLAYERS]


@njit(cache=True, inline="always")
def deal_over(st):
    """Whether the current deal has ended (scored or void) or the game is over."""
    return st[L.PHASE] >= L.PH_DEAL_END


@njit(cache=True, inline="always")
def game_over(st):
    """Whether the game is over (a side reached the target, D11)."""
    return st[L.PHASE] == L.PH_GAME_OVER


@njit(cache=True, inline="always")
def item_over(st, whole):
    """Whether an item that has just ended a deal is finished (hands mode: after one deal)."""
    return (not whole) or st[L.PHASE] == L.PH_GAME_OVER


@njit(cache=True, inline="always")
def turn(st):
    """The seat to act (-1 when nobody is)."""
    return st[L.TURN]


@njit(cache=True, **NO_REFCOUNT)
def random_action(st, R, rng, i):
    """The uniformly random legal action of the seat to act, from generator ``rng[i]``."""
    return random_legal(0, legal_mask(st, R), rng, i)


@njit(cache=True, inline="always")
def random_legal(base, bits, rng, i):
    """A uniformly random member of the legal set ``(base, bits)`` (Debertz: base 0)."""
    return random_bit(bits, rng, i)


@njit(cache=True, inline="always")
def policy_stream(seed, item, whole):
    """The generator of item ``item``'s decisions in a simulation."""
    return rng_nb.stream(seed, item, POLICY_KEY)


@njit(cache=True, inline="always")
def duplicate_stream(seed, item, pattern):
    """The generator of item ``item``'s decisions under seating pattern ``pattern``."""
    return rng_nb.stream(seed, item, DUPLICATE_KEY + pattern)


@njit(cache=True, inline="always")
def record_deal(st, R, stats, whole):
    """Add the deal that just ended to a statistics row (cardsim.debertz.simulate_nb S_*)."""
    record_deal_stats(st, R, stats)


@njit(cache=True, inline="always")
def count_decisions(stats, taken):
    """Add ``taken`` decisions to the statistics row's decision count."""
    stats[S_DECISIONS] += taken


@njit(cache=True, inline="always")
def seat_points(st, R, seat, whole):
    """What ``seat`` scored in a finished item, per deal: the points recorded for its side
    (D9) in hands mode; in a whole game its side's final score over the deals played."""
    side = side_of(seat, R[L.R_TEAMS])
    # one return: the face is inlined into callers' IR
    return st[L.SCORES + side] / (st[L.DEAL_NO] + 1) if whole else st[L.RECORDED + side] * 1.0


@njit(cache=True, inline="always")
def seat_won(st, R, seat, whole):
    """1 when ``seat``'s side won the finished game (D11), else 0."""
    won = st[L.GAME_OVER] != 0 and side_of(seat, R[L.R_TEAMS]) == st[L.WINNER]
    return 1 if won else 0


@njit(cache=True, inline="always")
def deals_played(st, whole):
    """Deals the item played so far (a finished hands-mode item: 1)."""
    return st[L.DEAL_NO] + 1


@njit(cache=True, inline="always")
def item_label(st, whole):
    """A per-item category for result breakdowns (Debertz: none, -1)."""
    return -1


@njit(cache=True, inline="always")
def force_contract(st, R, item):
    """Barbu only: Debertz has no contract to force."""
    return


@njit(cache=True, inline="always")
def deal_rewards(st, R, rewards):
    """Each seat gets its side's recorded points of the deal that just ended (D9)."""
    if st[L.END] == L.END_VOID:
        return
    teams = R[L.R_TEAMS]
    for s in range(R[L.R_PLAYERS]):
        rewards[s] += st[L.RECORDED + side_of(s, teams)]


@njit(cache=True, inline="always")
def state_width():
    """Width of Debertz's engine state row (``layout.STATE_WIDTH``)."""
    return L.STATE_WIDTH
