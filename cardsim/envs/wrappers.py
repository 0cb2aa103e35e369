"""Opt-in wrappers for the single-agent environments."""

from __future__ import annotations

import gymnasium as gym
import numpy as np


class IllegalActionPenalty(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """"An illegal action loses": instead of raising ``IllegalActionError``, an illegal action
    ends the episode with reward ``penalty`` (the state does not change; the observation
    returned is the last one, and ``info["illegal_action"]`` is True)."""

    def __init__(self, env: gym.Env, penalty: float = -1.0):
        gym.utils.RecordConstructorArgs.__init__(self, penalty=penalty)
        gym.Wrapper.__init__(self, env)
        self.penalty = float(penalty)
        self._last_obs = None
        self._last_info: dict = {}

    def reset(self, **kwargs):
        """Reset the wrapped environment (keywords as its ``reset``), keeping the observation and
        info to return after an illegal action."""
        obs, info = self.env.reset(**kwargs)
        self._last_obs, self._last_info = obs, info
        return obs, info

    def step(self, action):
        """Step the wrapped environment with a legal ``action``; an illegal one (or one that is not
        an action id) instead ends the episode with reward ``penalty``, the last observation, and
        ``info["illegal_action"] = True``."""
        mask = self.env.unwrapped.action_masks()
        try:
            a = int(np.asarray(action).reshape(-1)[0])
        except (TypeError, ValueError, IndexError):
            a = -1
        if not (0 <= a < mask.shape[0] and mask[a]):
            info = dict(self._last_info)
            info["illegal_action"] = True
            return self._last_obs, self.penalty, True, False, info
        obs, reward, terminated, truncated, info = self.env.step(a)
        self._last_obs, self._last_info = obs, info
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The wrapped environment's legal actions (``action_masks()``, the MaskablePPO
        convention)."""
        return self.env.unwrapped.action_masks()
