"""Compiled environment loops, written once for both games (``cardsim.game_nb``): the
single-agent step with compiled opponents, and batched self-play.

Episodes are one deal (``whole = 0``; the game goes on across episodes and a new one starts
when it ends) or one whole game (``whole = 1``). Rewards are each seat's points of every
deal scored (the game's ``deal_rewards``), added into a per-seat array. A deal in which
nobody decides (Debertz's four sevens, D3.2) is skipped when an episode begins.

Status codes of ``apply_and_advance``: LEARNER (a learner seat is to act), EXTERNAL (a seat
whose agent lives in Python is to act), EPISODE_END.
"""

from typing import NamedTuple

import numpy as np
from numba import njit

from cardsim.bits_nb import fill_legal
from cardsim.game_nb import (
    deal_over,
    deal_rewards,
    game_over,
    init_item,
    legal,
    next_deal,
    observe,
    turn,
)
from cardsim.jit import NO_REFCOUNT
from cardsim.parallel_nb import next_block, row_block, run_workers
from cardsim.table_nb import apply_action, play_compiled

LEARNER, EXTERNAL, EPISODE_END = 0, 1, 2


# The loops' arguments travel as records (named tuples, passed unboxed at no cost).
class Players(NamedTuple):
    """Who decides in each seat: a compiled policy ``kinds[seat]`` (>= 0) with parameter row
    ``params[seat]``, or a Python seat (``PYTHON``); ``learners``: the bit mask of the Python
    seats the caller plays (the others are asked through ``EXTERNAL``)."""

    kinds: np.ndarray
    params: np.ndarray
    learners: int


class Seen(NamedTuple):
    """What a step writes for the seat that is to act: its observation vector, its legal
    actions (1 or 0 per action id) and every seat's points scored (added in)."""

    obs: np.ndarray
    legal: np.ndarray
    rewards: np.ndarray


class Episodes(NamedTuple):
    """How a batch's episodes go: run ``seed``; game ids advance by ``stride`` at each new game;
    episodes of a whole game (``whole``) or of one deal; autoreset within the same step
    (``same_step``) or at the next; observations written (``with_obs``); ``fresh``: this call
    is a reset, every row starts a fresh game."""

    seed: int
    stride: int
    whole: int
    same_step: int
    with_obs: bool
    fresh: bool


class Batch(NamedTuple):
    """A batch's rows: state ``S[i]``, opponents' generator ``rng[i]``, game id, whether a new
    episode is due at the next step (``pending``), the seat to act, its observation and legal
    actions, rewards of the last step, episode end, and the final observation of an episode
    ended and reset in the same step."""

    S: np.ndarray
    rng: np.ndarray
    game_ids: np.ndarray
    pending: np.ndarray
    seats: np.ndarray
    obs: np.ndarray
    legal: np.ndarray
    rewards: np.ndarray
    done: np.ndarray
    final_obs: np.ndarray


@njit(cache=True)
def begin_episode(game, st, R, seed, game_id, whole, fresh):
    """Start the next episode: a new game (``fresh``, whole games, or the game is over) or the
    next deal. Returns 1 when it started game ``game_id``, else 0."""
    started = 0
    if fresh or whole or game_over(game, st):
        init_item(game, st, R, seed, game_id, True)
        started = 1
    else:
        next_deal(game, st, R)
    while deal_over(game, st) and not game_over(game, st):  # D3.2: nobody decided
        next_deal(game, st, R)
    return started


@njit(cache=True, inline="always")
def settle(game, st, R, whole, rewards):
    """Score deal ends into ``rewards``; in whole games start the next deal. True when the
    episode has ended."""
    while deal_over(game, st):
        deal_rewards(game, st, R, rewards)
        if game_over(game, st) or not whole:
            return True
        next_deal(game, st, R)
    return False


@njit(cache=True, inline="always")
def write_legal(game, st, R, out):
    """Fill ``out`` (one entry per action id) with 1 for each legal action of the seat to act in
    ``st``, 0 elsewhere."""
    base, bits = legal(game, st, R)
    fill_legal(base, bits, out)


@njit(cache=True)
def apply_and_advance(game, policies, st, R, rng, action, players, whole, seen, obs_seat):
    """Apply ``action`` (-1: none) of the seat to act, then let the compiled opponents decide
    until a learner seat or a Python seat is to act, or the episode ends. Writes ``seen`` for
    the seat to act (at the episode end: the observation of ``obs_seat``, with no legal
    action)."""
    if action >= 0:
        apply_action(game, st, R, action)
    while True:
        if settle(game, st, R, whole, seen.rewards):
            observe(game, st, R, obs_seat, seen.obs)
            for a in range(seen.legal.shape[0]):
                seen.legal[a] = 0
            return EPISODE_END
        play_compiled(game, policies, st, R, rng, 0, players.kinds, players.params)
        if not deal_over(game, st):
            seat = turn(game, st)
            observe(game, st, R, seat, seen.obs)
            write_legal(game, st, R, seen.legal)
            return LEARNER if (players.learners >> seat) & 1 else EXTERNAL


@njit(cache=True, inline="always")
def advance_opponents(game, policies, st, R, rng, i, players, whole, rewards):
    """Score deal ends and let the compiled seats decide until a PYTHON seat (a learner) is
    to act; True when the episode ends first."""
    while True:
        if settle(game, st, R, whole, rewards):
            return True
        play_compiled(game, policies, st, R, rng, i, players.kinds, players.params)
        if not deal_over(game, st):
            return False


@njit(cache=True, inline="always")
def write_decision(game, st, R, i, batch, with_obs):
    """Row ``i`` of a batch waits for its seat to act: the seat into ``batch.seats[i]``, its
    observation into ``batch.obs[i]`` (when ``with_obs``) and its legal actions into
    ``batch.legal[i]``."""
    seat = turn(game, st)
    batch.seats[i] = seat
    if with_obs:
        observe(game, st, R, seat, batch.obs[i])
    write_legal(game, st, R, batch.legal[i])


# Batched kernels: workers over blocks of rows (cardsim.parallel_nb); each worker reads its own
# copies of the rules and the seating and runs a loop compiled without reference counting
# (cardsim.jit): otherwise every engine call would update shared reference counts and threads
# would fight over them.
@njit(cache=True, inline="always")
def start_episode(game, policies, R, batch, i, players, episodes, fresh, scratch):
    """Begin the next episode of row i and play its compiled seats up to a learner's
    decision (episodes that end before one are skipped; ``scratch`` takes their points)."""
    st = batch.S[i]
    fresh_game = fresh
    while True:
        batch.game_ids[i] += episodes.stride * begin_episode(
            game, st, R, episodes.seed, batch.game_ids[i], episodes.whole, fresh_game)
        fresh_game = False
        if not advance_opponents(game, policies, st, R, batch.rng, i, players, episodes.whole,
                                 scratch):
            return


@njit(cache=True, **NO_REFCOUNT)
def step_rows(game, policies, R, batch, players, actions, episodes, scratch, lo, hi):
    """Rows lo..hi-1 of ``batch_step``."""
    with_obs = episodes.with_obs
    for i in range(lo, hi):
        st = batch.S[i]
        for s in range(batch.rewards.shape[1]):
            batch.rewards[i, s] = 0.0
        batch.done[i] = False
        if episodes.fresh or batch.pending[i]:
            start_episode(game, policies, R, batch, i, players, episodes, episodes.fresh,
                          scratch)
            batch.pending[i] = False
            write_decision(game, st, R, i, batch, with_obs)
            continue
        acted = turn(game, st)
        apply_action(game, st, R, actions[i])
        if advance_opponents(game, policies, st, R, batch.rng, i, players, episodes.whole,
                             batch.rewards[i]):
            batch.done[i] = True
            if episodes.same_step:
                if with_obs:
                    observe(game, st, R, acted, batch.final_obs[i])
                start_episode(game, policies, R, batch, i, players, episodes, False, scratch)
            else:
                batch.pending[i] = True
                batch.seats[i] = acted
                if with_obs:
                    observe(game, st, R, acted, batch.obs[i])
                for a in range(batch.legal.shape[1]):
                    batch.legal[i, a] = 1
                continue
        write_decision(game, st, R, i, batch, with_obs)


@njit(cache=True, nogil=True)
def batch_worker(game, policies, R, batch, players, actions, episodes, counter, n_blocks):
    """A worker of ``batch_step``: blocks of rows from ``counter`` until none is left
    (cardsim.parallel_nb)."""
    local_rules = R.copy()  # each worker reads its own copies
    local_players = Players(players.kinds.copy(), players.params.copy(), players.learners)
    scratch = np.zeros(4)
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, batch.S.shape[0], n_blocks)
        step_rows(game, policies, local_rules, batch, local_players, actions, episodes,
                  scratch, lo, hi)
        b = next_block(counter)


def batch_step(game, policies, R, batch: Batch, players: Players, actions, episodes: Episodes,
               n_blocks):
    """One decision in every game: row i's seat to act (``batch.seats[i]``, a learner seat)
    plays ``actions[i]``; then its compiled seats decide (generator ``batch.rng[i]``) until a
    learner seat is to act again.

    Deal ends add each seat's points to ``batch.rewards[i]`` (zeroed first); ``done[i]``
    marks an episode end. Autoreset: with ``episodes.same_step`` the next episode starts at
    once (the observation of the seat that acted last goes to ``final_obs[i]``); otherwise
    row i stays at its end (observation of the seat that acted last, every action allowed)
    and starts the next episode at the next call, ignoring that call's action (``pending``).
    The rows go in ``n_blocks`` blocks on numba's threads (cardsim.parallel_nb); results do
    not depend on ``n_blocks``.

    With ``episodes.fresh`` (a reset) every row instead starts a fresh game (game
    ``game_ids[i]``, then ``+= stride``), ignoring ``actions``, and its compiled seats decide
    until a learner seat is to act: one compiled loop serves both."""
    run_workers(batch_worker, game, policies, R, batch, players, actions, episodes,
                np.zeros(1, dtype=np.int64), n_blocks)
