"""What the trainer (experiments.train.loop) asks of a training algorithm, written once: its
``name``, whether its network has a value head, its network, arguments, device and Adam
optimizer, and the hooks ``extra_shape`` and ``warm_up`` with their common defaults. Each
algorithm (``dmc``, ``distill``, ``ppo``, ``beliefs``) adds ``iteration``."""

from __future__ import annotations

import torch


class Learner:
    """A training algorithm's learner: its network, optimizer and one iteration of play and
    learning (``iteration(batch, first_step, buffer, steps, rng, pool)``, in the subclass)."""

    name = ""
    value_head = False  # whether the network has a value head (PPO's critic)

    def __init__(self, net, args, device: torch.device):
        self.net, self.args, self.device = net, args, device
        self.optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)

    def descend(self, loss: torch.Tensor) -> float:
        """One gradient step on ``loss``, the gradient's norm clipped to ``max_grad_norm``;
        returns the loss (before the step)."""
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.args.max_grad_norm)
        self.optimizer.step()
        return loss.item()

    @staticmethod
    def extra_shape(num_actions: int) -> tuple:
        """The shape of what a decision keeps besides its action and return (nothing)."""
        return ()

    def warm_up(self, batch, step) -> None:
        """Compile what an iteration runs, before it is timed (the batch's kernel was
        compiled by the reset that made ``step``): nothing more by default."""
