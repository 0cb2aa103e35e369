"""Compiled environment loops, written once for both games (``cardsim.game_nb``): the
single-agent step with compiled opponents, and batched self-play.

Episodes are one deal (``whole = 0``; the game goes on across episodes and a new one starts
when it ends) or one whole game (``whole = 1``). Rewards are each seat's points of every
deal scored (the game's ``deal_rewards``), added into a per-seat array. A deal in which
nobody decides (Debertz's four sevens, D3.2) is skipped when an episode begins.

Status codes of ``apply_and_advance``: LEARNER (a learner seat is to act), EXTERNAL (a seat
whose agent lives in Python is to act), EPISODE_END.
"""

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
def apply_and_advance(game, policies, st, R, action, learners, kinds, params, rng, whole,
                      rewards, obs, legal_out, obs_seat):
    """Apply ``action`` (-1: none) of the seat to act, then let the compiled opponents
    (``kinds[seat]`` >= 0, parameter rows ``params``) decide until a learner seat (bit mask
    ``learners``) or a Python seat (kind -1) is to act, or the episode ends. Writes the
    observation and legal row of the seat to act (at the episode end: of ``obs_seat``, with no
    legal action)."""
    if action >= 0:
        apply_action(game, st, R, action)
    while True:
        if settle(game, st, R, whole, rewards):
            observe(game, st, R, obs_seat, obs)
            for a in range(legal_out.shape[0]):
                legal_out[a] = 0
            return EPISODE_END
        play_compiled(game, policies, st, R, rng, 0, kinds, params)
        if not deal_over(game, st):
            seat = turn(game, st)
            observe(game, st, R, seat, obs)
            write_legal(game, st, R, legal_out)
            return LEARNER if (learners >> seat) & 1 else EXTERNAL


@njit(cache=True, inline="always")
def advance_opponents(game, policies, st, R, rng, i, kinds, params, whole, rewards):
    """Score deal ends and let the compiled seats decide until a PYTHON seat (a learner) is
    to act; True when the episode ends first."""
    while True:
        if settle(game, st, R, whole, rewards):
            return True
        play_compiled(game, policies, st, R, rng, i, kinds, params)
        if not deal_over(game, st):
            return False


@njit(cache=True, inline="always")
def write_decision(game, st, R, i, seats, obs, legal_out, with_obs):
    """Row ``i`` of a batch waits for its seat to act: the seat into ``seats[i]``, its observation
    into ``obs[i]`` (when ``with_obs``) and its legal actions into ``legal_out[i]``."""
    seat = turn(game, st)
    seats[i] = seat
    if with_obs:
        observe(game, st, R, seat, obs[i])
    write_legal(game, st, R, legal_out[i])


# Batched kernels: workers over blocks of rows (cardsim.parallel_nb); each worker reads its own
# copies of the rules and the seating and runs a loop compiled without reference counting
# (cardsim.jit): otherwise every engine call would update shared reference counts and threads
# would fight over them.
@njit(cache=True, inline="always")
def start_episode(game, policies, st, R, rng, i, kinds, params, seed, game_ids, stride, whole,
                  fresh, scratch):
    """Begin the next episode of row i and play its compiled seats up to a learner's
    decision (episodes that end before one are skipped; ``scratch`` takes their points)."""
    fresh_game = fresh
    while True:
        game_ids[i] += stride * begin_episode(game, st, R, seed, game_ids[i], whole, fresh_game)
        fresh_game = False
        if not advance_opponents(game, policies, st, R, rng, i, kinds, params, whole,
                                 scratch):
            return


@njit(cache=True, **NO_REFCOUNT)
def step_rows(game, policies, S, R, rng, kinds, params, actions, seed, game_ids, stride, whole,
              same_step, pending, seats, obs, legal_out, rewards, done, final_obs, with_obs,
              fresh, scratch, lo, hi):
    """Rows lo..hi-1 of ``batch_step`` (with ``fresh``: of a reset)."""
    for i in range(lo, hi):
        st = S[i]
        for s in range(rewards.shape[1]):
            rewards[i, s] = 0.0
        done[i] = False
        if fresh or pending[i]:
            start_episode(game, policies, st, R, rng, i, kinds, params, seed, game_ids,
                          stride, whole, fresh, scratch)
            pending[i] = False
            write_decision(game, st, R, i, seats, obs, legal_out, with_obs)
            continue
        acted = turn(game, st)
        apply_action(game, st, R, actions[i])
        if advance_opponents(game, policies, st, R, rng, i, kinds, params, whole, rewards[i]):
            done[i] = True
            if same_step:
                if with_obs:
                    observe(game, st, R, acted, final_obs[i])
                start_episode(game, policies, st, R, rng, i, kinds, params, seed, game_ids,
                              stride, whole, False, scratch)
            else:
                pending[i] = True
                seats[i] = acted
                if with_obs:
                    observe(game, st, R, acted, obs[i])
                for a in range(legal_out.shape[1]):
                    legal_out[i, a] = 1
                continue
        write_decision(game, st, R, i, seats, obs, legal_out, with_obs)


@njit(cache=True, nogil=True)
def batch_worker(game, policies, S, R, rng, kinds, params, actions, seed, game_ids, stride, whole,
                 same_step, pending, seats, obs, legal_out, rewards, done, final_obs, with_obs,
                 fresh, counter, n_blocks):
    """A worker of ``batch_step``: blocks of rows from ``counter`` until none is left
    (cardsim.parallel_nb)."""
    local_rules = R.copy()  # each worker reads its own copies
    local_kinds = kinds.copy()
    local_params = params.copy()
    scratch = np.zeros(4)
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, S.shape[0], n_blocks)
        step_rows(game, policies, S, local_rules, rng, local_kinds, local_params, actions, seed,
                  game_ids, stride, whole, same_step, pending, seats, obs, legal_out, rewards,
                  done, final_obs, with_obs, fresh, scratch, lo, hi)
        b = next_block(counter)


def batch_step(game, policies, S, R, rng, kinds, params, actions, seed, game_ids, stride, whole,
               same_step, pending, seats, obs, legal_out, rewards, done, final_obs, with_obs,
               n_blocks, fresh=False):
    """One decision in every game: row i's seat to act (``seats[i]``, a learner seat) plays
    ``actions[i]``; then its compiled seats decide (generator ``rng[i]``) until a learner seat
    is to act again.

    Deal ends add each seat's points to ``rewards[i]`` (zeroed first); ``done[i]`` marks an
    episode end. Autoreset: with ``same_step`` the next episode starts at once (the
    observation of the seat that acted last goes to ``final_obs[i]``); otherwise row i stays
    at its end (observation of the seat that acted last, every action allowed) and starts the
    next episode at the next call, ignoring that call's action (``pending``). The rows go in
    ``n_blocks`` blocks on numba's threads (cardsim.parallel_nb); results do not depend on
    ``n_blocks``.

    With ``fresh`` (a reset) every row instead starts a fresh game (game ``game_ids[i]``, then
    ``+= stride``), ignoring ``actions``, and its compiled seats decide until a learner seat
    is to act: one compiled loop serves both."""
    run_workers(batch_worker, game, policies, S, R, rng, kinds, params, actions, seed, game_ids,
                stride, whole, same_step, pending, seats, obs, legal_out, rewards, done,
                final_obs, with_obs, fresh, np.zeros(1, dtype=np.int64), n_blocks)
