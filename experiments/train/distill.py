"""Distillation of search into the network: Q(s, a) regressed on the open-hand solver's value
of every legal card, and on Monte Carlo returns where the game does not play a card.

Self-play runs as in DMC (``experiments.train.dmc``): one forward per decision step, each
game playing its best legal action or, with probability ``epsilon``, a random one. Before
the step, the batch's decisions are labelled as ``pimc`` (its options: ``search``) would
value their options (``experiments.train.labels_nb``): card play that ``pimc`` decides by
solving gets the solver's value of every legal card, on the deal in the row (``samples`` =
0) or as the mean over ``samples`` deals drawn from what the seat knows, as ``pimc`` draws
them; with ``rollouts`` > 0 the decisions it takes by play-outs (bids, the seven swap,
Barbu's contract, doubles, early tricks) get each option's result over that many heuristic
play-outs. With ``playouts: network``
Barbu's early tricks and Debertz's bids and seven swap are played out by the network itself
instead of the heuristic: one step of policy iteration over the network; ``playouts:
network-all`` does the same for every decision not solved (in Barbu also the contract
choice, Domino and the doubles). ``drawn_contracts`` (Barbu) labels the early tricks (those
not solved) and Domino's cards of those contracts as ``pimc`` values them, ``drawn_rollouts``
heuristic play-outs of drawn deals each; ``drawn_phases`` adds their doubles, trump suit or
Domino's starting rank.
A label is a sample of what ``pimc`` averages, so the network learns ``pimc``'s
choices at the price of one forward; with the actual deal its average is taken over where
the cards really lie in self-play rather than over every consistent deal.

Loss, per decision: at a labelled decision the mean squared error of Q over every legal
action against the labels (all of them, not only the one played: each labelled position
teaches as many values as it has legal actions); elsewhere (unlabelled decisions, a forced
card) DMC's squared error of the played action's Q against the deal's return. All are in
the same units (``reward_scale`` x points), though not the same quantity: a card's solver
label counts the card points still to come, a play-out or a return the deal's score. Only
the order of the values within a decision decides the play, and the kinds never meet in
one decision.
"""

from __future__ import annotations

import numpy as np
import torch

from agents.neural.forward_nb import pack_weights
from cardsim import rng_nb, stream_keys
from cardsim.errors import InvalidConfigError
from experiments.train.arguments import DistillArgs
from experiments.train.dmc import DMC
from experiments.train.episodes import EpisodeBuffer, Samples


def contract_columns(kit, contracts) -> np.ndarray:
    """The columns of ``kit``'s observation that show one of ``contracts`` in play (its
    contract piece, one column per contract in the game's order); InvalidConfigError naming
    an unknown contract."""
    from agents.pimc_nb import contract_indices

    try:
        indices = contract_indices(kit, contracts)
    except ValueError as e:
        raise InvalidConfigError(f"distill argument drawn_contracts: {e}") from None
    if not indices.size:
        return indices
    return kit.tag.observer.SPEC.slice("contract").start + indices


def search_agent(game: str, options: str):
    """The ``pimc`` agent of ``options`` (its errors name the option and what is allowed)."""
    from agents.registry import make_agent

    return make_agent("pimc" + (f":{options}" if options else ""), game)


class Distill(DMC):
    """DMC's learner with the solver's labels at card play."""

    name = "distill"

    def __init__(self, net, args: DistillArgs, device: torch.device):
        super().__init__(net, args, device)
        self._params: dict[str, np.ndarray] = {}
        self.drawn_columns = None  # the observation's drawn-contract columns (labels)

    @staticmethod
    def extra_shape(num_actions: int) -> tuple:
        """Each decision keeps the solver's label of every action id (NaN where there is none)."""
        return (num_actions,)

    def solver_params(self, game: str) -> np.ndarray:
        """The ``pimc`` parameter row whose solver options (and, in Barbu, its horizon
        ``solve``) label the positions."""
        if game not in self._params:
            self._params[game] = search_agent(game, self.args.search).params
        return self._params[game]

    def warm_up(self, batch, step) -> None:
        """Compile the labelling loop too (on the fresh deals, drawing nothing)."""
        self.labels(batch, np.arange(min(1, batch.num_games)),
                    np.zeros(batch.num_games, dtype=np.uint64))

    def labels(self, batch, rows: np.ndarray, rng: np.ndarray) -> np.ndarray:
        """The solver's labels of the batch's current decisions (NaN: no label); with
        ``playouts: network`` (``network-all``) the play-outs by the network as it is now."""
        from experiments.train.labels_nb import solver_labels

        network = None
        if self.args.playouts != "heuristic":
            network = pack_weights(self.net.layer_arrays())
        if self.drawn_columns is None:  # once: an unknown contract is the config's error
            self.drawn_columns = contract_columns(batch.kit, self.args.contracts())
        return solver_labels(batch.kit.tag, batch.states, batch.R, rows,
                             self.solver_params(batch.game), self.args.samples,
                             batch.reward_scale, rng, batch.num_actions, self.args.rollouts,
                             network=network, every=self.args.playouts == "network-all",
                             prior_margin=self.args.prior_margin,
                             drawn_contracts=self.args.contracts(),
                             drawn_rollouts=self.args.drawn_rollouts,
                             drawn_phases=self.args.phases())

    def learn(self, s: Samples) -> float:
        """One gradient step: labelled decisions towards their labels over every legal
        card, the others' played action towards the return; the loss before the step.

        A labelled decision's mean squared error is its level error (the mean of Q over the
        labelled actions less the labels' mean, squared) plus the mean squared error of the
        differences about those means. Only the differences decide the play; the level
        carries the noise of everything the seat cannot see (the whole deal's score, where
        one card changes a few points), so ``level_weight`` < 1 lowers its share of the
        gradient; 1 (the default) is the plain mean squared error. With ``drawn_weight`` w
        the labelled decisions of ``drawn_contracts`` (their contract read from the
        observation's contract piece) count w times: their values differ by a few points
        where other contracts' differ by many, and would weigh little in the loss. With
        ``other_weight`` v every other decision counts v times (those of other contracts,
        the contract choice, and the unlabelled ones of these contracts, forced cards whose
        target is the deal's return): 0 trains a network for the labelled decisions of those
        contracts alone (a specialist, seated for them by ``neural:...,
        checkpoint_CONTRACT=NAME``), the returns' noise kept out of its gradient."""
        obs = torch.from_numpy(s.obs).to(self.device)
        labels = torch.from_numpy(s.extra).to(self.device)
        q = self.net(obs)
        known = ~torch.isnan(labels)
        labelled = known.any(dim=1)
        per_row = torch.empty(len(q), device=self.device)
        if labelled.any():
            mask = known[labelled]
            err = torch.where(mask, q[labelled] - labels[labelled].nan_to_num(), 0.0)
            count = mask.sum(1)
            if self.args.level_weight == 1.0:
                per_row[labelled] = (err ** 2).sum(1) / count
            else:
                level = err.sum(1) / count
                spread = torch.where(mask, err - level[:, None], 0.0)
                per_row[labelled] = ((spread ** 2).sum(1) / count
                                     + self.args.level_weight * level ** 2)
        rest = ~labelled
        if rest.any():
            action = torch.from_numpy(s.action).to(self.device)[rest]
            target = torch.from_numpy(s.ret).to(self.device)[rest]
            per_row[rest] = (q[rest].gather(1, action[:, None]).squeeze(1) - target) ** 2
        weighed = self.args.drawn_weight != 1.0 or self.args.other_weight != 1.0
        if weighed and self.drawn_columns is not None:
            drawn = torch.from_numpy(s.obs[:, self.drawn_columns].sum(1) > 0).to(self.device)
            per_row = per_row * torch.where(drawn & labelled, self.args.drawn_weight,
                                            self.args.other_weight)
        loss = per_row.mean()
        return self.descend(loss)

    def iteration(self, batch, first_step, buffer: EpisodeBuffer, steps: int,
                  rng: np.random.Generator, pool=None) -> dict:
        """DMC's iteration, each decision step labelled before it is played."""
        every = np.arange(batch.num_games)
        draws = np.array([rng_nb.stream(batch.seed, int(g), stream_keys.LABELS)
                          for g in batch.game_ids], dtype=np.uint64)
        stats = {"labelled": 0}

        def choose(obs, legal):
            actions, _ = DMC.choose(self, obs, legal, rng)
            rows = every if pool is None else np.flatnonzero(~pool[0][every, batch.seats])
            labels = self.labels(batch, rows, draws)
            stats["labelled"] += int((~np.isnan(labels[rows])).any(axis=1).sum())
            return actions, labels

        out = self.play_and_learn(batch, first_step, buffer, steps, choose, rng, pool)
        return {**out, "labelled": stats["labelled"]}
