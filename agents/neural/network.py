"""The network of the neural agents: an MLP over the observation vector with a head over
every action id.

DouZero scores each legal action as its own (state, action) row. Here the action's features
are a learned embedding per action id, and Q(s, a) = <trunk(s), embedding[a]> + bias[a]:
that is one linear layer over the trunk's output, so one forward scores every action of a
whole batch of decisions (about 8x cheaper than a row per legal action, which matters for
self-play throughput on CPU; see docs/architecture.md, neural budget). Illegal actions are
masked by the caller.

The same network serves both algorithms: its action outputs are Q values for DMC and
policy logits for PPO; PPO adds a state-value head (``value_head=True``).
"""

from __future__ import annotations

import torch
from torch import nn


class ActionHeadNet(nn.Module):
    """``forward(obs) -> (n, num_actions)`` action outputs; ``forward_with_value(obs)`` adds
    the state values ``(n,)`` with a value head. ``hidden``: widths of the trunk's layers
    (ReLU after each)."""

    def __init__(self, obs_size: int, num_actions: int, hidden=(256, 256, 256),
                 value_head: bool = False):
        super().__init__()
        layers: list[nn.Module] = []
        width = obs_size
        for h in hidden:
            layers += [nn.Linear(width, int(h)), nn.ReLU()]
            width = int(h)
        self.trunk = nn.Sequential(*layers)
        self.actions = nn.Linear(width, num_actions)
        self.value_out = nn.Linear(width, 1) if value_head else None
        self.obs_size, self.num_actions = obs_size, num_actions
        self.hidden = tuple(int(h) for h in hidden)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        """The action outputs ``(n, num_actions)`` of observations ``obs`` ``(n, obs_size)``: Q
        values (DMC) or logits (PPO), illegal actions unmasked. A wider observation (pieces
        appended since the network was made: agents.neural.checkpoint) is read up to
        ``obs_size``."""
        return self.actions(self.trunk(obs[..., :self.obs_size]))

    def forward_with_value(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The action outputs and the state values ``(n,)`` of ``obs`` in one pass of the trunk (a
        network with a value head: PPO)."""
        z = self.trunk(obs[..., :self.obs_size])
        return self.actions(z), self.value_out(z).squeeze(-1)

    def trunk_layers(self) -> list:
        """The trunk's linear layers, input side first (the ReLUs between them left out)."""
        return [m for m in self.trunk if isinstance(m, nn.Linear)]

    def layer_arrays(self) -> list:
        """The (weight, bias) numpy arrays of the trunk's layers and then the action head, each
        weight (outputs, inputs) as torch keeps it: what the compiled forward is packed from
        (``agents.neural.forward_nb.pack_weights``)."""
        linear = self.trunk_layers() + [self.actions]
        return [(m.weight.detach().cpu().numpy(), m.bias.detach().cpu().numpy()) for m in linear]

    def spec(self) -> dict:
        """What rebuilds this network (stored in checkpoints)."""
        return {"obs_size": self.obs_size, "num_actions": self.num_actions,
                "hidden": list(self.hidden), "value_head": self.value_out is not None}

    @classmethod
    def from_spec(cls, spec: dict) -> "ActionHeadNet":
        """A fresh network of the shape ``spec()`` describes (what a checkpoint stores beside the
        weights)."""
        return cls(spec["obs_size"], spec["num_actions"], spec["hidden"], spec["value_head"])


def grown(net: ActionHeadNet, hidden, obs_size: int | None = None) -> ActionHeadNet:
    """A larger network computing exactly what ``net`` computes: its layers widened to
    ``hidden`` and, where ``hidden`` is longer, identity layers appended at the end of the
    trunk; with ``obs_size``, reading an observation that wide (pieces appended since it was
    made: the old units read none of them, the new ones every input). It lets a run continue a
    trained network with more capacity or more inputs (``init``) instead of starting one from
    scratch.

    The old units keep their weights and read nothing from the new ones (zero weights); the
    new units get a fresh layer's random weights from every unit below, so they compute
    something from the start, and their weights into the old units above and into the heads
    are zero, so the outputs do not change. An appended layer copies the live units below
    through an identity (their outputs are ReLU's, never negative, so ReLU keeps them).
    Raises ``ValueError`` where ``hidden`` is not such a growth: fewer layers, a layer
    narrower than the one it grows, an appended layer narrower than the live units below, or
    a narrower observation.
    """
    obs_size = net.obs_size if obs_size is None else int(obs_size)
    if obs_size < net.obs_size:
        raise ValueError(f"an observation of {obs_size} values does not grow the network's "
                         f"{net.obs_size}")
    old = list(net.hidden)
    new = [int(h) for h in hidden]
    if len(new) < len(old) or any(n < o for n, o in zip(new, old)):
        raise ValueError(f"hidden {new} does not grow {old}: the same layers or more, each at "
                         f"least as wide as the one it grows")
    live = old[-1] if old else net.obs_size  # old units reaching the heads
    for i in range(len(old), len(new)):
        if new[i] < live:
            raise ValueError(f"hidden {new} does not grow {old}: an appended layer needs at "
                             f"least {live} units to carry the ones below, got {new[i]}")
    out = ActionHeadNet(obs_size, net.num_actions, new, value_head=net.value_out is not None)
    old_layers = net.trunk_layers()
    with torch.no_grad():
        k_in = net.obs_size  # live units of the layer below (the observation it was made for)
        for i, layer in enumerate(out.trunk_layers()):
            k_out = old[i] if i < len(old) else live
            layer.weight[:k_out].zero_()
            layer.bias[:k_out].zero_()
            if i < len(old):
                layer.weight[:k_out, :k_in] = old_layers[i].weight
                layer.bias[:k_out] = old_layers[i].bias
            else:
                layer.weight[:k_out, :k_in] = torch.eye(k_out, k_in)
            k_in = k_out
        for old_head, new_head in ((net.actions, out.actions), (net.value_out, out.value_out)):
            if old_head is None:
                continue
            new_head.weight.zero_()
            new_head.weight[:, :k_in] = old_head.weight
            new_head.bias[:] = old_head.bias
    return out


def masked(outputs: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Action outputs with illegal actions at -inf (argmax and softmax then skip them)."""
    return outputs.masked_fill(~legal, float("-inf"))
