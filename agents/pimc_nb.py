"""Perfect-information Monte Carlo (the ``pimc`` agent's compiled policy), its driver written
once for both games over the game tag (``cardsim.game_nb``).

**Card play by solving.** The seat draws ``samples`` deals (Debertz: ``opponent_samples``
for a seat opposing the bidder, where set) of the cards it cannot see, each
uniform among the deals consistent with what it knows (``cardsim.sample_nb``), solves each
with every hand open (``cardsim.solve_nb``: the value of every legal card under perfect play)
and plays the card the game's rule picks from the totals (the best mean value; Barbu keeps
the heuristic's card unless another beats it by a margin).

**Other decisions by play-outs.** For each of ``rollouts`` sampled deals each legal option is
tried and the deal played out to its end by the heuristic in every seat; the option with the
best mean result is taken. Every option is tried on the same deals, so their comparison is
not blurred by the luck of the draw; a play-out costs far less than a solve, so these
decisions draw many more deals than card play.

``ms`` > 0 stops drawing once that many milliseconds were spent on the decision (at least one
deal is always used); decisions then depend on the machine's speed, so runs with ``ms`` are
not reproducible.

The options every game places alike (``samples``, ``nodes``, ``ms``: ``common_slot``) have
their slots here, with what reads them the same way in each game (``sample_count``).

The game's pieces, in ``agents/<game>/pimc_nb.py`` (its options, what a result is worth, its
special decisions): ``special_action`` (-1, or a decision the game takes otherwise: Barbu's
early tricks by play-outs and its doubling), ``weighed_special`` and ``special_choice`` (a
special decision that a search over weighted deals values by play-outs of its own deals,
agents/belief_pimc_nb.py: the option kept unless another clearly gains, or -1; and the
option from the totals), ``search_options(st, R, base, bits)`` (the options of ``bits`` a
network's search weighs, agents/belief_pimc_nb.py), ``solves(st, R)`` (whether a decision
is card play by solving, once ``special_action`` has passed), ``tricks_left(st, R)`` (the
tricks still to play, the current one included), ``by_solving(st, R, params)`` (whether
the agent with these options decides this position by solving, special actions
included: what training labels with the solver, experiments/train/labels_nb.py),
``plays_out_cards(st, R, params)`` (whether card play is valued by play-outs instead of
solves: Barbu's early tricks, taken by its ``special_action``), ``network_plays_out(st, R,
params)`` (the decisions training may label by the network's play-outs instead of the
heuristic's, experiments/train/labels_nb.py), ``drawn_phase(st, R, params)`` (which of
training's ``drawn_phases`` a decision valued by play-outs of drawn deals is, or -1),
``rollout_count(params)`` (the deals drawn for a decision by play-outs), ``solve_count(st,
R, me, params)`` (the deals seat ``me`` draws and solves for a card: Debertz's
``opponent_samples``), ``playout_value(deal, R, me, rng, i)`` (the result of a deal played
out, for the seat to act), ``finished_value(deal, R, me)`` (that measure of a deal already
played out, whoever played it), ``baseline_deal(st, R, rng, i, out)`` (whether each
option's result is measured against its result on another deal, dealt into ``out``: Barbu's
contract against an average hand), ``solver_table``, ``solver_position``, ``solve_options``,
``reference_card`` (a card the gains are measured against, -1 for none) and
``card_choice`` (the card from the totals).
"""

from importlib import import_module
from importlib.util import find_spec
from typing import NamedTuple

import numpy as np
from numba import njit

from agents.base import option_slot
from agents.clock_nb import now_ms
from cardsim import games
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.game_nb import apply_action, game_piece, state_width, turn
from cardsim.games import Game
from cardsim.jit import WITH_REFCOUNT
from cardsim.sample_nb import sample_deal, sample_prepare
from cardsim.solve_nb import solve_root

# the decisions valued by play-outs of drawn deals, in the order of the games' ``drawn_phase``:
# what training's ``drawn_phases`` may label that way (experiments/train/labels_nb.py) and
# ``pimc:net=NAME,search=`` leaves to the search (agents/belief_pimc_nb.py)
DRAWN_PHASES = ("play", "double", "trump", "start_rank")


def common_slot(name: str) -> int:
    """The place of option ``name`` in the ``pimc`` parameter vector of every game that has
    the agent (``agents/<game>/pimc_options.py``); ValueError where the games put it in
    different places, which one driver could not read."""
    modules = [f"agents.{game}.pimc_options" for game in games.GAMES]
    slots = {option_slot(import_module(m).OPTIONS, name) for m in modules if find_spec(m)}
    if len(slots) != 1:
        raise ValueError(f"pimc option {name!r} has a different place in each game: {slots}")
    return slots.pop()


# the options every game places alike: the driver reads ``ms`` itself, the games' pieces
# read ``samples`` and ``nodes`` (``solve_count``, ``solve_options``, ...) and their own
# options from their own slots
P_SAMPLES = common_slot("samples")
P_NODES = common_slot("nodes")
P_MS = common_slot("ms")

PIECES = "agents.{game}.pimc_nb"
special_action = game_piece(PIECES, "special_action", "st, R, base, bits, params, rng, i")
solves = game_piece(PIECES, "solves", "st, R")
tricks_left = game_piece(PIECES, "tricks_left", "st, R")
search_options = game_piece(PIECES, "search_options", "st, R, base, bits")
weighed_special = game_piece(PIECES, "weighed_special", "st, R, params")
special_choice = game_piece(PIECES, "special_choice", "total, squares, n, bits, h")
by_solving = game_piece(PIECES, "by_solving", "st, R, params")
plays_out_cards = game_piece(PIECES, "plays_out_cards", "st, R, params")
network_plays_out = game_piece(PIECES, "network_plays_out", "st, R, params")
drawn_phase = game_piece(PIECES, "drawn_phase", "st, R, params")
rollout_count = game_piece(PIECES, "rollout_count", "params")
solve_count = game_piece(PIECES, "solve_count", "st, R, me, params")
playout_value = game_piece(PIECES, "playout_value", "deal, R, me, rng, i")
finished_value = game_piece(PIECES, "finished_value", "deal, R, me")
baseline_deal = game_piece(PIECES, "baseline_deal", "st, R, rng, i, out")
solver_table = game_piece(PIECES, "solver_table", "st, R, params")
solver_position = game_piece(PIECES, "solver_position", "deal, R, me, pos")
solve_options = game_piece(PIECES, "solve_options", "pos, params")
reference_card = game_piece(PIECES, "reference_card", "st, R, base, bits")
card_choice = game_piece(PIECES, "card_choice", "total, squares, n, bits, h, params")
position_width = game_piece("cardsim.{game}.solve_nb", "position_width", "")


class PlayoutRows(NamedTuple):
    """The engine rows of play-outs of each option (``play_out_options``)."""

    deal: np.ndarray    # int64: the drawn deal the options are tried on
    trial: np.ndarray   # int64: the copy of it each option is applied to and played out


@njit(cache=True)
def new_playout_rows(game):
    """``PlayoutRows`` for the game of ``game``'s tag, not filled."""
    return PlayoutRows(np.empty(state_width(game), dtype=np.int64),
                       np.empty(state_width(game), dtype=np.int64))


@njit(cache=True, **WITH_REFCOUNT)
def pimc_action(game, st, R, base, bits, params, rng, i):
    """The pimc agent's action in ``st`` (legal set ``(base, bits)``), drawing from
    ``rng[i]``."""
    if popcount(bits) == 1:
        return base + lowest_bit(bits)
    special = special_action(game, st, R, base, bits, params, rng, i)
    if special >= 0:
        return special
    if solves(game, st, R):
        return base + play_by_solving(game, st, R, base, bits, params, rng, i)
    return base + choose_by_rollouts(game, st, R, base, bits, params, rng, i)


@njit(cache=True, **WITH_REFCOUNT)
def play_by_solving(game, st, R, base, bits, params, rng, i):
    """The bit of the card the game picks from each card's values summed over the drawn
    deals, each solved with every hand open (``card_choice``; ``squares``: each card's
    squared gains over the reference card, paired by deal)."""
    me = turn(game, st)
    samples = solve_count(game, st, R, me, params)
    deal = np.empty(state_width(game), dtype=np.int64)
    pos = np.zeros(position_width(game), dtype=np.int64)
    tt = solver_table(game, st, R, params)
    values = np.zeros(64, dtype=np.int64)
    total = np.zeros(64, dtype=np.float64)
    squares = np.zeros(64, dtype=np.float64)
    h = reference_card(game, st, R, base, bits)
    kn, ways = sample_prepare(game, st, R, me)
    start = now_ms() if params[P_MS] > 0 else 0.0
    n = 0
    for k in range(samples):
        if sample_deal(game, st, R, kn, ways, rng, i, deal) < 0:
            break  # no consistent deal: cannot happen in a real position
        solver_position(game, deal, R, me, pos)
        solve_options(game, pos, params)
        solve_root(game, pos, tt, values)
        n += 1
        add_gains(values, bits, h, 1, total, squares)
        if params[P_MS] > 0 and now_ms() - start >= params[P_MS]:
            break
    return card_choice(game, total, squares, n, bits, h, params)


@njit(cache=True, inline="always")
def add_gains(values, bits, h, weight, total, squares):
    """One deal's ``values`` of the options of ``bits``, ``weight`` times (the deal's
    multiplicity): each option's value into ``total``, and where there is a reference option
    ``h`` (>= 0) its squared gain over ``h`` into ``squares`` (for the standard error of a
    mean gain paired by deal)."""
    m = bits
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        total[c] += weight * values[c]
        if h >= 0:
            gain = values[c] - values[h]
            squares[c] += weight * gain * gain


@njit(cache=True, **WITH_REFCOUNT)
def choose_by_rollouts(game, st, R, base, bits, params, rng, i):
    """The bit of ``bits`` (action ``base`` + bit) with the best total play-out result over
    ``rollout_count`` drawn deals, less the game's baseline for each option."""
    total = np.zeros(64, dtype=np.float64)
    drawn_playouts(game, st, R, base, bits, rollout_count(game, params), params[P_MS], rng, i,
                   total)
    return best_of(total, bits)


@njit(cache=True, **WITH_REFCOUNT)
def drawn_playouts(game, st, R, base, bits, deals, ms, rng, i, total):
    """Each option of ``bits`` played out on up to ``deals`` deals drawn for the seat to act
    (``play_out_options``), its results summed into ``total``; ``ms`` > 0 stops drawing once
    that many milliseconds were spent (after one deal at least). Returns the number of
    deals (fewer only where none is consistent, or out of time)."""
    me = turn(game, st)
    rows = new_playout_rows(game)
    kn, ways = sample_prepare(game, st, R, me)
    start = now_ms() if ms > 0 else 0.0
    n = 0
    for k in range(deals):
        if sample_deal(game, st, R, kn, ways, rng, i, rows.deal) < 0:
            break
        play_out_options(game, st, R, base, bits, me, rows, total, rng, i)
        n += 1
        if ms > 0 and now_ms() - start >= ms:
            break
    return n


@njit(cache=True, inline="always")
def play_out_options(game, st, R, base, bits, me, rows, total, rng, i):
    """Each option of ``bits`` tried on the drawn deal ``rows.deal`` and played out: its
    result for seat ``me`` added to ``total``, less its result on the game's baseline deal
    where it has one (``baseline_deal``, dealt into ``rows.deal`` once the drawn deal is done
    with)."""
    add_played_out(game, R, base, bits, me, rows, total, 1.0, rng, i)
    if baseline_deal(game, st, R, rng, i, rows.deal):
        add_played_out(game, R, base, bits, me, rows, total, -1.0, rng, i)


@njit(cache=True, inline="always")
def add_played_out(game, R, base, bits, me, rows, total, weight, rng, i):
    """Each option of ``bits`` applied to a copy of ``rows.deal`` (into ``rows.trial``) and
    played out by the heuristic: ``weight`` x its result for seat ``me`` added to
    ``total``."""
    trial = rows.trial
    m = bits
    while m != 0:
        b = lowest_bit(m)
        m &= m - 1
        trial[:] = rows.deal
        apply_action(game, trial, R, base + b)
        total[b] += weight * playout_value(game, trial, R, me, rng, i)


@njit(cache=True, inline="always")
def sample_count(params):
    """The ``samples`` option: deals drawn per decision, at least one."""
    return max(1, int(params[P_SAMPLES]))


@njit(cache=True)
def best_of_preferring(total, mask, h):
    """``best_of``, with bit ``h`` taken among equal totals (totals are sums of whole points
    or deal scores, so half a point only breaks ties); ``total`` is left as it was."""
    total[h] += 0.5
    best = best_of(total, mask)
    total[h] -= 0.5
    return best


@njit(cache=True)
def best_of(total, mask):
    """The bit of ``mask`` with the highest total (the lowest among equals)."""
    best = -1
    m = mask
    while m != 0:
        a = lowest_bit(m)
        m &= m - 1
        if best < 0 or total[a] > total[best]:
            best = a
    return best


def phase_table(tag, contracts, phases) -> np.ndarray:
    """Which decisions of the game of ``tag`` are named: bool (its contracts + 1, the
    ``DRAWN_PHASES`` + 1), True at ``[c + 1, k + 1]`` for each of ``contracts`` (names) and
    each of ``phases`` (names), what a kernel looks up with a decision's ``contract_in_play``
    and ``drawn_phase``; ValueError naming an unknown contract or phase."""
    game = games.get(tag.name)
    table = np.zeros((len(game.item_labels) + 1, len(DRAWN_PHASES) + 1), dtype=np.bool_)
    table[np.ix_(1 + contract_indices(game, contracts), 1 + phase_indices(phases))] = True
    return table


def phase_indices(names) -> np.ndarray:
    """The indices of the phases ``names`` among ``DRAWN_PHASES``; ValueError naming an
    unknown one."""
    return indices_among(names, DRAWN_PHASES, "a phase valued by play-outs of drawn deals; "
                                               "the phases")


def contract_indices(game: Game, names) -> np.ndarray:
    """The indices of the contracts ``names`` among those of ``game`` (its ``item_labels``:
    Barbu's seven, Debertz none); ValueError naming an unknown one."""
    return indices_among(names, game.item_labels, f"a contract of {game.name}; its contracts")


def indices_among(names, known, what) -> np.ndarray:
    """The index of each of ``names`` in ``known``; ValueError "'x' is not WHAT: known...",
    naming the first unknown one."""
    for name in names:
        if name not in known:
            raise ValueError(f"{name!r} is not {what}: {', '.join(known) or 'none'}")
    return np.array([known.index(name) for name in names], dtype=np.int64)
