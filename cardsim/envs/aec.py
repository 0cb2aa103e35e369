"""PettingZoo AEC environments: every seat an agent (``player_0`` ... ``player_{n-1}``).

Observation of each agent: ``{"observation": float32 vector of its seat (the game's observer),
"action_mask": int8 legal actions (all zero when it is not to act)}``; the mask is also in
``infos[agent]["action_mask"]``. Rewards: at every deal scored, each agent gets its side's
recorded points (Debertz D9) or its deal score (Barbu B7.3) times ``reward_scale``.
Episodes: ``episode="deal"`` or ``"game"`` as in the Gymnasium environments; every agent
terminates together. Illegal actions raise ``IllegalActionError``. ``pettingzoo`` is an
optional dependency (the ``rl`` extra).
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardsim import games
from cardsim.compile_notice import compiling
from cardsim.envs import kernels_nb as K
from cardsim.envs.actions import action_id
from cardsim.envs.defaults import REWARD_SCALE
from cardsim.envs.kernels_nb import EPISODE_END, LEARNER
from cardsim.errors import IllegalActionError, InvalidConfigError
from cardsim.jit import bind
from cardsim.policy_nb import PYTHON, RANDOM_POLICIES


class CardGameAEC(AECEnv):
    """A PettingZoo AEC environment for every seat of one game (module docstring); the subclasses
    name the game in ``GAME``.

    ``rules`` is a rules object of the game (or None: the defaults, with ``conventions`` given as
    keywords); ``episode`` is ``"deal"`` or ``"game"``; rewards are multiplied by ``reward_scale``;
    ``render_mode`` ``"ansi"`` renders one line of text. An unknown episode kind or convention
    raises ``InvalidConfigError``."""
    GAME = ""
    metadata = {"render_modes": ["ansi"], "name": "cardsim", "is_parallelizable": False}

    def __init__(self, *, rules=None, episode: str = "deal",
                 reward_scale: float = REWARD_SCALE, render_mode: str | None = None,
                 **conventions):
        super().__init__()
        self.kit = games.get(self.GAME)
        self.rules = self.kit.make_rules(rules, conventions)
        self.R = self.rules.pack()
        if episode not in ("deal", "game"):
            raise InvalidConfigError(f"episode must be 'deal' or 'game', got {episode!r}")
        self.metadata = dict(self.metadata, name=f"cardsim_{self.GAME}_v0")
        self.episode = episode
        self.whole_game = int(episode == "game")
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self.n_players = self.kit.players(self.rules)
        self.possible_agents = [f"player_{s}" for s in range(self.n_players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        low, high = self.kit.observer.SPEC.low_high()
        space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(self.kit.num_actions,), dtype=np.int8)})
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.kit.num_actions)
                              for a in self.possible_agents}
        L = self.kit.layout
        self._st = np.zeros(L.STATE_WIDTH, dtype=np.int64)
        self._obs = np.zeros(self.kit.observer.OBS_SIZE, dtype=np.float32)
        self._legal = np.zeros(self.kit.num_actions, dtype=np.uint8)
        self._rewards = np.zeros(4, dtype=np.float64)
        self._rng = np.zeros(1, dtype=np.uint64)
        self._kinds = np.full(4, PYTHON, dtype=np.int64)  # every seat decides from Python
        self._params = np.zeros((4, 1), dtype=np.float64)
        self._started = False
        self._engine_seed = 0
        self._game_id = 0

    def observation_space(self, agent):
        """The observation space of ``agent``: a dict of its float32 ``observation`` vector and its
        int8 ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The action space of ``agent``: ``Discrete`` over every action id of the game."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        """With a seed (or the first time) a new run of games from it; without, the next
        episode (the next deal of the game, or a new game)."""
        fresh = seed is not None or not self._started
        if not fresh and not all(self.terminations.values()):
            fresh = True  # an episode left before its end restarts with a new game
        if seed is not None or not self._started:
            rng = np.random.default_rng(seed)
            self._engine_seed = int(rng.integers(0, 2**62))
            self._game_id = 0
            self._started = True
        started = K.begin_episode(self.kit.tag, self._st, self.R, self._engine_seed,
                                  self._game_id, self.whole_game, fresh)  # once an episode
        self._game_id += started
        self._rewards[:] = 0.0
        status = self._advance(-1, 0)
        assert status == LEARNER  # begin_episode skips deals where nobody decides
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.agent_selection = self.possible_agents[self.kit.turn(self._st)]
        self.infos = {a: {} for a in self.agents}
        self._update_infos()

    def _update_infos(self):
        turn = self.kit.turn(self._st)
        for a in self.agents:
            s = self.agent_name_mapping[a]
            mask = self._legal.astype(bool) if s == turn else np.zeros(self.kit.num_actions,
                                                                       dtype=bool)
            self.infos[a] = {"action_mask": mask}

    def observe(self, agent):
        """What ``agent`` sees now: its observation vector and its legal actions (all zero when it
        is not to act or has terminated)."""
        seat = self.agent_name_mapping[agent]
        obs = np.zeros(self.kit.observer.OBS_SIZE, dtype=np.float32)
        self.kit.observer.observe(self._st, self.R, seat, obs)
        if seat == self.kit.turn(self._st) and not self.terminations.get(agent, False):
            mask = self._legal.astype(np.int8)
        else:
            mask = np.zeros(self.kit.num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        """Apply ``action`` (an integer id; a one-element array counts as its element) for the
        agent selected, then let the engine run on to the next decision; rewards, terminations and
        the next agent follow. A terminated agent's step only removes it (PettingZoo's dead step).
        Raises ``IllegalActionError`` listing the legal actions when ``action`` is not a legal
        id."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = action_id(action)
        if not (0 <= a < self.kit.num_actions and self._legal[a]):
            raise IllegalActionError(
                f"action {a} is not legal for {agent} in phase {self.kit.phase_name(self._st)};"
                f" legal actions: {self.kit.legal_names(self._legal)}")
        self._cumulative_rewards[agent] = 0.0
        self._rewards[:] = 0.0
        status = self._advance(a, self.agent_name_mapping[agent])
        self.rewards = {ag: float(self._rewards[self.agent_name_mapping[ag]]) * self.reward_scale
                        for ag in self.agents}
        if status == EPISODE_END:
            self.terminations = {ag: True for ag in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.kit.turn(self._st)]
        self._update_infos()
        self._accumulate_rewards()

    def _advance(self, action: int, obs_seat: int) -> int:
        all_seats = (1 << self.n_players) - 1
        args = (self.kit.tag, RANDOM_POLICIES, self._st, self.R, self._rng, action,
                K.Players(self._kinds, self._params, all_seats), self.whole_game,
                K.Seen(self._obs, self._legal, self._rewards), obs_seat)
        if "_bound_advance" not in self.__dict__:  # no argument typing per step (cardsim.jit)
            with compiling(f"the {self.kit.title} environment"):
                self._bound_advance = bind(K.apply_and_advance, *args)
        return self._bound_advance(*args)

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_bound_advance", None)
        return state

    def render(self):
        """With ``render_mode="ansi"``: one line naming the game, its phase and the seat to act;
        otherwise None."""
        if self.render_mode != "ansi":
            return None
        return (f"{self.GAME} phase={self.kit.phase_name(self._st)} "
                f"turn={self.kit.turn(self._st)}")

    def close(self):
        """Nothing to release: the environment holds only arrays."""


class DebertzAECEnv(CardGameAEC):
    """Debertz (docs/rules/debertz.md) for all seats; conventions as keywords (``players=3``...)."""

    GAME = "debertz"


class BarbuAECEnv(CardGameAEC):
    """Barbu (docs/rules/barbu.md) for all four seats; conventions as keywords."""

    GAME = "barbu"


def debertz_env(**kwargs) -> DebertzAECEnv:
    """A ``DebertzAECEnv`` (PettingZoo's ``env()`` convention); keywords as its constructor."""
    return DebertzAECEnv(**kwargs)


def barbu_env(**kwargs) -> BarbuAECEnv:
    """A ``BarbuAECEnv`` (PettingZoo's ``env()`` convention); keywords as its constructor."""
    return BarbuAECEnv(**kwargs)
