"""The neural agent's greedy play as a compiled kernel: the network's forward on one core,
without torch, for the CPU.

One observation at a time is how a single game asks for a move, and there torch's forward
costs far more than its arithmetic (a tenth of a millisecond for a 608 x 256 x 256 x 256
network whose product is about 0.3 million multiply-adds). The kernel does the arithmetic
only, and less of it: an observation is mostly zeros (cards not held, tricks not played), and
so is a ReLU layer's output, so each layer adds up only the weight rows of its nonzero
inputs, four inputs' rows at a time.

Every row is computed alone, by the same sequence of float32 operations whatever the batch
(and the same under ``NUMBA_DISABLE_JIT=1``: no fused or reordered arithmetic), so an agent's
choice never depends on how many games ask at once. The values agree with torch's
to float32 rounding (the order of the additions differs), so the chosen actions agree
except where two legal actions' values differ by that rounding
(tests/agents/test_neural.py compares them).

The weights travel as flat arrays: ``weights`` holds each layer (the hidden layers, then the
action head) as an (inputs, outputs) matrix, one row per input, so that a nonzero input adds
one contiguous row; ``biases`` the layers' biases in the same order; ``widths`` the
observation size, each hidden width and the number of actions.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from cardsim.bits_nb import lowest_bit
from cardsim.game_nb import item_label
from cardsim.policy_nb import choose


class Network(NamedTuple):
    """One network's packed weights, what the kernels' forward reads."""

    weights: np.ndarray  # float32: each layer's (inputs, outputs) matrix, layer after layer
    biases: np.ndarray   # float32: each layer's biases, in the same order
    widths: np.ndarray   # int64: the observation size, each hidden width, the action count


class Critic(NamedTuple):
    """Value networks judging a compiled prior's actions (the ``neural`` agent's
    ``prior=``), one network per contract, all of the same ``widths``."""

    nets: np.ndarray     # int64: the network of each contract, [0] where none is in play
    margins: np.ndarray  # float32: by how much the network's best beats the prior's, per net
    weights: np.ndarray  # float32 (networks, ...): each network's packed weights, a row each
    biases: np.ndarray   # float32 (networks, ...): each network's biases, a row each
    widths: np.ndarray   # int64: the widths the networks share


class Prior(NamedTuple):
    """A compiled policy whose action a network keeps unless it beats it by a margin."""

    policies: object     # the policy set it is compiled in (cardsim.policy_nb)
    kind: int            # its kind in that set
    params: np.ndarray   # its options


class Scratch(NamedTuple):
    """The work arrays of one forward at a time (``scratch``)."""

    x: np.ndarray        # float32: a layer's nonzero inputs
    nz: np.ndarray       # uint64: where they are
    h: np.ndarray        # float32: the layer's outputs (the last layer's: the values)


def pack_weights(layers) -> Network:
    """``Network(weights, biases, widths)`` for ``greedy_actions`` from ``layers``, the
    (weight, bias) float arrays of the hidden layers and then of the action head, each weight
    as torch keeps it: (outputs, inputs)."""
    weights, biases, widths = [], [], [np.asarray(layers[0][0]).shape[1]]
    for i, (w, b) in enumerate(layers):
        w = np.asarray(w, dtype=np.float32)
        if w.shape[1] != widths[-1] or np.asarray(b).shape != (w.shape[0],):
            raise ValueError(f"layer {i}: weight {w.shape} and bias {np.asarray(b).shape} "
                             f"do not follow a layer of width {widths[-1]}")
        weights.append(w.T.ravel())
        biases.append(np.asarray(b, dtype=np.float32))
        widths.append(w.shape[0])
    return Network(np.ascontiguousarray(np.concatenate(weights)),
                   np.ascontiguousarray(np.concatenate(biases)),
                   np.array(widths, dtype=np.int64))


@njit(cache=True)
def scratch(widths):
    """The work arrays of ``forward_row`` for a network of ``widths``: a layer's nonzero
    inputs and where they are, and the layer's outputs (the last layer's: the values)."""
    widest = 0
    for k in range(widths.shape[0]):
        widest = max(widest, widths[k])
    return Scratch(np.empty(widest, dtype=np.float32), np.empty(widest, dtype=np.uint64),
                   np.empty(widest, dtype=np.float32))


@njit(cache=True)
def forward_row(obs, weights, biases, widths, x, nz, h):
    """The network's outputs for one observation ``obs`` (observation size) float32, into
    ``h[:widths[-1]]``, with ``x`` and ``nz`` as scratch (``scratch``)."""
    layers = widths.shape[0] - 1
    c = 0
    for j in range(widths[0]):
        if obs[j] != 0.0:
            x[c] = obs[j]
            nz[c] = j
            c += 1
    w_at = np.uint64(0)                        # unsigned indices: no negative-index
    b_at = np.uint64(0)                        # wraparound in the inner loops
    for layer in range(layers):
        n_out = np.uint64(widths[layer + 1])
        for k in range(n_out):
            h[k] = biases[b_at + k]
        # Four inputs' rows per pass over h (one load and store of h, not four); the
        # additions stay in input order, so the sums are those of one input at a time.
        t = 0
        while t + 4 <= c:
            v0, v1, v2, v3 = x[t], x[t + 1], x[t + 2], x[t + 3]
            r0 = w_at + nz[t] * n_out
            r1 = w_at + nz[t + 1] * n_out
            r2 = w_at + nz[t + 2] * n_out
            r3 = w_at + nz[t + 3] * n_out
            for k in range(n_out):
                h[k] = (((h[k] + v0 * weights[r0 + k]) + v1 * weights[r1 + k])
                        + v2 * weights[r2 + k]) + v3 * weights[r3 + k]
            t += 4
        while t < c:
            r0 = w_at + nz[t] * n_out
            for k in range(n_out):
                h[k] += x[t] * weights[r0 + k]
            t += 1
        w_at += np.uint64(widths[layer]) * n_out
        b_at += n_out
        if layer < layers - 1:              # ReLU: the next layer's nonzero inputs
            c = 0
            for k in range(n_out):
                if h[k] > 0.0:
                    x[c] = h[k]
                    nz[c] = k
                    c += 1


@njit(cache=True)
def greedy_actions(obs, legal, weights, biases, widths):
    """The legal action with the highest network output for each row of ``obs`` (n,
    observation size) float32 under ``legal`` (n, actions) bool: int64 (n,); ties go to the
    lowest action id, and a row with no legal action gets action 0 (as torch's argmax of an
    all -inf row)."""
    x, nz, h = scratch(widths)
    out = np.zeros(obs.shape[0], dtype=np.int64)
    for i in range(obs.shape[0]):
        forward_row(obs[i], weights, biases, widths, x, nz, h)
        out[i] = best_legal(h, legal[i])
    return out


@njit(cache=True, inline="always")
def best_legal(h, legal_row):
    """The action with the highest output ``h`` among those ``legal_row`` (bool) allows, ties
    to the lowest id; 0 where none is legal."""
    best = -1
    for a in range(legal_row.shape[0]):
        if legal_row[a] and (best < 0 or h[a] > h[best]):
            best = a
    return max(best, 0)


@njit(cache=True, inline="always")
def over_prior(h, best, prior, margin):
    """The network's best action ``best`` where its output ``h`` beats that of the prior's
    action ``prior`` by more than ``margin``, else the prior's (the ``neural`` agent's
    ``prior=``, and training's play-outs with ``prior_margin``)."""
    return best if h[best] > h[prior] + margin else prior


@njit(cache=True)
def greedy_legal(obs, base, bits, weights, biases, widths, x, nz, h):
    """The legal action with the highest network output for one observation ``obs``, whose
    legal set is ``(base, bits)`` (action ``base + k`` for each set bit ``k``; not empty),
    ties to the lowest: ``greedy_actions``'s choice for that row."""
    forward_row(obs, weights, biases, widths, x, nz, h)
    best = -1
    m = bits
    while m != 0:
        a = base + lowest_bit(m)
        m &= m - 1
        if best < 0 or h[a] > h[best]:
            best = a
    return best


@njit(cache=True)
def greedy_over_prior(game, prior, S, R, rng, rows, obs, legal, critic):
    """For each row ``i`` of ``obs``, the network's best legal action (``greedy_actions``'s
    choice) where its output beats that of the prior's action by more than the margin (in
    the network's units), else the prior's action: int64 (n,). The ``prior`` is a compiled
    policy deciding engine row ``S[rows[i]]`` with that row's generator, as
    ``cardsim.table_nb.act_rows`` has it decide: one call for both, whose Python-side cost
    is most of a one-game decision. The margin is ``critic.margins[c + 1]`` for the contract
    ``c`` in play (Barbu), ``critic.margins[0]`` where there is none (Debertz, a contract not
    yet chosen); the network is that of the contract too, ``critic.nets[c + 1]``."""
    work = scratch(critic.widths)
    out = np.zeros(obs.shape[0], dtype=np.int64)
    for i in range(obs.shape[0]):
        out[i] = critic_row(game, prior, S, R, rng, rows[i], obs[i], legal[i], critic, work)
    return out


@njit(cache=True, inline="always")
def critic_row(game, prior, S, R, rng, g, obs_row, legal_row, critic, work):
    """``greedy_over_prior``'s action for engine row ``S[g]`` (generator ``rng[g]``), whose
    observation is ``obs_row`` and legal mask ``legal_row``; ``work``: ``scratch``."""
    c = contract_in_play(game, S[g]) + 1
    prior_action = choose(prior.policies, game, prior.kind, prior.params, S[g], R, rng, g)
    k = critic.nets[c]
    forward_row(obs_row, critic.weights[k], critic.biases[k], critic.widths, work.x, work.nz,
                work.h)
    return over_prior(work.h, best_legal(work.h, legal_row), prior_action, critic.margins[c])


@njit(cache=True, inline="always")
def contract_in_play(game, st):
    """The contract engine row ``st`` plays (Barbu), -1 where none (Debertz, a contract not
    yet chosen): the game's ``item_label`` of a single deal."""
    return item_label(game, st, False)


@njit(cache=True)
def contracts_in_play(game, S, rows):
    """``contract_in_play`` of engine rows ``S[rows]``: int64 (n,)."""
    out = np.empty(rows.shape[0], dtype=np.int64)
    for i in range(rows.shape[0]):
        out[i] = contract_in_play(game, S[rows[i]])
    return out
