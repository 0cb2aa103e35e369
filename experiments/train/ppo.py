"""PPO with action masks on batched self-play.

One network with two heads (``ActionHeadNet(value_head=True)``): masked logits over the
action ids (illegal actions get probability 0) and a state value. Every seat the batch
leaves to the learner samples from the current policy (one forward per decision step for
the whole batch); each decision of a deal that ends becomes a sample with its log-probability
and its return G (what the deciding seat scored in the deal). Rewards come only at deal
ends, so the advantage is the Monte Carlo one, G - V(s) (GAE with lambda = 1 and no
discount), normalised per minibatch. After the iteration's self-play, ``epochs`` passes over
the samples in minibatches minimise the clipped surrogate, plus ``value_coef`` x the value
error, minus ``entropy_coef`` x the masked policy's entropy.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.nn import functional as F

from agents.neural.network import masked
from experiments.train.arguments import PPOArgs
from experiments.train.episodes import EpisodeBuffer, Samples, concat, play_steps
from experiments.train.learner import Learner


def masked_log_probs(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Log-probabilities of the masked policy (-inf on illegal actions)."""
    return torch.log_softmax(masked(logits, legal), dim=1)


class PPO(Learner):
    """The learner: its network, optimizer and one iteration of self-play and learning (each
    decision keeps its action's log-probability, a scalar: ``extra_shape`` ())."""

    name = "ppo"
    value_head = True
    args: PPOArgs

    @torch.no_grad()
    def choose(self, obs: np.ndarray, legal: np.ndarray, rng: np.random.Generator):
        """Actions sampled from the masked policy (Gumbel-max on the CPU generator, so a
        run does not depend on the device's random numbers), and their log-probabilities."""
        logp = masked_log_probs(self.net(torch.from_numpy(obs).to(self.device)),
                                torch.from_numpy(legal).to(self.device)).cpu().numpy()
        gumbel = -np.log(-np.log(rng.random(logp.shape, dtype=np.float32) + 1e-12) + 1e-12)
        actions = np.argmax(logp + gumbel, axis=1)
        return actions, logp[np.arange(len(actions)), actions]

    def iteration(self, batch, first_step, buffer: EpisodeBuffer, steps: int,
                  rng: np.random.Generator, pool=None) -> dict:
        """``steps`` decision steps of self-play with the current policy, then the update."""
        parts: list[Samples] = []
        decisions = play_steps(batch, first_step, buffer, steps,
                               lambda o, m: self.choose(o, m, rng), parts.append, pool)
        if not parts:
            return {"decisions": decisions, "samples": 0, "updates": 0, "loss": None}
        data = concat(parts)
        t = {k: torch.from_numpy(np.ascontiguousarray(v)).to(self.device)
             for k, v in data._asdict().items()}
        n = len(data.ret)
        with torch.no_grad():
            old_value = torch.cat([self.net.forward_with_value(t["obs"][lo:lo + 65536])[1]
                                   for lo in range(0, n, 65536)])
        stats = {"loss": [], "policy_loss": [], "value_loss": [], "entropy": [],
                 "clip_fraction": []}
        size = self.args.minibatch_size
        for _ in range(self.args.epochs):
            order = torch.from_numpy(rng.permutation(n)).to(self.device)
            for lo in range(0, n, size):
                for key, value in self._update(t, old_value, order[lo:lo + size]).items():
                    stats[key].append(value)
        out = {k: float(np.mean(v)) for k, v in stats.items()}
        out.update(decisions=decisions, samples=n, updates=len(stats["loss"]))
        return out

    def _update(self, t: dict, old_value: torch.Tensor, idx: torch.Tensor) -> dict:
        a = self.args
        logits, value = self.net.forward_with_value(t["obs"][idx])
        legal = t["legal"][idx]
        logp_all = masked_log_probs(logits, legal)
        logp = logp_all.gather(1, t["action"][idx][:, None]).squeeze(1)
        ret = t["ret"][idx]
        adv = ret - old_value[idx]
        if len(adv) > 1:
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
        ratio = torch.exp(logp - t["extra"][idx])
        policy_loss = -torch.min(ratio * adv,
                                 ratio.clamp(1 - a.clip, 1 + a.clip) * adv).mean()
        value_loss = F.mse_loss(value, ret)
        probs = logp_all.exp()
        entropy = -(probs * logp_all.masked_fill(~legal, 0.0)).sum(dim=1).mean()
        loss = policy_loss + a.value_coef * value_loss - a.entropy_coef * entropy
        return {"loss": self.descend(loss), "policy_loss": policy_loss.item(),
                "value_loss": value_loss.item(), "entropy": entropy.item(),
                "clip_fraction": float(((ratio - 1).abs() > a.clip).float().mean())}
