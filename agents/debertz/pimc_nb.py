"""Debertz's pieces of perfect-information Monte Carlo (the ``pimc`` agent; its driver is
written once for both games in ``agents/pimc_nb.py``).

**Card play.** The seat draws ``samples`` deals of the cards it cannot see, each uniform
among the deals consistent with what it knows (``cardsim.debertz.sample_nb``), solves each
with every hand open (``cardsim.debertz.solve_nb``: the value of every legal card under
perfect play by all seats) and plays the card with the best mean value. With ``nodes`` > 0
each solve stops searching after that many nodes and values what is left by a static count.
With three or four sides the solver's model of the others is ``maxn``: 0 (the default) all
of them against the seat (paranoid); 1 each side playing for its round points less the
others' (max-n); 2 each side playing for what is written down (max-n on recorded scores:
the byte, the pot and the byte penalty, D9.2-D9.3). With three players and a budget of
20,000 nodes neither max-n measured stronger: without alpha-beta pruning the same budget
searches less deep.

**Bidding and the seven swap** are decided by simulation too, not by hand-valuation tables:
for each of ``rollouts`` sampled deals (the other hands and the stock still to be dealt),
each legal option is tried and the deal played out to its end by the heuristic player in
every seat; the option with the best mean result (the seat's side's recorded points less
the mean of the other sides', D9) is taken. Every option is tried on the same deals, so
their comparison is not blurred by the luck of the draw. A play-out costs far less than a
solve, so these decisions draw many more deals than card play: a bid decided on a handful
of deals is a noisy one (with three players, 200 deals instead of 8 gained 3.6 points a
deal).
"""

from numba import njit

from agents.base import option_slot
from agents.debertz.heuristic_nb import DEFAULT_PARAMS, heuristic_action
from agents.debertz.pimc_options import OPTIONS
from agents.pimc_nb import (P_MS, P_NODES, P_SAMPLES, best_of, best_of_preferring, pimc_action,
                            sample_count)
from cardsim.debertz import layout as L
from cardsim.debertz import solve_nb as V
from cardsim.debertz.engine_nb import legal_mask, side_of, tricks_per_round
from cardsim.debertz.face_nb import GAME
from cardsim.game_nb import apply_action

# the places of the options in the parameter vector (agents/debertz/pimc_options.py): this
# game's own here, ``P_SAMPLES``, ``P_NODES`` and ``P_MS`` (alike in every game) imported
P_MAXN = option_slot(OPTIONS, "maxn")
P_ROLLOUTS = option_slot(OPTIONS, "rollouts")
P_OPPONENT_SAMPLES = option_slot(OPTIONS, "opponent_samples")

# the heuristic with its default options plays the rollouts of bidding decisions
ROLLOUT_PARAMS = DEFAULT_PARAMS


@njit(cache=True)
def table_bits(st, R):
    """Transposition table size for a position: large early in the round, small late (a
    table is cleared for every decision, so an oversized one costs more than it saves)."""
    left = (8 if R[L.R_PLAYERS] == 4 else 9) - st[L.TRICK_NO]
    return 10 + min(left, 7)


# --- this game's pieces of the driver written once for both games (agents.pimc_nb) ---------
@njit(cache=True, inline="always")
def special_action(st, R, base, bits, params, rng, i):
    """Every decision is card play by solving or an option by play-outs."""
    return -1


@njit(cache=True, inline="always")
def weighed_special(st, R, params):
    """No special decision is valued over weighted deals (``special_action`` takes none that
    draws deals)."""
    return -1


@njit(cache=True, inline="always")
def special_choice(total, squares, n, bits, h):
    """Not reached (``weighed_special`` is always -1): the best total."""
    return best_of(total, bits)


@njit(cache=True, inline="always")
def solves(st, R):
    """Card play is decided by solving (bids and the seven swap by play-outs)."""
    return st[L.PHASE] == L.PH_PLAY


@njit(cache=True, inline="always")
def search_options(st, R, base, bits):
    """A network's search (``search=``) weighs every legal option: no Debertz decision is
    left to it that way."""
    return bits


@njit(cache=True, inline="always")
def tricks_left(st, R):
    """The tricks still to play in the round, the current one included (D12: 9, 8 with
    four players)."""
    return tricks_per_round(R[L.R_PLAYERS]) - st[L.TRICK_NO]


@njit(cache=True, inline="always")
def plays_out_cards(st, R, params):
    """Card play is never valued by play-outs (always by solving)."""
    return False


@njit(cache=True, inline="always")
def network_plays_out(st, R, params):
    """Training's network play-outs (experiments/train/labels_nb.py) label the bids and the
    seven swap: every decision that is not card play."""
    return not solves(st, R)


@njit(cache=True, inline="always")
def drawn_phase(st, R, params):
    """Training's ``drawn_contracts`` are Barbu's: no decision is labelled by them (-1)."""
    return -1


@njit(cache=True, inline="always")
def by_solving(st, R, params):
    """Card play is always decided by solving."""
    return solves(st, R)


@njit(cache=True)
def rollout_value(deal, R, side, rng, i):
    """Play ``deal`` to the end of its deal with the heuristic in every seat; the result
    for ``side``: its recorded points less the mean of the other sides' (D9)."""
    while deal[L.PHASE] < L.PH_DEAL_END:
        apply_action(GAME, deal, R, heuristic_action(deal, R, legal_mask(deal, R), ROLLOUT_PARAMS, rng, i))
    return side_result(deal, R, side)


@njit(cache=True, inline="always")
def side_result(deal, R, side):
    """The result of a finished ``deal`` for ``side``: its recorded points less the mean of
    the other sides' (D9)."""
    sides = R[L.R_SIDES]
    others = 0.0
    for s in range(sides):
        if s != side:
            others += deal[L.RECORDED + s]
    return deal[L.RECORDED + side] - others / (sides - 1)


@njit(cache=True, inline="always")
def finished_value(deal, R, me):
    """``playout_value``'s measure of a deal already played out: the result for seat
    ``me``'s side (``side_result``)."""
    return side_result(deal, R, side_of(me, R[L.R_TEAMS]))


@njit(cache=True, inline="always")
def playout_value(deal, R, me, rng, i):
    """The result of ``deal`` played out by the heuristic for seat ``me``'s side: its recorded
    points less the mean of the other sides' (D9; ``rollout_value``)."""
    return rollout_value(deal, R, side_of(me, R[L.R_TEAMS]), rng, i)


@njit(cache=True, inline="always")
def baseline_deal(st, R, rng, i, out):
    """Bids and the swap are valued by their play-outs alone: no baseline."""
    return False


@njit(cache=True)
def rollout_count(params):
    """Deals drawn for a bidding or swap decision: ``rollouts``, else ``samples``."""
    if params[P_ROLLOUTS] > 0:
        return int(params[P_ROLLOUTS])
    return sample_count(params)


@njit(cache=True, inline="always")
def solve_count(st, R, me, params):
    """Deals drawn and solved for seat ``me``'s card: ``opponent_samples`` for a seat not on
    the bidder's side (D4) where it is set, else ``samples``."""
    teams = R[L.R_TEAMS]
    if (params[P_OPPONENT_SAMPLES] > 0 and st[L.BIDDER] >= 0
            and side_of(me, teams) != side_of(st[L.BIDDER], teams)):
        return int(params[P_OPPONENT_SAMPLES])
    return sample_count(params)


@njit(cache=True, inline="always")
def solver_table(st, R, params):
    """A transposition table for this decision's solves, sized for the tricks left
    (``table_bits``)."""
    return V.new_table(table_bits(st, R))


@njit(cache=True, inline="always")
def solver_position(deal, R, me, pos):
    """The drawn deal solved for the seat's side."""
    V.position_of(deal, R, side_of(me, R[L.R_TEAMS]), pos)


@njit(cache=True, inline="always")
def solve_options(pos, params):
    """The agent's options on the solver's position: the node budget (``nodes``, 0: exact) and the
    model of the other sides (``maxn``: 0 paranoid, 1 or 2 max-n)."""
    pos[V.P_BUDGET] = int(params[P_NODES])
    pos[V.P_MAXN] = params[P_MAXN]


@njit(cache=True, inline="always")
def reference_card(st, R, base, bits):
    """No reference card: the best mean value decides alone."""
    return -1


@njit(cache=True, inline="always")
def card_choice(total, squares, n, bits, h, params):
    """The card with the best mean value: among equals the reference card ``h`` where there
    is one (a network's card, ``pimc:net=``), else the lowest id. Equal values are common:
    the low cards of a suit often win or lose alike on every drawn deal."""
    return best_of(total, bits) if h < 0 else best_of_preferring(total, bits, h)


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The pimc agent's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb)."""
    return pimc_action(GAME, st, R, base, bits, params, rng, i)
