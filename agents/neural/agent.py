"""The ``neural`` agent: plays the greedy action of a trained network.

``neural:checkpoint=PATH`` loads a checkpoint written by ``cardsim train`` (see
``agents.neural.checkpoint``), ``neural:checkpoint=RUN_DIR`` the latest checkpoint of a
training run directory, ``neural:checkpoint=NAME`` a network of the model zoo
(``agents.neural.zoo``), and decides, for a batch of observations, the legal action with
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
the contracts differ in how well the network separates the cards. ``checkpoint_CONTRACT=NAME``
seats another network of the same shape in one contract (a specialist trained on that
contract's decisions: ``other_weight: 0`` in training), ``checkpoint`` deciding the others
and the contract choice. The contract is the engine row's with a prior, else the
observation's contract piece (the same fact: the observation shows the contract in play).
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
    Critic,
    Prior,
    contracts_in_play,
    greedy_actions,
    greedy_over_prior,
    pack_weights,
)
from agents.neural.network import masked
from agents.neural.zoo import checkpoint_path, playing_names
from cardsim.games import GAMES
from cardsim.envs.defaults import REWARD_SCALE
from cardsim.errors import InvalidConfigError
from cardsim.jit import Rebound

VALUE_ALGORITHMS = ("dmc", "distill")  # checkpoints whose outputs are values (points)


def widths_of(net) -> list[int]:
    """A network's shape: its observation size, hidden widths and number of actions."""
    return [net.obs_size, *net.hidden, net.num_actions]


class NeuralAgent(Agent):
    """A trained network (checkpoint=PATH from cardsim train): the legal action it rates best."""

    name = "neural"
    games = GAMES
    OPTIONS: ClassVar[dict] = {}
    OPTION_HELP: ClassVar[dict[str, str]] = {
        "checkpoint": f"a model zoo network's name ({', '.join(playing_names())}), the "
                      "path of a checkpoint file written by cardsim train, or a training "
                      "run directory (its checkpoints/latest.pt) (required)",
        "prior": "a compiled agent (heuristic) whose action is played unless the network "
                 "rates its own best action more than margin points above it (value "
                 "networks: dmc, distill)",
        "margin": "points by which the network's best action must beat the prior's "
                  "(with prior; default 0)",
        "margin_CONTRACT": "Barbu: the margin in one contract (margin_no_tricks=3, "
                           "margin_trumps=3, ...); margin in the others and before the "
                           "contract is chosen",
        "checkpoint_CONTRACT": "Barbu: the network of one contract (checkpoint_no_tricks="
                               "NAME), of checkpoint's shape; checkpoint in the others "
                               "and for the contract choice"}

    def __init__(self, game: str, options: dict | None = None, *, net=None, label=None,
                 prior=None):
        super().__init__(game)
        options = dict(options or {})
        allowed = [k for k in self.OPTION_HELP if not k.endswith("_CONTRACT")]
        allowed += [f"{key}_{c}" for key in ("margin", "checkpoint")
                    for c in self.kit.item_labels]
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
        self._contract_data: list[tuple[dict, str]] = []  # checkpoint_CONTRACT's, loaded
        if net.obs_size > self.kit.obs_size:  # fewer: made before pieces were added
            raise InvalidConfigError(f"network observes {net.obs_size} values; {game} "
                                     f"observations have {self.kit.obs_size}")
        self.net = net
        self.device = next(net.parameters()).device
        self.nets, self.net_of = self._contract_networks(options)
        # where the observation shows the contract (the networks' choice without a prior;
        # only games with contracts have the piece, and only they can name a second network)
        self._contract_piece = (self.kit.tag.observer.SPEC.slice("contract")
                                if len(self.nets) > 1 else None)
        self._packed = self._pack() if self.device.type == "cpu" else None
        self.prior, self.margins = self._prior(options, prior)
        # the compiled call without numba typing the agent's tags and weights each time
        self._greedy_nb = Rebound(greedy_actions, varying=(0, 1))
        self._over_prior_nb = Rebound(greedy_over_prior, varying=(2, 3, 4, 5, 6, 7))
        self._critic_parts = None
        if self._packed is not None and self.prior is not None:
            p = self.prior
            self._critic_parts = (Prior(p.policies, p.kind, p.params),
                                  Critic(self.net_of, self.margins, *self._packed))

    def _contract_networks(self, options: dict):
        """The agent's networks (``checkpoint``'s first, then each other one that a
        ``checkpoint_CONTRACT`` names) and, int64, the network of each contract: ``[0]``
        where no contract is in play, ``[1 + c]`` in contract ``c``."""
        contracts = self.kit.item_labels
        nets, net_of, paths = [self.net], np.zeros(1 + len(contracts), dtype=np.int64), [None]
        for c, contract in enumerate(contracts):
            key = f"checkpoint_{contract}"
            if key not in options:
                continue
            path = options[key]
            if self._data is None or not isinstance(path, str) or not path:
                raise InvalidConfigError(f"agent 'neural': {key} needs a checkpoint's name or "
                                         f"path, and checkpoint=NAME for the other contracts; "
                                         f"got {path!r}")
            if path not in paths:
                data = load_checkpoint(checkpoint_path(path), game=self.game)
                theirs, ours = widths_of(data["net"]), widths_of(self.net)
                if data.get("algorithm") != self._data.get("algorithm") or theirs != ours:
                    raise InvalidConfigError(
                        f"agent 'neural': {key}={path} is a {data.get('algorithm')} network "
                        f"of layers {theirs}; it must be of the kind and shape of "
                        f"checkpoint={self.path} ({self._data.get('algorithm')}, {ours})")
                self._contract_data.append((data, path))
                nets.append(data["net"])
                paths.append(path)
            net_of[1 + c] = paths.index(path)
            self._label += f",{key}={path}"
        return nets, net_of

    def _pack(self):
        """The compiled kernels' weights: each network's flat weights and biases
        (``pack_weights``) as the rows of two arrays, and their common widths."""
        packed = [pack_weights(net.layer_arrays()) for net in self.nets]
        return (np.ascontiguousarray(np.stack([w for w, _, _ in packed])),
                np.ascontiguousarray(np.stack([b for _, b, _ in packed])), packed[0][2])

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
        contracts = self.kit.item_labels
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
        for data, path in self._contract_data:
            check_rules(data, rules, path)

    def act(self, observations, legal_masks) -> np.ndarray:
        """The greedy action of each row: the legal action with the highest network output, for
        the batch ``observations`` ``(n, OBS_SIZE)``, ``legal_masks`` ``(n, NUM_ACTIONS)``
        bool; returns an int64 array ``(n,)``. With a prior, the prior's action unless the
        network's best beats it by the margin."""
        if self.prior is not None:
            return self._over_prior(observations, legal_masks)
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        legal = np.ascontiguousarray(legal_masks, dtype=np.bool_)
        which = self._observed_networks(obs)
        if self._packed is None:
            return self._torch_act(obs, legal, which)
        weights, biases, widths = self._packed
        if which is None:
            return self._greedy_nb(obs, legal, weights[0], biases[0], widths)
        out = np.empty(len(obs), dtype=np.int64)
        for k in np.unique(which):
            rows = which == k
            out[rows] = self._greedy_nb(obs[rows], legal[rows], weights[k], biases[k], widths)
        return out

    def packed_single(self):
        """``(weights, biases, widths)`` of the compiled forward where the agent is one network
        on the CPU without a prior (its ``act`` is then ``greedy_actions`` with them), else
        None."""
        if self._packed is None or len(self.nets) > 1 or self.prior is not None:
            return None
        weights, biases, widths = self._packed
        return weights[0], biases[0], widths

    def critic_parts(self):
        """``greedy_over_prior``'s arguments that are the agent's own, ``(Prior, Critic)``,
        where it is the critic of a prior with compiled forwards (its ``act`` is then that
        kernel with them), else None."""
        return self._critic_parts

    def _observed_networks(self, obs: np.ndarray):
        """The network of each row by the contract its observation shows (``net_of``); None
        where the agent has one network."""
        if len(self.nets) == 1:
            return None
        piece = obs[:, self._contract_piece]
        shown = piece.max(axis=1) > 0
        return self.net_of[np.where(shown, piece.argmax(axis=1) + 1, 0)]

    @torch.no_grad()
    def _values(self, obs: torch.Tensor, which) -> torch.Tensor:
        """The outputs for ``obs`` on the network's device, row ``i`` by network
        ``which[i]`` (None: the one network)."""
        if which is None:
            return self.nets[0](obs)
        q = torch.empty((len(obs), self.net.num_actions), device=self.device)
        for k in np.unique(which):
            rows = torch.as_tensor(which == k, device=self.device)
            q[rows] = self.nets[k](obs[rows])
        return q

    @torch.no_grad()
    def _torch_act(self, obs, legal, which) -> np.ndarray:
        """``act`` by one torch forward over the batch (one per network), on the network's
        device."""
        q = self._values(torch.as_tensor(obs, device=self.device), which)
        legal = torch.as_tensor(legal, device=self.device)
        return masked(q, legal).argmax(dim=1).cpu().numpy()

    def _over_prior(self, observations, legal_masks) -> np.ndarray:
        """``act`` with a prior: its actions from the engine rows behind the observations."""
        if getattr(observations, "engine", None) is None:
            raise InvalidConfigError(
                f"agent {self.label!r} keeps its prior's actions, which read the engine rows "
                f"behind a table's observations; these observations carry none (seat it "
                f"at a table: cardsim tournament, simulate, the environments' opponents)")
        obs = np.ascontiguousarray(observations, dtype=np.float32)
        legal = np.ascontiguousarray(legal_masks, dtype=np.bool_)
        if self._critic_parts is not None:
            e = observations.engine
            prior, critic = self._critic_parts
            return self._over_prior_nb(e.game, prior, e.states, e.R, e.rng,
                                       np.ascontiguousarray(e.rows, dtype=np.int64), obs, legal,
                                       critic)
        prior = np.asarray(self.prior.act(observations, legal_masks), dtype=np.int64)
        e = observations.engine
        contracts = contracts_in_play(e.game, e.states, np.ascontiguousarray(e.rows,
                                                                             dtype=np.int64))
        margin = torch.as_tensor(self.margins[contracts + 1], device=self.device)
        which = self.net_of[contracts + 1] if len(self.nets) > 1 else None
        with torch.no_grad():
            q = self._values(torch.as_tensor(obs, device=self.device), which)
            best = masked(q, torch.as_tensor(legal, device=self.device)).argmax(dim=1)
            kept = torch.as_tensor(prior, device=self.device)
            rows = torch.arange(len(q), device=self.device)
            better = q[rows, best] > q[rows, kept] + margin
        return torch.where(better, best, kept).cpu().numpy()
