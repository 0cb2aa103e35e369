"""DMC on Ray: self-play actors as Ray actors, the learner in the driver.

The ``num_games`` games of an iteration are split into ``num_workers`` contiguous shares;
actor k plays games ``lo_k .. hi_k-1`` of the iteration's deals (``SelfPlayBatch`` with
``first_game = lo_k``, so together the actors play exactly the deals a local run plays) with
its own copy of the network, epsilon-greedy as ``DMC.choose``, and sends back the decisions
of every deal that ended, with their returns. The learner takes the shares in actor order
(so the order of its gradient steps does not depend on which actor finishes first), learns
from them ``batch_size`` at a time and writes the checkpoint, as a local run does.

Weights go to the actors (``ray.put`` once, every actor reads the same object) whenever the
learner has made ``weights_every`` updates since it last sent them; in between the actors
play with the weights they have. Those weights are part of the checkpoint, so a resumed run
gives the same network as an uninterrupted one. An actor whose process dies is restarted by
Ray and its share played again: a share depends only on the weights, the iteration and the
games, so the result is unchanged.

What differs from local training: there the network learns during the iteration and plays
with the newest weights at every step; here the actors play the whole iteration with the
weights last sent. Results therefore depend on ``num_workers`` and ``weights_every`` (both
kept in config.yaml), not on the cluster or the order in which actors finish.
"""

from __future__ import annotations

import numpy as np
import torch

from experiments.runs.executor import ray_get
from experiments.train.episodes import Samples, concat

ACTOR_RESTARTS = 3   # a dead actor is restarted and its share played again, this many times


class SelfPlayActor:
    """One share of the games of every iteration, played with a copy of the network (the
    body of a Ray actor: one CPU, one torch and one numba thread)."""

    def __init__(self, cfg_dict: dict, first_game: int, num_games: int, pool_seats):
        from agents.neural.network import ActionHeadNet
        from cardsim.envs.selfplay import SelfPlayBatch
        from experiments.train.config import TrainConfig
        from experiments.train.dmc import DMC
        from experiments.train.episodes import EpisodeBuffer

        torch.set_num_threads(1)
        cfg = TrainConfig(**cfg_dict)
        rules = cfg.make_rules()
        kit = rules.game
        self.cfg, self.first_game = cfg, first_game
        self.net = ActionHeadNet(kit.obs_size, kit.num_actions, cfg.hidden, value_head=False)
        self.algo = DMC(self.net, cfg.algorithm_args(), torch.device("cpu"))
        self.batch = SelfPlayBatch(cfg.game, num_games, rules, seed=cfg.seed, episode="deal",
                                   autoreset="same_step", threads=1, opponents=cfg.opponents,
                                   check_actions=False, first_game=first_game)
        self.buffer = EpisodeBuffer(num_games, kit.max_decisions_per_deal(rules),
                                    kit.obs_size, kit.num_actions)
        self.pool_seats = pool_seats
        self.version = None
        self.pool_nets: dict = {}

    def play(self, weights, version: int, iteration: int, index: int, deal_seed: int,
             pool=None):
        """The iteration's share: (samples or None, decisions). ``pool``: None or (name,
        weights) of the earlier checkpoint playing the pool's seats."""
        if version != self.version:
            self.net.load_state_dict(weights)
            self.version = version
        rng = np.random.default_rng([self.cfg.seed, iteration, index])
        self.buffer.clear()
        first = self.batch.reset(deal_seed)
        self.net.train()
        parts: list[Samples] = []
        decisions = _play_steps(self, first, rng, parts, self._pool(pool))
        return (concat(parts) if parts else None), decisions

    def _pool(self, pool):
        if pool is None or self.pool_seats is None:
            return None
        name, weights = pool
        if name not in self.pool_nets:
            from agents.neural.agent import NeuralAgent
            from agents.neural.network import ActionHeadNet

            net = ActionHeadNet(self.net.obs_size, self.net.num_actions, self.cfg.hidden,
                                value_head=False)
            net.load_state_dict(weights)
            self.pool_nets = {name: NeuralAgent(self.cfg.game, net=net).act}
        return self.pool_seats, self.pool_nets[name]


def _play_steps(actor: SelfPlayActor, first, rng, parts: list, pool) -> int:
    from experiments.train.episodes import play_steps

    return play_steps(actor.batch, first, actor.buffer, actor.cfg.steps_per_iteration,
                      lambda o, m: actor.algo.choose(o, m, rng), parts.append, pool)


def shares(num_games: int, workers: int) -> list[tuple[int, int]]:
    """Contiguous (lo, hi) shares of the games, as even as can be, none empty."""
    workers = min(workers, num_games)
    return [(num_games * k // workers, num_games * (k + 1) // workers) for k in range(workers)]


class RaySelfPlay:
    """The learner's side: the actors, the weights they hold, one iteration at a time."""

    def __init__(self, cfg, executor, pool_seats):
        self.cfg, self.executor = cfg, executor
        self.pool_seats = pool_seats
        self.actors = None
        self.weights_ref = None
        self.actor_weights = None  # the state dict the actors play with
        self.version = 0
        self.sent_at = 0           # the learner's update count when they were sent
        self._pool_refs: dict = {}

    def start(self, net, updates: int, actor_weights=None, sent_at=None) -> None:
        """Connect, start the actors, and send them ``actor_weights`` (a resumed run's) or
        the network's current weights."""
        self.executor.__enter__()
        ray = self.executor.ray
        remote = ray.remote(num_cpus=1, max_restarts=ACTOR_RESTARTS,
                            max_task_retries=ACTOR_RESTARTS)(SelfPlayActor)
        cfg_dict = self.cfg.to_dict()
        self.actors = [remote.remote(cfg_dict, lo, hi - lo,
                                     None if self.pool_seats is None else self.pool_seats[lo:hi])
                       for lo, hi in shares(self.cfg.num_games, self.workers)]
        if actor_weights is None:
            self.send(net, updates)
        else:
            self._put(actor_weights, sent_at)

    @property
    def workers(self) -> int:
        """Number of self-play actors: ``ray.num_workers`` of the config, else
        ``DEFAULT_WORKERS``."""
        return (self.cfg.ray or {}).get("num_workers") or DEFAULT_WORKERS

    @property
    def weights_every(self) -> int:
        """Learner updates between two sendings of the weights to the actors
        (``ray.weights_every``, default 1)."""
        return (self.cfg.ray or {}).get("weights_every") or 1

    def send(self, net, updates: int) -> None:
        """Send the network's current weights (a CPU copy) to the actors, as made after ``updates``
        learner updates."""
        self._put({k: v.detach().cpu().clone() for k, v in net.state_dict().items()}, updates)

    def _put(self, weights: dict, updates: int) -> None:
        self.actor_weights = weights
        self.weights_ref = self.executor.ray.put(weights)
        self.version += 1
        self.sent_at = updates

    def stop(self) -> None:
        """Kill the actors and disconnect from Ray (the executor's exit); safe to call when they
        were never started."""
        if self.actors is not None:
            for actor in self.actors:
                self.executor.ray.kill(actor)
            self.actors = None
        self.executor.__exit__(None, None, None)

    def play(self, iteration: int, deal_seed: int, pool_name: str | None, pool_weights):
        """Every share of the iteration, in actor order: (list of samples, decisions)."""
        ray = self.executor.ray
        pool = None
        if pool_name is not None:
            if pool_name not in self._pool_refs:
                self._pool_refs = {pool_name: ray.put((pool_name, pool_weights))}
            pool = self._pool_refs[pool_name]
        refs = [actor.play.remote(self.weights_ref, self.version, iteration, k, deal_seed, pool)
                for k, actor in enumerate(self.actors)]
        results = ray_get(ray, refs, lambda e: (
            f"a self-play actor was lost on Ray after {ACTOR_RESTARTS} restarts "
            f"({type(e).__name__}); the last checkpoint is kept, resume the run"))
        return [s for s, _ in results if s is not None], sum(d for _, d in results)

    def after_learning(self, net, updates: int) -> None:
        """Send new weights once ``weights_every`` updates have been made since the last."""
        if updates - self.sent_at >= self.weights_every:
            self.send(net, updates)


DEFAULT_WORKERS = 2   # self-play actors when ray.num_workers is not given
