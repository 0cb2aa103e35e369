"""Decisions of the episodes in flight, emitted with their Monte Carlo returns.

Self-play with ``SelfPlayBatch`` makes one decision per game and step, for whichever seat is
to act. Each decision is kept in its game's row (position = how many decisions the episode
has had) until the episode (a deal) ends; then every decision of it comes out at once with
its return: what the seat that made it scored over the episode (rewards only come at deal
ends, so the undiscounted return is the deal's score for that seat, D9 / B7.3). All of it
is vectorised over the games that ended at a step: no loop over games.

Observations are kept as float16 (they are 0/1 flags and small fractions): the buffer holds
``num_games x max decisions per deal x OBS_SIZE`` values.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Samples(NamedTuple):
    """Decisions of ended episodes (one row each)."""

    obs: np.ndarray      # (n, OBS_SIZE) float32
    legal: np.ndarray    # (n, NUM_ACTIONS) bool
    action: np.ndarray   # (n,) int64
    ret: np.ndarray      # (n,) float32: the deciding seat's score over its episode
    extra: np.ndarray    # (n, *extra_shape) float32: what the algorithm keeps per decision
                         # (PPO: the action's log-prob; distill: the solver's label per action)


class EpisodeBuffer:
    """Per game, the decisions of its current episode."""

    def __init__(self, num_games: int, max_len: int, obs_size: int, num_actions: int,
                 extra_shape: tuple = ()):
        self.n, self.max_len = num_games, max_len
        self.obs = np.zeros((num_games, max_len, obs_size), dtype=np.float16)
        self.legal = np.zeros((num_games, max_len, num_actions), dtype=np.bool_)
        self.action = np.zeros((num_games, max_len), dtype=np.int64)
        self.seat = np.zeros((num_games, max_len), dtype=np.int64)
        self.extra = np.zeros((num_games, max_len, *extra_shape), dtype=np.float32)
        self.length = np.zeros(num_games, dtype=np.int64)
        self.score = np.zeros((num_games, 4), dtype=np.float32)
        self._rows = np.arange(num_games)

    def clear(self) -> None:
        """Forget the episodes in flight (the batch starts fresh deals)."""
        self.length[:] = 0
        self.score[:] = 0.0

    def record(self, obs, legal, seats, actions, extra=None, keep=None) -> None:
        """The decision every game makes now (before the batch steps); with ``keep``, only
        those of the games it marks (the others are an opponent's, not learnt from)."""
        r = self._rows if keep is None else np.flatnonzero(keep)
        if keep is not None:
            obs, legal, seats, actions = obs[r], legal[r], seats[r], actions[r]
            extra = None if extra is None else extra[r]
        pos = self.length[r]
        if pos.size and pos.max() >= self.max_len:  # not within the rules' decision bound
            raise RuntimeError(f"an episode ran past {self.max_len} decisions")
        self.obs[r, pos] = obs
        self.legal[r, pos] = legal
        self.action[r, pos] = actions
        self.seat[r, pos] = seats
        if extra is not None:
            self.extra[r, pos] = extra
        self.length[r] += 1

    def finish(self, rewards, done) -> Samples | None:
        """Add the step's rewards; the decisions of episodes that ended, with returns."""
        self.score += rewards
        ended = np.flatnonzero(done)
        if ended.size == 0:
            return None
        lengths = self.length[ended]
        keep = np.arange(self.max_len)[None, :] < lengths[:, None]   # (ended, max_len)
        seat = self.seat[ended][keep]
        game = np.repeat(np.arange(ended.size), lengths)
        out = Samples(self.obs[ended][keep].astype(np.float32), self.legal[ended][keep],
                      self.action[ended][keep], self.score[ended][game, seat],
                      self.extra[ended][keep])
        self.length[ended] = 0
        self.score[ended] = 0.0
        return out


def concat(parts: list[Samples]) -> Samples:
    """The samples of ``parts`` as one ``Samples``, each field concatenated in order."""
    return Samples(*(np.concatenate(x) for x in zip(*parts)))


def play_steps(batch, step, buffer: EpisodeBuffer, steps: int, choose, consume,
               pool=None) -> int:
    """Play ``steps`` decision steps of every game of ``batch`` from ``step`` (what its
    ``reset`` returned), the seats the batch leaves to the caller deciding by
    ``choose(obs, legal) -> (actions, extra)`` (one call for the whole batch); the decisions
    of every episode that ends go to ``consume(samples)``. ``pool``: None, or
    ``(seats, act)`` where ``seats[i, s]`` marks the seats of game i played by an opponent
    network ``act(obs, legal) -> actions`` (its decisions are played, not learnt from).
    Returns how many decisions were made."""
    rows = np.arange(batch.num_games)
    for _ in range(steps):
        actions, extra = choose(step.obs, step.legal)
        keep = None
        if pool is not None:
            theirs = pool[0][rows, step.seats]
            keep = ~theirs
            if theirs.any():
                actions = actions.copy()
                actions[theirs] = pool[1](step.obs[theirs], step.legal[theirs])
        buffer.record(step.obs, step.legal, step.seats, actions, extra, keep)
        step = batch.step(actions)
        samples = buffer.finish(step.rewards, step.done)
        if samples is not None:
            consume(samples)
    return steps * batch.num_games
