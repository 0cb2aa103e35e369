"""``pimc:beliefs=NAME``: perfect-information Monte Carlo whose deals are weighted by a belief
network's chance of where each unseen card lies (policy-based inference).

Plain ``pimc`` draws every deal consistent with what the seat saw as equally likely. This
agent asks a belief network (``agents.neural.beliefs``, trained on games of the players it
will meet: ``cardsim train`` with ``algorithm: beliefs``) where the unseen cards are, from
the seat's observation alone, and draws its deals accordingly
(``agents/belief_pimc_nb.py``); everything else is ``pimc``'s, with its options.

Options: ``beliefs`` (a belief network of the model zoo, a checkpoint file or a training run
directory), ``beta`` (how far to trust the beliefs: 0 draws as plain ``pimc``, 1 as the
network says), ``draws`` (candidate deals drawn per deal kept), ``ratio`` (weigh what the
beliefs add to the hard constraints the draws follow, not the beliefs whole) and every
``pimc`` option.

``pimc:net=NAME`` (with or without ``beliefs=``) also asks a playing network (a model zoo
checkpoint, a file or a run directory, as ``neural:checkpoint=``) for its card, and card
play measures its gains against that card instead of the game's own reference: in Barbu
the card the search keeps unless another beats it by ``margin`` standard errors (the
heuristic's in plain ``pimc``), in Debertz the card taken among equal best values (the
lowest id in plain ``pimc``). The search decides where its drawn deals tell cards apart;
where they do not, the network, which learnt from whole games, does. ``net_OPTION=V``
gives the network the ``neural`` agent's option ``OPTION`` (``net_prior=heuristic``,
``net_margin=1``, ``net_checkpoint_no_tricks=NAME``, ...). ``endgame=K`` (with
``net``) searches only card play in the last K tricks and leaves every other decision to
the network: the solves there are small (a few cards a hand), so the agent costs little
more than the network, and it plays those tricks as the search does. ``search=PHASES``
(Barbu, with ``net``; ``+`` between phases) leaves those decisions to the search as well,
valued by ``pimc``'s play-outs (``rollouts`` of them): ``start_rank`` (Domino's), ``double``,
``trump``, ``play`` (Domino's cards, and tricks ``pimc`` plays out); ``search_in=CONTRACTS``
only in those contracts (``domino``; default every one). A decision made once a deal, such
as Domino's starting rank, can take a full search at little cost a decision.

It is a Python agent: the table hands it its games' observations with their engine rows,
it runs the network once for the batch, then the compiled search for every row, drawing
from each game's own generator, so its play does not depend on the batch.
"""

from __future__ import annotations

import importlib
from typing import ClassVar

import numpy as np

from agents.base import Agent, Option
from cardsim.errors import InvalidConfigError

OPTIONS: dict[str, Option] = {
    "beta": Option(1.0, 0.0, 16.0, "weight of the beliefs: a deal counts as the product of "
                                   "its cards' belief chances to this power (0: plain pimc)"),
    "draws": Option(4, 1, 64, "candidate deals drawn for each deal kept (resampled by weight)"),
    "endgame": Option(0, 0, 13, "with net=: the search decides card play only in the last "
                                "this many tricks (the current one counted), the network "
                                "every other decision (0: the search decides every "
                                "decision it would)"),
    "ratio": Option(0, 0, 1, "1: weigh each card by its belief over how often the draws "
                             "themselves put it there (what the beliefs add to the hard "
                             "constraints the draws already follow); 0: by its belief",
                    switch=True),
}
# pimc's options that make it this agent, as ``cardsim agents`` lists them
OPTION_HELP = {
    "beliefs": "a belief network (cardsim train, algorithm beliefs): a model zoo name, a "
               "checkpoint file or a training run directory; pimc then draws its deals as "
               "the network believes the unseen cards lie",
    "net": "a playing network (as neural:checkpoint=): card play keeps its card unless "
           "the search finds a better one (Barbu: by margin standard errors; Debertz: "
           "among equal best values)",
    "net_OPTION": "an option of the playing network (net_prior=heuristic, net_margin=1, "
                  "net_checkpoint_no_tricks=NAME: as neural:checkpoint=NAME,OPTION=...)",
    "search": "with net= (Barbu): decisions the search takes by its play-outs besides the "
              "endgame's card play, phases joined by + (start_rank, double, trump, play)",
    "search_in": "with search=: only in these contracts, joined by + (default: every "
                 "contract)",
    **{k: f"with beliefs: {o.doc} (default {o.default:g}, {o.allowed()})"
       for k, o in OPTIONS.items()},
}


class BeliefPIMC(Agent):
    """pimc drawing its deals as a belief network believes the unseen cards lie, and/or
    measuring card play against a playing network's card."""

    name = "pimc"
    games = ("debertz", "barbu")
    OPTIONS: ClassVar[dict[str, Option]] = OPTIONS

    def __init__(self, game: str, options: dict | None = None, *, make_network=None):
        """``make_network(options)``: the ``neural`` agent of those options (the registry's,
        which can make its prior; without it, a network that takes no prior)."""
        super().__init__(game)
        from agents.neural.beliefs import load_beliefs

        options = dict(options or {})
        path = options.pop("beliefs", None)
        net = options.pop("net", None)
        search_phases = _names(options.pop("search", None), "search")
        search_in = _names(options.pop("search_in", None), "search_in")
        if net is not None and (not isinstance(net, str) or not net):
            raise InvalidConfigError("pimc option net= needs a playing network: a zoo "
                                     "name, a checkpoint file or a training run directory")
        if path is not None and (not isinstance(path, str) or not path):
            raise InvalidConfigError("pimc option beliefs= needs a belief network: a zoo "
                                     "name, a checkpoint file or a training run directory")
        mine = {}
        for key, opt in OPTIONS.items():
            if key in options:
                value = options.pop(key)
                if not opt.accepts(value):
                    raise InvalidConfigError(f"agent 'pimc' option {key!r} = {value!r} is out "
                                             f"of range; allowed: {opt.allowed()}")
                mine[key] = value
        self.beta = float(mine.get("beta", OPTIONS["beta"].default))
        self.draws = int(mine.get("draws", OPTIONS["draws"].default))
        self.ratio = bool(mine.get("ratio", OPTIONS["ratio"].default))
        self.endgame = int(mine.get("endgame", OPTIONS["endgame"].default))
        if self.endgame and not net:
            raise InvalidConfigError("pimc option endgame= leaves every decision before the "
                                     "last tricks to a playing network: give net=NAME too")
        if (search_phases or search_in) and not net:
            raise InvalidConfigError("pimc option search= leaves decisions to the search "
                                     "that a playing network makes otherwise: give net=NAME "
                                     "too")
        if search_in and not search_phases:
            raise InvalidConfigError("pimc option search_in= names the contracts of "
                                     "search=: give search=PHASES too")
        net_options = {k[len("net_"):]: options.pop(k) for k in sorted(options)
                       if k.startswith("net_")}
        if net_options and not net:
            raise InvalidConfigError(f"pimc option net_{next(iter(net_options))}= is an "
                                     f"option of the playing network: give net=NAME too")
        # the game's plain pimc with the other options (its class by name: the registry,
        # which makes this agent, is not imported back)
        self.search = importlib.import_module(f"agents.{game}.pimc").AGENT(game=game,
                                                                          options=options)
        self.beliefs = load_beliefs(path, self.kit) if path else None
        if self.beliefs is None:  # plain pimc's draws
            weighing = sorted(set(mine) - {"endgame"})
            if weighing:
                raise InvalidConfigError(f"pimc option {weighing[0]!r} weighs deals by "
                                         f"a belief network: give beliefs=NAME too")
            self.beta, self.draws, self.ratio = 0.0, 1, False
        self.net = None
        if net:
            from agents.neural.agent import NeuralAgent

            # the network as neural:checkpoint=NAME,OPTION=V for each net_OPTION=V
            network = {"checkpoint": net, **net_options}
            self.net = (make_network(network) if make_network is not None
                        else NeuralAgent(game, network))
        self._searched = self._searched_phases(search_phases, search_in)
        self.split = bool(self.endgame or self._searched.any())  # the network decides
        self._table = None     # the split's solves' transposition table, kept
        self._one_call = None  # ... and its compiled call with the network: (engine, rows,
        if self.split:         # obs, legal) -> actions
            from agents.belief_pimc_nb import endgame_table

            self._table = endgame_table(self.endgame)
            if self.beliefs is None:
                self._one_call = self._compiled_endgame()
        if self.ratio and self.beliefs.prior == "sampler":
            raise InvalidConfigError(f"pimc option ratio=1 divides beliefs by the sampler's "
                                     f"chances; {path} already gives beliefs over them "
                                     f"(trained with prior: sampler): leave ratio at 0")
        self.path = path
        extra = ",".join(f"{k}={v:g}" for k, v in sorted(mine.items()))
        base = self.search.label
        guides = ",".join(f"{k}={v}" for k, v in (("beliefs", path), ("net", net)) if v)
        guides += "".join(f",net_{k}={v}" for k, v in net_options.items())
        guides += "".join(f",{k}={'+'.join(v)}" for k, v in (("search", search_phases),
                                                              ("search_in", search_in)) if v)
        self._label = f"{base}{',' if ':' in base else ':'}{guides}" + (
            f",{extra}" if extra else "")

    def _default_label(self) -> str:
        return self._label

    def _searched_phases(self, phases: list[str], contracts: list[str]) -> np.ndarray:
        """``search=`` and ``search_in=`` as the kernels' table (``phase_table``: every
        contract where ``search_in`` names none)."""
        from agents.pimc_nb import phase_table

        kit = self.kit
        if phases and not kit.item_labels:
            raise InvalidConfigError(f"pimc option search= names decisions valued by "
                                     f"play-outs of drawn deals; {self.game} leaves none of "
                                     f"its decisions to a network's search that way")
        try:
            return phase_table(kit.tag, contracts or list(kit.item_labels), phases)
        except ValueError as e:
            raise InvalidConfigError(f"pimc option search=/search_in=: {e}") from None

    def _compiled_endgame(self):
        """``endgame=``'s (and ``search=``'s) one compiled call for the table's batch, the
        network's forward and the search together (``network_endgame_actions``;
        ``critic_endgame_actions`` for a network seated as a critic): None where the network
        plays in torch."""
        from agents.belief_pimc_nb import (belief_search, critic_endgame_actions,
                                           network_endgame_actions)
        from agents.neural.forward_nb import Network
        from cardsim.jit import Rebound

        # uniform draws: one candidate per deal kept, as plain pimc draws
        search = belief_search(self.search.params, endgame=self.endgame,
                               searched=self._searched, table=self._table)
        packed, critic = self.net.packed_single(), self.net.critic_parts()
        if packed is not None:
            network = Network(*packed)
            kernel = Rebound(network_endgame_actions, varying=(1, 2, 3, 4, 5, 8))
            return lambda e, rows, obs, legal: kernel(e.game, e.states, e.R, rows, obs, legal,
                                                      network, search, e.rng)
        if critic is not None:
            prior, critic = critic
            kernel = Rebound(critic_endgame_actions, varying=(2, 3, 4, 5, 6, 7))
            return lambda e, rows, obs, legal: kernel(e.game, prior, e.states, e.R, e.rng, rows,
                                                      obs, legal, critic, search)
        return None

    def reset(self, seed: int) -> None:
        """Seed the playing network's prior too, where it has one (``net_prior=``)."""
        super().reset(seed)
        if self.net is not None:
            self.net.reset(seed)

    def check_rules(self, rules) -> None:
        """Refuse to play a rules variant the networks were not trained for."""
        if self.beliefs is not None:
            self.beliefs.check_rules(rules)
        if self.net is not None:
            self.net.check_rules(rules)

    def act(self, observations, legal_masks) -> np.ndarray:
        """Actions for the table's batch: the beliefs of every observation in one forward,
        then the compiled search of each game's engine row (``legal_masks`` is not needed:
        the search only ever returns a legal action)."""
        engine = getattr(observations, "engine", None)
        if engine is None:
            raise InvalidConfigError(f"agent {self.label!r} searches the engine rows the "
                                     f"table gives with its observations; seat it at the "
                                     f"table (tournament, simulate, the environments)")
        if self._one_call is not None:  # endgame= with the compiled network: one call
            return self._one_call(engine, np.ascontiguousarray(engine.rows, dtype=np.int64),
                                  np.ascontiguousarray(observations, dtype=np.float32),
                                  np.ascontiguousarray(legal_masks, dtype=np.bool_))
        from agents.belief_pimc_nb import PLACES, belief_actions

        obs = np.asarray(observations, dtype=np.float32)
        rows = np.asarray(engine.rows, dtype=np.int64)
        # the network's actions (with a prior it reads the engine rows too)
        refs = None if self.net is None else self.net.act(observations, legal_masks)
        if self.split:  # the network's actions; the last tricks and search= searched
            return self._split_actions(engine, rows, obs, refs)
        if self.beliefs is not None:
            logp = self.beliefs.log_places(obs)
        else:
            logp = np.zeros((len(obs), 64, PLACES))  # plain pimc's draws (beta 0)
        return belief_actions(engine.game, engine.states, engine.R, rows,
                              self.search.params, logp, self.draws, self.beta, engine.rng,
                              ratio=self.ratio, refs=refs)

    def _split_actions(self, engine, rows, obs, refs) -> np.ndarray:
        """``endgame=``/``search=`` on the Python path: the network's action ``refs`` where
        it decides, the search's on the rows it takes (``searched_rows``: the others draw
        nothing), their draws weighed by the belief network, asked about those rows alone."""
        from agents.belief_pimc_nb import PLACES, belief_search, endgame_actions, searched_rows

        refs = np.ascontiguousarray(refs, dtype=np.int64)
        game, states, R = engine.game, engine.states, engine.R
        picked = searched_rows(game, states, R, rows, self.search.params, self.endgame,
                               self._searched)
        if not picked.any():
            return refs
        if self.beliefs is None:  # plain pimc's draws (beta 0)
            logp = np.zeros((int(picked.sum()), 64, PLACES))
        else:
            logp = self.beliefs.log_places(obs[picked])
        actions = refs.copy()
        search = belief_search(self.search.params, self.draws, self.beta, self.ratio,
                               self.endgame, self._searched, self._table)
        actions[picked] = endgame_actions(game, states, R, rows[picked], refs[picked],
                                          np.ascontiguousarray(logp), search, engine.rng)
        return actions


def _names(value, option: str) -> list[str]:
    """An option's names joined by ``+`` (or a list of them, from a YAML mapping) as a list;
    None: none."""
    if value is None:
        return []
    names = value if isinstance(value, (list, tuple)) else str(value).split("+")
    names = [str(n).strip() for n in names]
    if not all(names):
        raise InvalidConfigError(f"pimc option {option}= needs names joined by +, got "
                                 f"{value!r}")
    return names
