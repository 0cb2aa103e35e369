"""The single-agent Gymnasium environment, written once for both games (``cardsim.games``).

One learning seat (or, in team Debertz, side) plays against opponent policies:

- **compiled** agents (random, heuristic, ...: anything with ``kind``, ``params`` and
  ``policies``, see ``cardsim.table``) decide inside the env's compiled step
  (``kernels_nb.apply_and_advance``): no Python per opponent move;
- **Python** agents (any object with the batched ``act(observations, legal_masks)``) are
  asked through the same call the table makes, with a batch of one: the observation vector
  of their seat, shape (1, OBS_SIZE), and the legal mask, shape (1, NUM_ACTIONS) booleans;
- a plain callable ``f(observation_vector, legal_bools) -> action`` also works;
- a spec string or mapping (``"heuristic"``, ``"heuristic:aggression=0.7"``,
  ``"mypkg.bots:MyAgent"``) is resolved to an agent (``cardsim.table.resolve_agent``).

Seats left out (or ``None``/``"random"``) play uniformly at random inside the engine.
The game classes (``DebertzEnv``, ``BarbuEnv``) carry the docstring cards.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cardsim import games
from cardsim.compile_notice import compiling
from cardsim.envs import kernels_nb as K
from cardsim.envs.actions import action_id
from cardsim.envs.defaults import REWARD_SCALE
from cardsim.envs.kernels_nb import EPISODE_END, EXTERNAL, LEARNER
from cardsim.errors import IllegalActionError, InvalidConfigError
from cardsim.jit import bind
from cardsim.policy_nb import PYTHON, RANDOM
from cardsim.table import (EngineRows, Observations, agent_label, check_agent_rules,
                           is_compiled, params_rows, policy_set_of, resolve_agent)


def opponent_action(agent, game, st_rows, R, rng, obs, legal) -> int:
    """One action of a Python opponent for the seat whose observation is ``obs``."""
    if hasattr(agent, "act"):
        view = obs[None, :].copy().view(Observations)
        view.engine = EngineRows(game.tag, st_rows, R, rng, np.zeros(1, dtype=np.int64))
        out = agent.act(view, legal[None, :].astype(bool))
    else:
        out = agent(obs.copy(), legal.astype(bool))
    if hasattr(out, "detach"):  # a torch tensor
        out = out.detach().cpu().numpy()
    return int(np.asarray(out).reshape(-1)[0])


class SampledAction(int):
    """An action id drawn by ``LegalDiscrete.sample()``, remembering the decision it was
    drawn for (the env counts its decisions)."""

    decision: int

    def __new__(cls, value: int, decision: int):
        out = super().__new__(cls, value)
        out.decision = decision
        return out


class LegalDiscrete(spaces.Discrete):
    """``Discrete`` whose ``sample()`` without a mask draws a legal action of the env's
    current decision (so ``env.action_space.sample()`` is always a valid move); ``contains``
    is the plain ``Discrete`` test.

    A sample is legal for the decision it was drawn for. Gymnasium's ``check_env`` draws one
    and then resets the env before stepping it; the env therefore takes a sample drawn for an
    earlier decision as "a random legal action" and maps it onto the current decision's
    legal actions (the same way every time). Any other illegal action is refused."""

    def __init__(self, n: int, legal_source=None, seed=None, decision_source=None):
        super().__init__(n, seed=seed)
        self.legal_source = legal_source
        self.decision_source = decision_source

    def sample(self, mask=None, probability=None):
        """A random legal action of the environment's current decision when called without ``mask``
        or ``probability`` (a ``SampledAction`` that remembers the decision); otherwise, or when
        the env has no legal action now, ``Discrete.sample``."""
        if mask is None and probability is None and self.legal_source is not None:
            legal = self.legal_source()
            if legal.any():
                a = super().sample(mask=legal.astype(np.int8))
                return SampledAction(int(a), self.decision_source())
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        # Saved or copied, it is a plain Discrete: the env it samples from does not travel.
        state = dict(self.__dict__)
        state["legal_source"] = None
        state["decision_source"] = None
        return state


def observation_space(k: games.Game, mode: str, mask_in_observation: bool) -> spaces.Space:
    """Dict of the named pieces (each piece once), or the flat vector Box. The legal mask
    is in ``info["action_mask"]``; ``mask_in_observation`` adds it to the dict, as bools
    like in ``info``."""
    spec = k.observer.SPEC
    low, high = spec.low_high()
    if mode == "vector":
        return spaces.Box(low, high, dtype=np.float32)
    pieces = {p.name: spaces.Box(p.low, p.high, shape=(p.size,), dtype=np.float32)
              for p in spec.pieces}
    if mask_in_observation:
        pieces["action_mask"] = spaces.Box(0, 1, shape=(k.num_actions,), dtype=np.bool_)
    return spaces.Dict(pieces)


class CardGameEnv(gym.Env):
    """Base class: see DebertzEnv / BarbuEnv for the card of each game."""

    GAME = ""
    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, *, rules=None, seat: int | str = 0, control: str = "seat",
                 opponents: Any = None, episode: str = "deal",
                 reward_scale: float = REWARD_SCALE, win_reward: float = 0.0,
                 observation_mode: str = "dict", mask_in_observation: bool = False,
                 render_mode: str | None = None, **conventions):
        self.kit = games.get(self.GAME)
        self.rules = self.kit.make_rules(rules, conventions)
        self.R = self.rules.pack()
        self.n_players = self.kit.players(self.rules)
        if episode not in ("deal", "game"):
            raise InvalidConfigError(f"episode must be 'deal' or 'game', got {episode!r}")
        if observation_mode not in ("dict", "vector"):
            raise InvalidConfigError(
                f"observation_mode must be 'dict' or 'vector', got {observation_mode!r}")
        if type(mask_in_observation) is not bool or (mask_in_observation
                                                      and observation_mode == "vector"):
            raise InvalidConfigError(
                f"mask_in_observation must be true or false, and true only with "
                f"observation_mode='dict'; got {mask_in_observation!r} with "
                f"{observation_mode!r} (the mask is always in info['action_mask'])")
        if control not in ("seat", "side"):
            raise InvalidConfigError(f"control must be 'seat' or 'side', got {control!r}")
        if not (seat == "random" or (type(seat) is int and 0 <= seat < self.n_players)):
            raise InvalidConfigError(
                f"seat must be 'random' or a seat 0..{self.n_players - 1}, got {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.seat_option = seat
        self.control = control
        self.episode = episode
        self.whole_game = int(episode == "game")
        self.reward_scale = float(reward_scale)
        self.win_reward = float(win_reward)
        self.observation_mode = observation_mode
        self.mask_in_observation = mask_in_observation
        self.render_mode = render_mode
        self._opponents = self._parse_opponents(opponents)
        self._policies = policy_set_of(self._opponents.values())
        self._params = params_rows([self._opponents.get(s) for s in range(4)])
        self.observation_space = observation_space(self.kit, observation_mode,
                                                   mask_in_observation)
        self._decision = 0  # counts the learner's decisions (see LegalDiscrete)
        self.action_space = LegalDiscrete(self.kit.num_actions, self.action_masks,
                                          decision_source=lambda: self._decision)
        L = self.kit.layout
        self._states = np.zeros((1, L.STATE_WIDTH), dtype=np.int64)
        self._st = self._states[0]
        self._obs = np.zeros(self.kit.observer.OBS_SIZE, dtype=np.float32)
        self._legal = np.zeros(self.kit.num_actions, dtype=np.uint8)
        self._rewards = np.zeros(4, dtype=np.float64)
        self._rng = np.zeros(1, dtype=np.uint64)
        self._status = EPISODE_END
        self._started = False
        self._engine_seed = 0
        self._game_id = 0
        self.seat = 0 if seat == "random" else seat
        self._kinds_seat = -1  # the seat _learners and _kinds were worked out for

    # --- set-up ---------------------------------------------------------------------------
    def _parse_opponents(self, opponents) -> dict[int, Any]:
        """Seat -> opponent agent; seats left out play at random inside the engine."""
        n = self.n_players
        if opponents is None or opponents == "random":
            return {}
        if isinstance(opponents, Mapping) and "name" not in opponents:
            bad = [s for s in opponents if type(s) is not int or not 0 <= s < n]
            if bad:
                raise InvalidConfigError(f"opponents keys must be seats 0..{n - 1}, got {bad[0]!r}")
            chosen = dict(opponents)
        elif isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != n:
                raise InvalidConfigError(
                    f"opponents as a list needs one entry per seat ({n}), got {len(opponents)}")
            chosen = dict(enumerate(opponents))
        elif isinstance(opponents, (str, Mapping)) or hasattr(opponents, "act") \
                or callable(opponents):
            chosen = {s: opponents for s in range(n)}
        else:
            raise InvalidConfigError(
                f"opponents must be None, an agent or agent spec, a list per seat or a dict "
                f"seat -> agent; got {opponents!r}")
        out = {}
        resolved: dict[int, Any] = {}
        for s, a in chosen.items():
            if a is None or a == "random":
                continue
            if isinstance(a, (str, Mapping)):  # one agent object per distinct spec
                key = id(a) if isinstance(a, Mapping) else a
                a = resolved.setdefault(key, resolve_agent(a, self.GAME))
            if not (is_compiled(a) or hasattr(a, "act") or callable(a)):
                raise InvalidConfigError(f"opponent {a!r} has no act() method and is not "
                                         f"callable")
            if is_compiled(a) and int(a.kind) == RANDOM:
                continue  # the engine's own random policy, drawing the same way
            out[s] = a
        check_agent_rules(out.values(), self.rules)
        return out

    @property
    def learner_seats(self) -> tuple[int, ...]:
        """Seats the learner decides for: its seat, or both seats of its side."""
        if self.control == "side":
            side = self.kit.side_of(self.rules, self.seat)
            return tuple(s for s in range(self.n_players)
                         if self.kit.side_of(self.rules, s) == side)
        return (self.seat,)

    def _seat_kinds(self) -> tuple[int, np.ndarray]:
        """The learner seats as a bit mask, and each seat's policy kind for the compiled
        step: learner seats and Python opponents stop it (PYTHON), compiled opponents have
        their kind, the others play at random."""
        learners = sum(1 << s for s in self.learner_seats)
        kinds = np.full(4, RANDOM, dtype=np.int64)
        for s, a in self._opponents.items():
            kinds[s] = int(a.kind) if is_compiled(a) else PYTHON
        for s in self.learner_seats:
            kinds[s] = PYTHON
        return learners, kinds

    # --- Gymnasium API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start an episode. With a seed (or the first time): a new run of games from that
        seed. Without: the next episode — the next deal of the current game ("deal"
        episodes), or a new game (also when the current episode has not ended)."""
        super().reset(seed=seed)
        fresh = seed is not None or not self._started
        if fresh:
            self._engine_seed = int(self.np_random.integers(0, 2**62))
            self._rng[0] = np.uint64(int(self.np_random.integers(0, 2**63)))
            self._game_id = 0
            self._started = True
            for agent in {id(a): a for a in self._opponents.values()}.values():
                if hasattr(agent, "reset"):
                    agent.reset(int(self.np_random.integers(0, 2**31)))
        # An episode left before its end restarts with a new game (its deal cannot go on).
        fresh = fresh or self._status != EPISODE_END
        status = EPISODE_END
        while status == EPISODE_END:
            started = self._kernel("begin_episode")(self.kit.tag, self._st, self.R,
                                                    self._engine_seed, self._game_id,
                                                    self.whole_game, fresh)
            fresh = False
            if started:
                self._game_id += 1
                if self.seat_option == "random":
                    self.seat = int(self.np_random.integers(0, self.n_players))
            self._rewards[:] = 0.0
            status = self._advance(-1)
        self._status = status
        self._decision += 1
        return self._observation(), self._info()

    def step(self, action):
        """Play the learner's ``action`` (an integer id; a one-element array counts as its
        element), then let the opponents play until the learner is to act again or the episode
        ends. Returns ``(observation, reward, terminated, truncated, info)``: the reward is the
        learner's recorded points (Debertz D9) or deal score (Barbu B7.3) of the deals scored
        meanwhile, times ``reward_scale``, plus ``win_reward`` when a whole game ends won;
        ``truncated`` is always False. Raises ``IllegalActionError`` listing the legal actions for
        an illegal action, or once the episode has ended."""
        if self._status != LEARNER:
            raise IllegalActionError("the episode has ended: call reset() before step()")
        a = action_id(action)
        if isinstance(action, SampledAction) and action.decision != self._decision \
                and not (0 <= a < self.kit.num_actions and self._legal[a]):
            legal = np.flatnonzero(self._legal)  # a sample of an earlier decision: see
            a = int(legal[a % len(legal)])        # LegalDiscrete
        if not (0 <= a < self.kit.num_actions and self._legal[a]):
            raise IllegalActionError(
                f"action {a} is not legal for seat {self.kit.turn(self._st)} in phase "
                f"{self.kit.phase_name(self._st)}; legal actions: "
                f"{self.kit.legal_names(self._legal)}")
        self._rewards[:] = 0.0
        self._status = self._advance(a)
        self._decision += 1
        terminated = self._status == EPISODE_END
        reward = float(self._rewards[self.seat]) * self.reward_scale
        if terminated and self.win_reward and self.kit.is_game_over(self._st):
            if self.seat in self.kit.winning_seats(self.rules, self._st):
                reward += self.win_reward
        return self._observation(), reward, terminated, False, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions as booleans (sb3-contrib MaskablePPO convention)."""
        return self._legal.astype(bool)

    def render(self):
        """``"ansi"``: the seat of the observation (its hand), the trick, trump or contract,
        the scores and the legal actions, as text lines."""
        if self.render_mode != "ansi":
            return None
        st = self._st
        seat = self._observed_seat()
        lines = [f"{self.GAME} phase {self.kit.phase_name(st)}, seat to act "
                 f"{self.kit.turn(st)}, learner seat {self.seat}"]
        lines += self.kit.describe_state(self.rules, st, seat)
        lines.append(f"legal: {self.kit.legal_names(self._legal)}")
        return "\n".join(lines) + "\n"

    # --- internals ------------------------------------------------------------------------
    def _kernel(self, name: str):
        """The compiled kernel ``name`` of kernels_nb, bound to this env's argument types
        (cardsim.jit.bind: no argument typing per call)."""
        bound = self.__dict__.setdefault("_bound", {})
        if name not in bound:
            learners, kinds = self._seat_kinds()
            args = {"begin_episode": (self.kit.tag, self._st, self.R, 0, 0, 0, True),
                    "apply_and_advance": (self.kit.tag, self._policies, self._st, self.R,
                                          self._rng, -1, K.Players(kinds, self._params, learners),
                                          self.whole_game, self._seen(), 0)}[name]
            with compiling(f"the {self.kit.title} environment"):
                bound[name] = bind(getattr(K, name), *args)
        return bound[name]

    def _seen(self) -> K.Seen:
        """The buffers a step writes for the seat to act."""
        return K.Seen(self._obs, self._legal, self._rewards)

    def _advance(self, action: int) -> int:
        """Apply ``action`` (-1: none), then run the other seats until the learner acts or
        the episode ends: compiled opponents inside the compiled step, Python opponents
        asked here."""
        if self._kinds_seat != self.seat:  # the arguments around the action, built once
            learners, kinds = self._seat_kinds()
            self._call_head = (self.kit.tag, self._policies, self._st, self.R, self._rng)
            self._call_tail = (K.Players(kinds, self._params, learners), self.whole_game,
                               self._seen(), self.seat)
            self._kinds_seat = self.seat
        advance = self._kernel("apply_and_advance")
        args, rest = self._call_head, self._call_tail
        status = advance(*args, action, *rest)
        while status == EXTERNAL:
            seat = self.kit.turn(self._st)
            agent = self._opponents[seat]
            a = opponent_action(agent, self.kit, self._states, self.R, self._rng, self._obs,
                                self._legal)
            if not (0 <= a < self.kit.num_actions and self._legal[a]):
                raise IllegalActionError(
                    f"opponent {agent_label(agent)!r} at seat {seat} chose action {a}, which "
                    f"is not legal; legal actions: {self.kit.legal_names(self._legal)}")
            status = advance(*args, a, *rest)
        return status

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_bound", None)  # compiled entry points are bound again when needed
        return state

    def _observation(self):
        vec = self._obs.copy()
        if self.observation_mode == "vector":
            return vec
        obs = self.kit.observer.SPEC.pieces_of(vec)
        if self.mask_in_observation:
            obs["action_mask"] = self._legal.astype(bool)
        return obs

    def _observed_seat(self) -> int:
        """The seat the observation is of: the learner seat to act, or at the end of an
        episode the learner's seat (whose reward the last step gave)."""
        return self.kit.turn(self._st) if self._status == LEARNER else self.seat

    def _info(self) -> dict:
        return {"action_mask": self._legal.astype(bool), "seat": self._observed_seat(),
                "learner_seat": self.seat}

    @property
    def state(self) -> np.ndarray:
        """The engine state row (read it, do not write it)."""
        return self._st
