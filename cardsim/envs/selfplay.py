"""Batched self-play: N games stepped together in compiled code, every seat acting (or some
seats played by compiled opponents at the table).

``SelfPlayBatch`` keeps N engine state rows. Each call of ``step(actions)`` makes one decision
in every game — row i's seat to act plays ``actions[i]`` — in one compiled kernel
(cardsim.envs.kernels_nb.batch_step, its rows shared among threads), which also scores deal ends,
starts next deals and episodes, and writes for every game the seat to act, its observation
vector and its legal mask. Nothing returns to Python per game.

``SelfPlayVectorEnv`` is a Gymnasium ``VectorEnv`` on it, with an explicit autoreset mode.

Opponents: ``opponents`` gives compiled agents (or specs such as ``"heuristic"``) for some
seats, as the Gymnasium environment takes them; they decide inside the same kernel (the
table's ``play_compiled``), so the batch only ever waits for the caller's seats. Their random
draws come from row i's generator, seeded from (seed, first_game + i).

Determinism: row i plays games ``first_game + i``, ``first_game + i + N``, ... of the run
with seed ``seed`` (cardsim's seeded deals), so its deals do not depend on threads.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from cardsim import games, rng_nb, stream_keys
from cardsim.compile_notice import compiling
from cardsim.envs import kernels_nb as K
from cardsim.envs.actions import action_ids
from cardsim.envs.defaults import AUTORESET, REWARD_SCALE
from cardsim.errors import IllegalActionError, InvalidConfigError
from cardsim.policy_nb import PYTHON
from cardsim.table import is_compiled, params_rows, policy_set_of, resolve_agent

OPPONENT_KEY = stream_keys.OPPONENT  # the compiled opponents' draws in row i


class SelfPlayStep(NamedTuple):
    """What a batch call returns (arrays owned by the batch: overwritten by the next call)."""

    seats: np.ndarray      # (N,) int64: seat to act in each game
    obs: np.ndarray | None  # (N, OBS_SIZE) float32: its observation (None without observations)
    legal: np.ndarray      # (N, NUM_ACTIONS) bool: its legal actions
    rewards: np.ndarray    # (N, 4) float32: points each seat scored at deals ending this step
    done: np.ndarray       # (N,) bool: the game's episode ended at this step
    final_obs: np.ndarray | None  # same_step autoreset: last observation of a done episode


class SelfPlayBatch:
    """N games of ``game`` ("debertz" or "barbu"), every seat played by the caller.

    Arguments: ``num_games``; ``rules`` (rules object or dict) and/or conventions as keywords;
    ``seed``; ``episode`` ("deal" or "game"); ``autoreset`` (default "next_step", as
    Gymnasium and ``SelfPlayVectorEnv``): "same_step" (a game whose
    episode ends starts the next one within the same call: the returned observation is the
    new episode's first, ``final_obs`` holds the last observation of the ended one, for the
    seat that acted last) or "next_step" (the game stays at its end for one call: the
    returned observation is the final one, of the seat that acted last, its legal row allows
    every action, and the next call starts the next episode and ignores that game's action);
    ``observations`` (False: no observation vectors, for pure speed); ``threads`` (numba
    threads; None leaves the setting alone); ``reward_scale`` applied to ``rewards``
    (default 0.01 as in every env of the package; 1 gives the raw recorded points, Debertz
    D9 / Barbu B7.3); ``check_actions``: raise
    ``IllegalActionError`` on an illegal action (one vectorised test; default True).

    Rewards: ``rewards[i, s]`` is what seat s scored (its side's recorded points in Debertz,
    its deal score in Barbu) at every deal of game i that ended during the call; seats beyond
    the player count stay 0.

    ``opponents``: None (every seat is the caller's), or compiled agents or agent specs for
    some seats: one for every seat but seat 0 (an agent or spec), a list per seat (None for
    the caller's seats) or a dict seat -> agent. ``seats`` then only ever holds the caller's
    seats.
    """

    def __init__(self, game: str, num_games: int, rules=None, *, seed: int = 0,
                 episode: str = "deal", autoreset: str = AUTORESET, observations: bool = True,
                 threads: int | None = None, reward_scale: float = REWARD_SCALE,
                 check_actions: bool = True, first_game: int = 0, opponents=None,
                 **conventions):
        self.kit = games.get(game)
        self.game = game
        self.rules = self.kit.make_rules(rules, conventions)
        self.R = self.rules.pack()
        if type(num_games) is not int or num_games < 1:
            raise InvalidConfigError(f"num_games must be a positive int, got {num_games!r}")
        if episode not in ("deal", "game"):
            raise InvalidConfigError(f"episode must be 'deal' or 'game', got {episode!r}")
        if autoreset not in ("same_step", "next_step"):
            raise InvalidConfigError(
                f"autoreset must be 'same_step' or 'next_step', got {autoreset!r}")
        if threads is not None:
            from cardsim.runtime import set_threads
            set_threads(threads)
        self.num_games = num_games
        self.episode = episode
        self.whole_game = int(episode == "game")
        self.autoreset = autoreset
        self.same_step = int(autoreset == "same_step")
        self.with_obs = bool(observations)
        self.reward_scale = float(reward_scale)
        self.check_actions = bool(check_actions)
        self.first_game = int(first_game)
        L = self.kit.layout
        n, d, a = num_games, self.kit.observer.OBS_SIZE, self.kit.num_actions
        self.states = np.zeros((n, L.STATE_WIDTH), dtype=np.int64)
        self.game_ids = np.zeros(n, dtype=np.int64)
        self.pending = np.zeros(n, dtype=np.bool_)
        self.seats = np.zeros(n, dtype=np.int64)
        self.obs = np.zeros((n, d) if self.with_obs else (1, d), dtype=np.float32)
        self.final_obs = np.zeros((n, d) if self.with_obs and self.same_step else (1, d),
                                  dtype=np.float32)
        self._legal = np.zeros((n, a), dtype=np.uint8)
        self.rewards = np.zeros((n, 4), dtype=np.float32)
        self.done = np.zeros(n, dtype=np.bool_)
        self.seed = int(seed)
        self._seat_opponents(opponents)

    def _seat_opponents(self, opponents) -> None:
        """Per seat: PYTHON for the caller's seats, else the compiled opponent's kind."""
        n = self.kit.players(self.rules)
        if opponents is None:
            chosen = {}
        elif isinstance(opponents, dict):
            chosen = dict(opponents)
        elif isinstance(opponents, (list, tuple)):
            if len(opponents) != n:
                raise InvalidConfigError(
                    f"opponents as a list needs one entry per seat ({n}), got {len(opponents)}")
            chosen = dict(enumerate(opponents))
        else:
            chosen = {s: opponents for s in range(1, n)}
        bad = [s for s in chosen if type(s) is not int or not 0 <= s < n]
        if bad:
            raise InvalidConfigError(f"opponent seats must be 0..{n - 1}, got {bad[0]!r}")
        seated: list = [None] * 4
        self.kinds = np.full(4, PYTHON, dtype=np.int64)
        for s, spec in chosen.items():
            if spec is None:
                continue
            agent = resolve_agent(spec, self.game)
            if not is_compiled(agent):
                raise InvalidConfigError(
                    f"self-play opponents must be compiled agents (random, heuristic, ...); "
                    f"seat {s} got {agent!r}: play a Python agent's seats yourself")
            self.kinds[s] = int(agent.kind)
            seated[s] = agent
        self.params = params_rows(seated)
        self.policies = policy_set_of(seated)
        if (self.kinds[:n] != PYTHON).all():
            raise InvalidConfigError("self-play needs at least one seat left to the caller")
        self.opponent_rng = np.array(
            [rng_nb.stream(self.seed, self.first_game + i, OPPONENT_KEY)
             for i in range(self.num_games)], dtype=np.uint64)

    @property
    def obs_size(self) -> int:
        """Length of one seat's observation vector."""
        return self.kit.observer.OBS_SIZE

    @property
    def num_actions(self) -> int:
        """Number of action ids of the game (columns of ``legal``)."""
        return self.kit.num_actions

    @property
    def legal(self) -> np.ndarray:
        """The legal actions of each game's seat to act, as of the last ``reset`` or ``step``: a
        bool view ``(batch, num_actions)`` of the batch's own buffer (overwritten by the next
        step)."""
        return self._legal.view(np.bool_)

    def _blocks(self) -> int:
        """Work blocks for the parallel loop (results never depend on it)."""
        import numba

        return max(1, min(self.num_games, numba.get_num_threads() * 4))

    def _result(self) -> SelfPlayStep:
        if self.reward_scale != 1.0:
            self.rewards *= self.reward_scale
        return SelfPlayStep(self.seats, self.obs if self.with_obs else None, self.legal,
                            self.rewards, self.done,
                            self.final_obs if (self.with_obs and self.same_step) else None)

    def reset(self, seed: int | None = None) -> SelfPlayStep:
        """Every game starts afresh (from ``seed`` if given)."""
        if seed is not None:
            if not (isinstance(seed, (int, np.integer)) and 0 <= seed < 2**63):
                raise InvalidConfigError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
            self.seed = int(seed)
        self.game_ids[:] = self.first_game + np.arange(self.num_games)
        self.rewards[:] = 0.0
        self.done[:] = False
        self.opponent_rng[:] = [rng_nb.stream(self.seed, self.first_game + i, OPPONENT_KEY)
                                for i in range(self.num_games)]
        with compiling(f"the {self.kit.title} self-play batch"):  # a first run compiles
            self._batch_step(np.zeros(self.num_games, dtype=np.int64), fresh=True)
        return self._result()

    def step(self, actions) -> SelfPlayStep:
        """One decision in every game: ``actions[i]`` for game i's seat to act."""
        actions = action_ids(actions)
        if actions.shape != (self.num_games,):
            raise InvalidConfigError(
                f"actions must have shape ({self.num_games},), got {actions.shape}")
        if self.check_actions:
            ok = (actions >= 0) & (actions < self.num_actions)
            ok[ok] = self._legal[np.flatnonzero(ok), actions[ok]] != 0
            if not ok.all():
                i = int(np.flatnonzero(~ok)[0])
                legal = self.kit.legal_names(self._legal[i])
                raise IllegalActionError(
                    f"action {int(actions[i])} of game {i} (seat {int(self.seats[i])}) is not "
                    f"legal; legal actions: {legal}")
        self._batch_step(actions, fresh=False)  # the kernel is reset's, compiled there
        return self._result()

    def _batch_step(self, actions: np.ndarray, fresh: bool) -> None:
        """The compiled step (or, with ``fresh``, reset) of every game."""
        batch = K.Batch(self.states, self.opponent_rng, self.game_ids, self.pending, self.seats,
                        self.obs, self._legal, self.rewards, self.done, self.final_obs)
        learners = sum(1 << s for s in range(len(self.kinds)) if self.kinds[s] == PYTHON)
        episodes = K.Episodes(self.seed, self.num_games, self.whole_game, self.same_step,
                              self.with_obs, fresh)
        K.batch_step(self.kit.tag, self.policies, self.R, batch,
                     K.Players(self.kinds, self.params, learners), actions, episodes,
                     self._blocks())


def random_legal_actions(legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of a boolean legal matrix (vectorised)."""
    scores = rng.random(legal.shape, dtype=np.float32)
    scores[~legal] = -1.0
    return scores.argmax(axis=1)


# ---------------------------------------------------------------------------------------------
# Gymnasium VectorEnv
# ---------------------------------------------------------------------------------------------
def _vector_env_class():
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space

    class SelfPlayVectorEnv(VectorEnv):
        """Gymnasium ``VectorEnv`` over ``SelfPlayBatch``: sub-environment i is game i, and
        its observation is always that of the seat to act (``info["seat"]``), so one policy
        plays every seat (self-play).

        Observation: the observer's float32 vector (``Box``, game's ``OBS_SIZE``); legal
        actions in ``info["action_mask"]`` (N, NUM_ACTIONS) bool and ``action_masks()``.
        Reward of sub-environment i at a step: what the seat that just acted scored
        (``reward_scale`` x recorded points, at deal ends); every seat's rewards are in
        ``info["seat_rewards"]`` (N, 4).
        Autoreset: ``autoreset_mode`` "next_step" (Gymnasium's default) or "same_step"
        (``info["final_obs"]`` / ``info["_final_obs"]`` carry the ended episodes' last
        observations), recorded in ``metadata["autoreset_mode"]``.
        """

        def __init__(self, game: str = "debertz", num_envs: int = 64, rules=None, *,
                     seed: int = 0, episode: str = "deal", autoreset_mode=AUTORESET,
                     reward_scale: float = REWARD_SCALE, threads: int | None = None,
                     **conventions):
            mode = AutoresetMode(autoreset_mode) if isinstance(autoreset_mode, AutoresetMode) \
                else {"next_step": AutoresetMode.NEXT_STEP,
                      "same_step": AutoresetMode.SAME_STEP}.get(autoreset_mode)
            if mode not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
                raise InvalidConfigError(
                    f"autoreset_mode must be 'next_step' or 'same_step', got {autoreset_mode!r}")
            self.batch = SelfPlayBatch(
                game, num_envs, rules, seed=seed, episode=episode,
                autoreset="next_step" if mode == AutoresetMode.NEXT_STEP else "same_step",
                threads=threads, reward_scale=reward_scale, check_actions=True, **conventions)
            self.metadata = {"autoreset_mode": mode}
            self.num_envs = num_envs
            low, high = self.batch.kit.observer.SPEC.low_high()
            self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
            self.single_action_space = spaces.Discrete(self.batch.num_actions)
            self.observation_space = batch_space(self.single_observation_space, num_envs)
            self.action_space = batch_space(self.single_action_space, num_envs)
            self._seed = seed

        def reset(self, *, seed=None, options=None):
            if seed is not None:
                self._np_random, self._np_random_seed = gym.utils.seeding.np_random(seed)
            r = self.batch.reset(seed)
            return r.obs.copy(), self._info(r)

        def step(self, actions):
            actions = action_ids(actions)
            acted = self.batch.seats.copy()
            was_pending = self.batch.pending.copy()
            r = self.batch.step(actions)
            rewards = r.rewards[np.arange(self.num_envs), acted].astype(np.float64)
            rewards[was_pending] = 0.0
            terminations = r.done.copy()
            truncations = np.zeros(self.num_envs, dtype=np.bool_)
            info = self._info(r)
            if r.final_obs is not None:
                info["final_obs"] = r.final_obs.copy()
                info["_final_obs"] = r.done.copy()
            return r.obs.copy(), rewards, terminations, truncations, info

        def _info(self, r) -> dict:
            return {"action_mask": r.legal.copy(), "seat": r.seats.copy(),
                    "seat_rewards": r.rewards.copy()}

        def action_masks(self) -> np.ndarray:
            return self.batch.legal.copy()

    return SelfPlayVectorEnv


def __getattr__(name):
    if name == "SelfPlayVectorEnv":
        cls = _vector_env_class()
        globals()["SelfPlayVectorEnv"] = cls
        return cls
    raise AttributeError(name)
