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

from dataclasses import dataclass

import numpy as np
import torch

from agents.neural.forward_nb import pack_weights
from cardsim import rng_nb, stream_keys
from cardsim.errors import InvalidConfigError
from experiments.train.dmc import DMC, DMCArgs
from experiments.train.episodes import EpisodeBuffer, Samples


@dataclass
class DistillArgs(DMCArgs):
    """Arguments of distill (config key ``args``): DMC's, and the solver's."""

    samples: int = 0      # 0: label with the actual deal; k: mean over k deals drawn as pimc
    search: str = ""      # options of the pimc agent whose solver labels ("nodes=20000")
    rollouts: int = 0     # k > 0: other decisions' options valued by k heuristic play-outs
    level_weight: float = 1.0  # weight of a labelled decision's level error (see learn)
    playouts: str = "heuristic"  # "network", "network-all": see labels_nb
    prior_margin: float = -1.0  # >= 0: network play-outs over the heuristic (points)
    drawn_contracts: str = ""  # "no_tricks,domino": their early tricks, Domino's cards
                               # labelled as pimc values them
    drawn_rollouts: int = 0    # ... by this many heuristic play-outs of drawn deals
    drawn_phases: str = "play"  # ... those of these phases (play, double, trump, start_rank)
    drawn_weight: float = 1.0  # weight of those contracts' labelled decisions in the loss
    other_weight: float = 1.0  # weight of every other decision (0: those alone are learnt)

    PLAYOUTS = ("heuristic", "network", "network-all")

    def check(self) -> None:
        """DMC's checks, ``samples`` and ``rollouts`` within 0..4096, ``level_weight``
        within [0, 1], ``playouts`` one of ``PLAYOUTS`` (the network's only with
        ``samples`` 0); raises ``InvalidConfigError`` naming the argument."""
        super().check()
        if self.playouts not in self.PLAYOUTS:
            raise InvalidConfigError(f"playouts must be one of {', '.join(self.PLAYOUTS)}, "
                                     f"got {self.playouts!r}")
        if self.playouts != "heuristic" and self.samples != 0:
            raise InvalidConfigError(f"playouts: {self.playouts} plays out the actual deal: "
                                     f"it needs samples: 0, got {self.samples}")
        for key in ("samples", "rollouts"):
            if not 0 <= getattr(self, key) <= 4096:
                raise InvalidConfigError(f"{key} must be in 0..4096, got "
                                         f"{getattr(self, key)}")
        margin = self.prior_margin
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) \
                or not margin < float("inf"):
            raise InvalidConfigError(f"prior_margin must be a number of points, got "
                                     f"{margin!r}")
        if margin >= 0 and self.playouts == "heuristic":
            raise InvalidConfigError(f"prior_margin {margin} sets the network's play-outs over "
                                     f"the heuristic: it needs playouts: network or "
                                     f"network-all")
        if bool(self.contracts()) != (self.drawn_rollouts > 0) \
                or not 0 <= self.drawn_rollouts <= 4096:
            raise InvalidConfigError(
                f"drawn_contracts (contract names, comma-separated) and drawn_rollouts (1..4096) "
                f"go together; got {self.drawn_contracts!r} and {self.drawn_rollouts}")
        from agents.pimc_nb import phase_indices

        try:
            phase_indices(self.phases())
        except ValueError as e:
            raise InvalidConfigError(f"distill argument drawn_phases: {e}") from None
        if not self.phases() or (self.phases() != ("play",) and not self.contracts()):
            raise InvalidConfigError(f"drawn_phases names the phases (comma-separated) that "
                                     f"drawn_contracts labels by drawn deals; got "
                                     f"{self.drawn_phases!r} with drawn_contracts "
                                     f"{self.drawn_contracts!r}")
        if not 0.0 < self.drawn_weight <= 1000.0 or (self.drawn_weight != 1.0
                                                      and not self.contracts()):
            raise InvalidConfigError(f"drawn_weight must be in (0, 1000] and weighs the "
                                     f"decisions of drawn_contracts (none given); got "
                                     f"{self.drawn_weight}")
        if not 0.0 <= self.other_weight <= 1.0 or (self.other_weight != 1.0
                                                    and not self.contracts()):
            raise InvalidConfigError(f"other_weight must be in [0, 1] and weighs the "
                                     f"decisions other than drawn_contracts' labelled ones "
                                     f"(none given); got "
                                     f"{self.other_weight}")
        if not 0.0 <= self.level_weight <= 1.0:
            raise InvalidConfigError(f"level_weight must be in [0, 1], got "
                                     f"{self.level_weight}")


    def contracts(self) -> tuple[str, ...]:
        """The names of ``drawn_contracts``."""
        return comma_names(self.drawn_contracts)

    def phases(self) -> tuple[str, ...]:
        """The names of ``drawn_phases``."""
        return comma_names(self.drawn_phases)


def comma_names(text: str) -> tuple[str, ...]:
    """The names of a comma-separated list, blanks dropped."""
    return tuple(filter(None, (c.strip() for c in text.split(","))))


def contract_columns(kit, contracts) -> np.ndarray:
    """The columns of ``kit``'s observation that show one of ``contracts`` in play (its
    contract piece, one column per contract in the game's order); InvalidConfigError naming
    an unknown contract."""
    from agents.pimc_nb import contract_indices

    try:
        indices = contract_indices(kit.tag, contracts)
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
    value_head = False

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
                             network, every=self.args.playouts == "network-all",
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
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.args.max_grad_norm)
        self.optimizer.step()
        return loss.item()

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
