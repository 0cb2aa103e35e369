"""``algorithm: beliefs``: a belief network learnt from games of the players it will meet.

A belief network (``agents.neural.beliefs``) reads a seat's observation and gives, for every
card the seat cannot see, the chance of each place it may be (each other seat, the dead
stock). ``pimc:beliefs=NAME`` draws its deals by it (``agents/belief_pimc.py``), so the
network should know how the players at the table bid and play: what their bids, leads and
discards say about their hands. It is learnt here by watching them.

Each iteration deals fresh games in the self-play batch. The seats the config leaves to the
learner (``opponents``: None in a seat) are played by the ``behaviour`` agent (a compiled
agent spec, e.g. ``pimc:samples=4``: the players it will meet); the others by their
compiled opponents. At every decision of a learner seat the seat's observation is kept with
where every card it cannot see really lies (``true_places``), and once ``batch_size``
positions are waiting the network takes one gradient step on their mean cross-entropy
(over the hidden cards of each position). The loss reported is measured on each batch
before its step, on positions the network has not learnt from: a running held-out measure;
``uniform`` beside it is the cross-entropy of the chances every place would get if all
the places a card may be in were equally likely by their sizes, the sampler's own view
without constraints, for scale.
"""

from __future__ import annotations

import numpy as np
import torch
import torch.nn.functional as F

from cardsim import rng_nb, stream_keys
from cardsim.errors import InvalidConfigError
from cardsim.games import Game
from experiments.train.arguments import BeliefArgs
from experiments.train.episodes import EpisodeBuffer
from experiments.train.learner import Learner


def behaviour_agent(game: str, spec: str):
    """The compiled agent of ``spec`` (its errors name the option and what is allowed)."""
    from agents.registry import make_agent
    from cardsim.table import is_compiled

    agent = make_agent(spec, game)
    if not is_compiled(agent):
        raise InvalidConfigError(f"behaviour {spec!r} is not a compiled agent; allowed: "
                                 f"random, heuristic, pimc, ismcts with their options")
    return agent


class BeliefTraining(Learner):
    """The learner of a belief network: one iteration of watched play and learning."""

    name = "beliefs"
    args: BeliefArgs

    def __init__(self, net, args: BeliefArgs, device: torch.device):
        super().__init__(net, args, device)
        self._agents: dict[str, object] = {}

    @staticmethod
    def output_size(game: Game) -> int:
        """The network's outputs: a logit per card and place."""
        from agents.neural.beliefs import output_size

        return output_size(game)

    def behaviour(self, game: str):
        """The compiled agent that plays the watched seats (made once per game)."""
        if game not in self._agents:
            self._agents[game] = behaviour_agent(game, self.args.behaviour)
        return self._agents[game]

    def warm_up(self, batch, step) -> None:
        """Compile the behaviour agent's decisions before the iteration is timed."""
        self._act(batch, np.zeros(batch.num_games, dtype=np.uint64))

    def _act(self, batch, streams: np.ndarray) -> np.ndarray:
        """The behaviour agent's action in every game, drawing from ``streams[i]``."""
        from cardsim import table_nb

        agent = self.behaviour(batch.game)
        return table_nb.act_rows(batch.kit.tag, agent.policies, batch.states, batch.R,
                                 agent.kind, agent.params, streams,
                                 np.arange(batch.num_games, dtype=np.int64))

    def iteration(self, batch, first_step, buffer: EpisodeBuffer, steps: int,
                  rng: np.random.Generator, pool=None) -> dict:
        """``steps`` decision steps played by the behaviour agent, learning from every
        ``batch_size`` positions watched (the rest at the end, in a smaller step)."""
        from agents.neural.beliefs import true_places

        seats = batch.kit.players(batch.rules)
        # the behaviour agent's draws: one stream per game, fixed by the iteration's seed
        seed = int(rng.integers(2**62))
        streams = np.array([rng_nb.stream(seed, i, stream_keys.AGENT)
                            for i in range(batch.num_games)], dtype=np.uint64)
        # the sampler's draws (prior: sampler), from streams of their own
        prior_streams = None
        if self.args.prior == "sampler":
            prior_streams = np.array([rng_nb.stream(seed, i, stream_keys.BELIEF_PRIOR)
                                      for i in range(batch.num_games)], dtype=np.uint64)
        step = first_step
        obs, places, priors = [], [], []
        tallies = {"loss": [], "uniform": [], "sampler": []}
        waiting = 0
        for _ in range(steps):
            obs.append(step.obs.copy())
            places.append(true_places(batch.kit, batch.states, seats))
            if prior_streams is not None:
                priors.append(self._sampler_chances(batch, prior_streams))
            waiting += len(step.obs)
            if waiting >= self.args.batch_size:
                self._learn(obs, places, priors, tallies)
                obs, places, priors, waiting = [], [], [], 0
            step = batch.step(self._act(batch, streams))
        if waiting:
            self._learn(obs, places, priors, tallies)
        n = sum(k for _, k in tallies["loss"])
        out = {"decisions": steps * batch.num_games, "samples": steps * batch.num_games,
               "updates": len(tallies["loss"])}
        for key, values in tallies.items():
            if values or key != "sampler":
                out[key] = sum(v * k for v, k in values) / n if n else None
        return out

    def _sampler_chances(self, batch, streams: np.ndarray) -> np.ndarray:
        """The sampler's log chances of every card's place, seen from the seat to act in
        each game ((games, cards, PLACES) float32)."""
        from agents.belief_pimc_nb import sampler_chance_rows
        from agents.neural.beliefs import PLACES

        out = np.zeros((batch.num_games, 64, PLACES), dtype=np.float64)
        sampler_chance_rows(batch.kit.tag, batch.states, batch.R, self.args.prior_draws,
                            streams, out)
        return out[:, :self.net.num_actions // PLACES].astype(np.float32)

    def _learn(self, obs, places, priors, tallies) -> None:
        o = torch.from_numpy(np.concatenate(obs)).to(self.device)
        p = torch.from_numpy(np.concatenate(places).astype(np.int64)).to(self.device)
        logits = self.net(o).view(len(o), p.shape[1], -1)
        hidden = p >= 0
        count = int(hidden.sum())
        if priors:  # the network's logits are what it adds to the sampler's chances
            prior = torch.from_numpy(np.concatenate(priors)).to(self.device)
            logits = logits + prior
            with torch.no_grad():
                sampler = F.cross_entropy(prior[hidden], p[hidden]).item()
            tallies["sampler"].append((sampler, count))
        loss = F.cross_entropy(logits[hidden], p[hidden])
        tallies["loss"].append((self.descend(loss), count))
        tallies["uniform"].append((uniform_cross_entropy(p.cpu().numpy()), count))


def uniform_cross_entropy(places: np.ndarray) -> float:
    """Mean cross-entropy, over the hidden cards of ``places`` ((positions, cards): place
    or -1), of chances proportional to how many hidden cards each place holds in that
    position: what a seat knowing only the hand sizes would believe."""
    hidden = places >= 0
    count = int(hidden.sum())
    if count == 0:
        return 0.0
    onehot = (places[:, :, None] == np.arange(4)) & hidden[:, :, None]
    sizes = onehot.sum(axis=1)                                   # (positions, places)
    share = sizes / np.maximum(hidden.sum(axis=1), 1)[:, None]
    return float(-(np.log(np.where(sizes > 0, share, 1.0)) * sizes).sum() / count)
