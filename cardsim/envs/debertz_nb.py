"""Compiled environment loops for Debertz: single-env stepping and batched self-play.

Episodes are one deal (``whole_game = 0``; the game goes on across episodes and a new one
starts when it ends) or one game (``whole_game = 1``). Rewards are each seat's side's recorded
points (D9) of every deal scored, added into a per-seat array. A deal in which nobody decides
(four sevens, D3.2) is skipped when an episode begins.

Status codes of ``apply_and_advance``: LEARNER (a learner seat is to act), EXTERNAL (a seat
whose agent lives in Python is to act), EPISODE_END.
"""

import numpy as np
from numba import njit, prange

from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import init_game, legal_mask, next_deal, side_of, step
from cardsim.debertz.observe_nb import OBS_SIZE, observe
from cardsim.debertz.simulate_nb import random_action

from cardsim.jit import NO_REFCOUNT  # noqa: E402

LEARNER, EXTERNAL, EPISODE_END = 0, 1, 2
NUM_ACTIONS = 40


@njit(cache=True)
def legal_row(st, R, out):
    """out[a] = True for the legal actions of the seat to act (NUM_ACTIONS booleans)."""
    m = legal_mask(st, R)
    for a in range(NUM_ACTIONS):
        out[a] = (m >> a) & 1


@njit(cache=True)
def is_legal(st, R, action):
    return 0 <= action < NUM_ACTIONS and (legal_mask(st, R) >> action) & 1 == 1


@njit(cache=True, inline="always")
def add_deal_rewards(st, R, rewards):
    """Each seat gets its side's recorded points of the deal that just ended (D9)."""
    if st[L.END] == L.END_VOID:
        return
    teams = R[L.R_TEAMS]
    for s in range(R[L.R_PLAYERS]):
        rewards[s] += st[L.RECORDED + side_of(s, teams)]


@njit(cache=True)
def begin_episode(st, R, seed, game_id, whole_game, fresh):
    """Start the next episode: a new game (``fresh``, whole games, or the game is over) or the
    next deal. Returns 1 when it started game ``game_id``, else 0."""
    started = 0
    if fresh or whole_game or st[L.PHASE] == L.PH_GAME_OVER:
        init_game(st, R, seed, game_id)
        started = 1
    else:
        next_deal(st, R)
    while st[L.PHASE] == L.PH_DEAL_END:  # D3.2: a four-sevens deal, nobody decided
        next_deal(st, R)
    return started


@njit(cache=True, inline="always")
def settle(st, R, whole_game, rewards):
    """Score deal ends into ``rewards``; in whole games start the next deal. True when the
    episode has ended."""
    while st[L.PHASE] >= L.PH_DEAL_END:
        add_deal_rewards(st, R, rewards)
        if st[L.PHASE] == L.PH_GAME_OVER or not whole_game:
            return True
        next_deal(st, R)
    return False


@njit(cache=True)
def apply_and_advance(st, R, action, learners, external, rng, whole_game, rewards, obs, legal,
                      obs_seat):
    """Apply ``action`` (-1: none) of the seat to act, then let the built-in random policy play
    every seat outside ``learners`` and ``external`` (bit masks of seats) until a learner or an
    external seat is to act or the episode ends. Writes the observation and legal row of the
    seat to act (at the episode end: of ``obs_seat``, with no legal action)."""
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
            legal_row(st, R, legal)
            return LEARNER if (learners >> seat) & 1 else EXTERNAL
        step(st, R, random_action(legal_mask(st, R), rng, 0))


@njit(cache=True, inline="always")
def write_decision(st, R, i, seats, obs, legal, with_obs):
    seat = st[L.TURN]
    seats[i] = seat
    if with_obs:
        observe(st, R, seat, obs[i])
    m = legal_mask(st, R)
    for a in range(NUM_ACTIONS):
        legal[i, a] = (m >> a) & 1


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
    """Every row starts a fresh game (game ``game_ids[i]``, then ``+= stride``)."""
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
