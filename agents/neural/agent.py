"""The ``neural`` agent: plays the greedy action of a trained network.

``neural:checkpoint=PATH`` loads a checkpoint written by ``cardsim train`` (see
``agents.neural.checkpoint``), ``neural:checkpoint=RUN_DIR`` the latest checkpoint of a
training run directory, ``neural:checkpoint=NAME`` one shipped with the package
(``agents.neural.shipped``), and decides, for a batch of observations, the legal action with
the highest output (Q value for DMC, logit for PPO). On the CPU the forward is a compiled
kernel (``agents.neural.forward_nb``: a sixth of torch's cost or less for one game, and the
same choice whatever the batch), with the weights the network has when the agent is made; a
network on a GPU plays by one torch forward over the batch. Where it is
seated for a rules variant (the table, the environments), ``check_rules`` refuses a
checkpoint trained for other rules.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import torch

from agents.base import Agent
from agents.neural.checkpoint import check_rules, load_checkpoint
from agents.neural.forward_nb import greedy_actions, pack_weights
from agents.neural.network import masked
from agents.neural.shipped import checkpoint_path, playing_names
from cardsim import games
from cardsim.games import GAMES
from cardsim.errors import InvalidConfigError


class NeuralAgent(Agent):
    """A trained network (checkpoint=PATH from cardsim train): the legal action it rates best."""

    name = "neural"
    games = GAMES
    OPTIONS: ClassVar[dict] = {}
    OPTION_HELP: ClassVar[dict[str, str]] = {
        "checkpoint": f"a shipped checkpoint's name ({', '.join(playing_names())}), the "
                      "path of a checkpoint file written by cardsim train, or a training "
                      "run directory (its checkpoints/latest.pt) (required)"}

    def __init__(self, game: str, options: dict | None = None, *, net=None, label=None):
        super().__init__(game)
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.OPTION_HELP))
        if unknown:
            raise InvalidConfigError(f"agent 'neural' has no option {unknown[0]!r}; its "
                                     f"options: checkpoint")
        if net is None:
            path = options.get("checkpoint")
            if not isinstance(path, str) or not path:
                raise InvalidConfigError("agent 'neural' needs checkpoint=PATH (a file "
                                         "written by cardsim train)")
            self._data = load_checkpoint(checkpoint_path(path), game=game)
            if self._data.get("algorithm") == "beliefs":
                raise InvalidConfigError(f"checkpoint {path} is a belief network, which does "
                                         f"not play: seat it as pimc:beliefs={path}")
            net = self._data["net"]
            self.path = path
            self._label = label or f"neural:{path}"
        else:  # a network in memory (evaluation during training)
            self._data, self.path = None, None
            self._label = label or "neural"
        if net.obs_size != games.get(game).obs_size:
            raise InvalidConfigError(f"network observes {net.obs_size} values; {game} "
                                     f"observations have {games.get(game).obs_size}")
        self.net = net
        self.device = next(net.parameters()).device
        self._packed = pack_weights(net.layer_arrays()) if self.device.type == "cpu" else None

    def _default_label(self) -> str:
        return self._label

    def check_rules(self, rules) -> None:
        """Refuse to play a rules variant the checkpoint was not trained for."""
        if self._data is not None:
            check_rules(self._data, rules, self.path)

    def act(self, observations, legal_masks) -> np.ndarray:
        """The greedy action of each row: the legal action with the highest network output, for
        the batch ``observations`` ``(n, OBS_SIZE)``, ``legal_masks`` ``(n, NUM_ACTIONS)``
        bool; returns an int64 array ``(n,)``."""
        if self._packed is not None:
            return greedy_actions(np.ascontiguousarray(observations, dtype=np.float32),
                                  np.ascontiguousarray(legal_masks, dtype=np.bool_),
                                  *self._packed)
        return self._torch_act(observations, legal_masks)

    @torch.no_grad()
    def _torch_act(self, observations, legal_masks) -> np.ndarray:
        """``act`` by one torch forward over the batch, on the network's device."""
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32), device=self.device)
        legal = torch.as_tensor(np.asarray(legal_masks, dtype=np.bool_), device=self.device)
        return masked(self.net(obs), legal).argmax(dim=1).cpu().numpy()
