"""Deep Monte Carlo (DMC), as DouZero: learn Q(s, a) from Monte Carlo returns of self-play.

Every seat the batch leaves to the learner is played by the same network (self-play): at
each decision step one forward scores every action of every game (``ActionHeadNet``: Q(s, a)
over the observation and a learned embedding of the action), and each game plays its best
legal action, or with probability ``epsilon`` a uniformly random legal one. When a deal
ends, each of its decisions becomes a sample (s, a, G) with G what the deciding seat scored
in the deal (reward_scale x recorded points); the network regresses Q(s, a) on G by mean
squared error. Samples are learnt from as they arrive, ``batch_size`` at a time; with
``epochs`` k > 1 the iteration's samples are learnt from k - 1 more times after its
self-play, each pass in a fresh shuffled order (the iteration's random generator, so a run
is the same for its seed and resumes exactly). Where samples are dear (the solver's labels
of ``distill`` cost milliseconds each, a gradient step on 4,096 of them a few tens), more
passes learn more from the same play.

Opponents: ``opponents`` of the config seats compiled agents (heuristic, random) in some
seats inside the batch; ``pool_share`` of the games have the learner in one seat (or side)
against an earlier checkpoint of the run (``experiments.train.loop``). Only the learner's
decisions make samples.
"""

from __future__ import annotations

import numpy as np
import torch
from torch.nn import functional as F

from agents.neural.network import masked
from cardsim.envs.selfplay import random_legal_actions
from experiments.train.arguments import DMCArgs
from experiments.train.episodes import EpisodeBuffer, Samples, concat, play_steps
from experiments.train.learner import Learner


class DMC(Learner):
    """The learner: its network, optimizer and one iteration of self-play and learning."""

    name = "dmc"
    args: DMCArgs

    @torch.no_grad()
    def choose(self, obs: np.ndarray, legal: np.ndarray, rng: np.random.Generator):
        """Epsilon-greedy actions for a batch of decisions (one forward)."""
        q = self.net(torch.from_numpy(obs).to(self.device))
        greedy = masked(q, torch.from_numpy(legal).to(self.device)).argmax(dim=1).cpu().numpy()
        explore = rng.random(len(greedy)) < self.args.epsilon
        return np.where(explore, random_legal_actions(legal, rng), greedy), None

    def learn(self, s: Samples) -> float:
        """One gradient step of Q(s, a) towards the returns; the loss before the step."""
        obs = torch.from_numpy(s.obs).to(self.device)
        action = torch.from_numpy(s.action).to(self.device)
        target = torch.from_numpy(s.ret).to(self.device)
        q = self.net(obs).gather(1, action[:, None]).squeeze(1)
        loss = F.mse_loss(q, target)
        return self.descend(loss)

    def iteration(self, batch, first_step, buffer: EpisodeBuffer, steps: int,
                  rng: np.random.Generator, pool=None) -> dict:
        """``steps`` decision steps of self-play, learning from each ended deal's decisions
        as soon as ``batch_size`` of them are waiting; what is left at the end is learnt
        from in a last, smaller step (nothing is dropped)."""
        return self.play_and_learn(batch, first_step, buffer, steps,
                                   lambda o, m: self.choose(o, m, rng), rng, pool)

    def play_and_learn(self, batch, first_step, buffer: EpisodeBuffer, steps: int, choose,
                       rng: np.random.Generator, pool=None) -> dict:
        """The iteration with ``choose(obs, legal) -> (actions, extra)`` deciding; ``rng``
        shuffles the passes after the first (``epochs``)."""
        waiting: list[Samples] = []
        kept: list[Samples] = []  # the iteration's samples, for the passes after the first
        losses: list[tuple[float, int]] = []
        count = [0]  # samples waiting

        def consume(samples: Samples) -> None:
            if self.args.epochs > 1:
                kept.append(samples)
            waiting.append(samples)
            count[0] += len(samples.ret)
            if count[0] >= self.args.batch_size:
                self._learn_from(waiting, losses, final=False)
                count[0] = sum(len(w.ret) for w in waiting)

        decisions = play_steps(batch, first_step, buffer, steps, choose, consume, pool)
        self._learn_from(waiting, losses, final=True)
        return {"decisions": decisions, **self._more_passes(losses, kept, rng)}

    def learn_samples(self, parts: list[Samples], rng: np.random.Generator) -> dict:
        """Learn from decisions played elsewhere (Ray's actors), in the order given,
        ``batch_size`` at a time and the rest in a last, smaller step; then the passes after
        the first (``epochs``), shuffled by ``rng``."""
        losses: list[tuple[float, int]] = []
        self._learn_from(list(parts), losses, final=True)
        return self._more_passes(losses, parts, rng)

    def _more_passes(self, losses: list, kept: list[Samples], rng) -> dict:
        """The first pass's figures (``losses``: its samples, steps and mean loss, on samples
        not yet learnt from), then ``epochs`` - 1 more passes over ``kept``, each in a fresh
        order, ``batch_size`` at a time and the rest in a last, smaller step (with their
        steps counted and the last pass's mean loss)."""
        out = {"samples": sum(k for _, k in losses), "updates": len(losses),
               "loss": mean_loss(losses)}
        if self.args.epochs == 1 or not kept:
            return out
        every, size = concat(kept), self.args.batch_size
        for _ in range(self.args.epochs - 1):
            order = rng.permutation(len(every.ret))
            last = [(self.learn(Samples(*(x[part] for x in every))), len(part))
                    for part in np.split(order, range(size, len(order), size))]
            out["updates"] += len(last)
        out["last_pass_loss"] = mean_loss(last)
        return out

    def _learn_from(self, waiting: list[Samples], losses: list, final: bool) -> None:
        if not waiting:
            return
        pool = concat(waiting)
        waiting.clear()
        size, total = self.args.batch_size, len(pool.ret)
        full = total - total % size
        for lo in range(0, full, size):
            part = Samples(*(x[lo:lo + size] for x in pool))
            losses.append((self.learn(part), size))
        rest = Samples(*(x[full:] for x in pool))
        if len(rest.ret) and final:
            losses.append((self.learn(rest), len(rest.ret)))
        elif len(rest.ret):
            waiting.append(rest)


def mean_loss(losses: list[tuple[float, int]]) -> float | None:
    """The mean loss over samples of steps given as (loss, samples); None without any."""
    n = sum(k for _, k in losses)
    return sum(l * k for l, k in losses) / n if n else None
