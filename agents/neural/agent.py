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

``prior=heuristic`` (any compiled agent's name) makes the network the critic of that agent's
play, as ``pimc`` is of the heuristic's (its ``margin``): the prior's action is played unless
the network's best action is rated more than ``margin`` points above it (value networks,
whose outputs are ``REWARD_SCALE`` x points: ``dmc`` and ``distill`` checkpoints). Where the
network's values barely separate the actions, as in the trick-counting contracts of Barbu,
its near-ties no longer decide the play; where they do separate them, the network decides.
In Barbu ``margin_CONTRACT=M`` sets the margin of one contract (``margin_no_tricks=6``):
the contracts differ in how well the network separates the cards.
The prior reads the engine rows behind the table's observations, as a compiled agent called
from Python does (only what its seat may know), so it needs a table's ``Observations``.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import torch

from agents.base import Agent
from agents.neural.checkpoint import check_rules, load_checkpoint
from agents.neural.forward_nb import (
    contracts_in_play,
    greedy_actions,
    greedy_over_prior,
    pack_weights,
)
from agents.neural.network import masked
from agents.neural.shipped import checkpoint_path, playing_names
from cardsim import games
from cardsim.games import GAMES
from cardsim.envs.defaults import REWARD_SCALE
from cardsim.errors import InvalidConfigError
from cardsim.jit import Rebound

VALUE_ALGORITHMS = ("dmc", "distill")  # checkpoints whose outputs are values (points)


class NeuralAgent(Agent):
    """A trained network (checkpoint=PATH from cardsim train): the legal action it rates best."""

    name = "neural"
    games = GAMES
    OPTIONS: ClassVar[dict] = {}
    OPTION_HELP: ClassVar[dict[str, str]] = {
        "checkpoint": f"a shipped checkpoint's name ({', '.join(playing_names())}), the "
                      "path of a checkpoint file written by cardsim train, or a training "
                      "run directory (its checkpoints/latest.pt) (required)",
        "prior": "a compiled agent (heuristic) whose action is played unless the network "
                 "rates its own best action more than margin points above it (value "
                 "networks: dmc, distill)",
        "margin": "points by which the network's best action must beat the prior's "
                  "(with prior; default 0)",
        "margin_CONTRACT": "Barbu: the margin in one contract (margin_no_tricks=3, "
                           "margin_trumps=3, ...); margin in the others and before the "
                           "contract is chosen"}

    def __init__(self, game: str, options: dict | None = None, *, net=None, label=None,
                 prior=None):
        super().__init__(game)
        options = dict(options or {})
        allowed = [k for k in self.OPTION_HELP if k != "margin_CONTRACT"]
        allowed += [f"margin_{c}" for c in games.get(game).item_labels]
        unknown = sorted(set(options) - set(allowed))
        if unknown:
            raise InvalidConfigError(f"agent 'neural' has no option {unknown[0]!r}; its "
                                     f"options for {game}: {', '.join(allowed)}")
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
        self.prior, self.margins = self._prior(options, prior)
        # the compiled call without numba typing the agent's tags and weights each time
        self._greedy_nb = Rebound(greedy_actions, varying=(0, 1))
        self._over_prior_nb = Rebound(greedy_over_prior, varying=(2, 3, 6, 7, 8, 9))

    def _prior(self, options: dict, prior):
        """The prior agent (made from ``options["prior"]`` by ``agents.registry``) and the
        margins in the network's units, float32: ``[0]`` where no contract is in play,
        ``[1 + c]`` in contract ``c`` (``greedy_over_prior``); or (None, None)."""
        from cardsim.table import is_compiled

        margin_keys = sorted(k for k in options if k.startswith("margin"))
        if margin_keys and "prior" not in options:
            raise InvalidConfigError(f"agent 'neural': {margin_keys[0]} needs prior=AGENT "
                                     f"(e.g. prior=heuristic)")
        if "prior" not in options:
            return None, None
        algorithm = self._data.get("algorithm") if self._data is not None else None
        if algorithm not in VALUE_ALGORITHMS:
            raise InvalidConfigError(
                f"agent 'neural': prior needs a value network ({', '.join(VALUE_ALGORITHMS)} "
                f"checkpoints); {self.path} was trained by {algorithm!r}")
        for key in margin_keys:
            margin = options[key]
            if (isinstance(margin, bool) or not isinstance(margin, (int, float))
                    or not 0 <= margin < float("inf")):
                raise InvalidConfigError(f"agent 'neural': {key} must be a number of points "
                                         f">= 0, got {margin!r}")
        spec = options["prior"]
        if prior is None or not is_compiled(prior):
            raise InvalidConfigError(f"agent 'neural': prior must name a compiled agent of "
                                     f"{self.game} (e.g. heuristic), got {spec!r}")
        contracts = games.get(self.game).item_labels
        margin = options.get("margin", 0)
        points = [margin] + [options.get(f"margin_{c}", margin) for c in contracts]
        self._label += f",prior={spec},margin={margin:g}" + "".join(
            f",margin_{c}={options[f'margin_{c}']:g}" for c in contracts
            if f"margin_{c}" in options)
        return prior, np.array(points, dtype=np.float32) * np.float32(REWARD_SCALE)

    def reset(self, seed: int) -> None:
        """Seed the prior's generator, where there is one (the network is deterministic)."""
        super().reset(seed)
        if self.prior is not None:
            self.prior.reset(seed)

    def _default_label(self) -> str:
        return self._label

    def check_rules(self, rules) -> None:
        """Refuse to play a rules variant the checkpoint was not trained for."""
        if self._data is not None:
            check_rules(self._data, rules, self.path)

    def act(self, observations, legal_masks) -> np.ndarray:
        """The greedy action of each row: the legal action with the highest network output, for
        the batch ``observations`` ``(n, OBS_SIZE)``, ``legal_masks`` ``(n, NUM_ACTIONS)``
        bool; returns an int64 array ``(n,)``. With a prior, the prior's action unless the
        network's best beats it by the margin."""
        if self.prior is not None:
            return self._over_prior(observations, legal_masks)
        if self._packed is not None:
            return self._greedy_nb(np.ascontiguousarray(observations, dtype=np.float32),
                                   np.ascontiguousarray(legal_masks, dtype=np.bool_),
                                   *self._packed)
        return self._torch_act(observations, legal_masks)

    @torch.no_grad()
    def _torch_act(self, observations, legal_masks) -> np.ndarray:
        """``act`` by one torch forward over the batch, on the network's device."""
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32), device=self.device)
        legal = torch.as_tensor(np.asarray(legal_masks, dtype=np.bool_), device=self.device)
        return masked(self.net(obs), legal).argmax(dim=1).cpu().numpy()

    def _over_prior(self, observations, legal_masks) -> np.ndarray:
        """``act`` with a prior: its actions from the engine rows behind the observations."""
        if getattr(observations, "engine", None) is None:
            raise InvalidConfigError(
                f"agent {self.label!r} keeps its prior's actions, which read the engine rows "
                f"behind a table's observations; these observations carry none (seat it "
                f"at a table: cardsim tournament, simulate, the environments' opponents)")
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        legal = np.ascontiguousarray(legal_masks, dtype=np.bool_)
        if self._packed is not None:
            e, p = observations.engine, self.prior
            return self._over_prior_nb(e.game, p.policies, e.states, e.R, p.kind, p.params,
                                       e.rng, np.ascontiguousarray(e.rows, dtype=np.int64),
                                       obs, legal, self.margins, *self._packed)
        prior = np.asarray(self.prior.act(observations, legal_masks), dtype=np.int64)
        e = observations.engine
        contracts = contracts_in_play(e.game, e.states, np.ascontiguousarray(e.rows,
                                                                             dtype=np.int64))
        margin = torch.as_tensor(self.margins[contracts + 1], device=self.device)
        with torch.no_grad():
            q = self.net(torch.as_tensor(obs, device=self.device))
            best = masked(q, torch.as_tensor(legal, device=self.device)).argmax(dim=1)
            kept = torch.as_tensor(prior, device=self.device)
            rows = torch.arange(len(q), device=self.device)
            better = q[rows, best] > q[rows, kept] + margin
        return torch.where(better, best, kept).cpu().numpy()
