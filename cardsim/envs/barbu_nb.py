"""Compiled environment loops for Barbu: single-env stepping and batched self-play.

Episodes are one deal (``whole_game = 0``; the match goes on across episodes and a new one
starts after its 28th deal) or one match of 28 deals (``whole_game = 1``). Rewards are each
seat's deal score (B7.3) of every deal scored, added into a per-seat array.

Status codes of ``apply_and_advance``: LEARNER, EXTERNAL, EPISODE_END (as in debertz_nb).
"""

import numpy as np
from numba import njit, prange

from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import (fill_legal, init_game, legal_array, legal_mask,
                                     next_deal, step)
from cardsim.barbu.observe_nb import OBS_SIZE, observe
from cardsim.barbu.simulate_nb import random_action

from cardsim.jit import NO_REFCOUNT  # noqa: E402

LEARNER, EXTERNAL, EPISODE_END = 0, 1, 2
NUM_ACTIONS = 80


@njit(cache=True, inline="always")
def add_deal_rewards(st, R, rewards):
    """Each seat gets its deal score (B7.3) of the deal that just ended."""
    for s in range(4):
        rewards[s] += st[L.DEAL_SCORES + s]


@njit(cache=True)
def begin_episode(st, R, seed, game_id, whole_game, fresh):
    """Start the next episode: a new match (``fresh``, whole matches, or the match is over)
    or the next deal. Returns 1 when it started match ``game_id``, else 0."""
    if fresh or whole_game or st[L.PHASE] == L.PH_MATCH_OVER:
        init_game(st, R, seed, game_id)
        return 1
    next_deal(st, R)
    return 0


@njit(cache=True, inline="always")
def settle(st, R, whole_game, rewards):
    """Score deal ends into ``rewards``; in whole matches start the next deal. True when the
    episode has ended."""
    while st[L.PHASE] >= L.PH_DEAL_END:
        add_deal_rewards(st, R, rewards)
        if st[L.PHASE] == L.PH_MATCH_OVER or not whole_game:
            return True
        next_deal(st, R)
    return False


@njit(cache=True)
def apply_and_advance(st, R, action, learners, external, rng, whole_game, rewards, obs, legal,
                      obs_seat):
    """As debertz_nb.apply_and_advance: apply ``action`` (-1: none), play the built-in random
    policy for the other seats, stop at a learner or external seat or the episode end."""
    if action >= 0:
        step(st, R, action)
    while True:
        if settle(st, R, whole_game, rewards):
            observe(st, R, obs_seat, obs)
            for a in range(NUM_ACTIONS):
                legal[a] = 0
            return EPISODE_END
        seat = st[L.TURN]
        if (learners >> seat) & 1 or (external >> seat) & 1:
            observe(st, R, seat, obs)
            legal_array(st, R, legal)
            return LEARNER if (learners >> seat) & 1 else EXTERNAL
        base, bits = legal_mask(st, R)
        step(st, R, random_action(base, bits, rng, 0))


@njit(cache=True, inline="always")
def write_decision(st, R, i, seats, obs, legal, with_obs):
    seat = st[L.TURN]
    seats[i] = seat
    if with_obs:
        observe(st, R, seat, obs[i])
    base, bits = legal_mask(st, R)
    fill_legal(base, bits, legal[i])


# Batched kernels: a parallel loop over blocks of rows; each block reads its own copy of the
# rules and runs a loop compiled without reference counting (cardsim.jit): otherwise every
# engine call would update shared reference counts and threads would fight over them.
@njit(cache=True, **NO_REFCOUNT)
def reset_rows(S, R, seed, game_ids, stride, whole_game, pending, seats, obs, legal, with_obs,
               lo, hi):
    for i in range(lo, hi):
        st = S[i]
        game_ids[i] += stride * begin_episode(st, R, seed, game_ids[i], whole_game, True)
        pending[i] = False
        write_decision(st, R, i, seats, obs, legal, with_obs)


@njit(cache=True, parallel=True)
def batch_reset(S, R, seed, game_ids, stride, whole_game, pending, seats, obs, legal, with_obs,
                n_blocks):
    """Every row starts a fresh match (game ``game_ids[i]``, then ``+= stride``)."""
    n = S.shape[0]
    per = (n + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        reset_rows(S, R.copy(), seed, game_ids, stride, whole_game, pending, seats, obs, legal,
                   with_obs, b * per, min(n, (b + 1) * per))


@njit(cache=True, **NO_REFCOUNT)
def step_rows(S, R, actions, seed, game_ids, stride, whole_game, same_step, pending, seats,
              obs, legal, rewards, done, final_obs, with_obs, lo, hi):
    for i in range(lo, hi):
        st = S[i]
        for s in range(4):
            rewards[i, s] = 0.0
        done[i] = False
        if pending[i]:
            game_ids[i] += stride * begin_episode(st, R, seed, game_ids[i], whole_game, False)
            pending[i] = False
            write_decision(st, R, i, seats, obs, legal, with_obs)
            continue
        acted = st[L.TURN]
        step(st, R, actions[i])
        if settle(st, R, whole_game, rewards[i]):
            done[i] = True
            if same_step:
                if with_obs:
                    observe(st, R, acted, final_obs[i])
                game_ids[i] += stride * begin_episode(st, R, seed, game_ids[i], whole_game,
                                                      False)
            else:
                pending[i] = True
                seats[i] = acted
                if with_obs:
                    observe(st, R, acted, obs[i])
                for a in range(NUM_ACTIONS):
                    legal[i, a] = 1
                continue
        write_decision(st, R, i, seats, obs, legal, with_obs)


@njit(cache=True, parallel=True)
def batch_step(S, R, actions, seed, game_ids, stride, whole_game, same_step, pending, seats,
               obs, legal, rewards, done, final_obs, with_obs, n_blocks):
    """One decision in every game: row i's seat to act (``seats[i]``) plays ``actions[i]``.

    Deal ends add each seat's points to ``rewards[i]`` (zeroed first); ``done[i]`` marks an
    episode end. Autoreset: with ``same_step`` the next episode starts at once (the
    observation of the seat that acted last goes to ``final_obs[i]``); otherwise row i stays
    at its end (observation of the seat that acted last, every action allowed) and starts the
    next episode at the next call, ignoring that call's action (``pending``). Results do not
    depend on ``n_blocks`` (the work split)."""
    n = S.shape[0]
    per = (n + n_blocks - 1) // n_blocks
    for b in prange(n_blocks):
        step_rows(S, R.copy(), actions, seed, game_ids, stride, whole_game, same_step, pending,
                  seats, obs, legal, rewards, done, final_obs, with_obs, b * per,
                  min(n, (b + 1) * per))
