"""Belief networks: from a seat's observation, the chance of each place every card it cannot
see may be in (each other seat, the dead stock).

The network is the package's ``ActionHeadNet`` with ``cards x PLACES`` outputs, read as one
row of logits per card: place 0 is the dead stock (a card in no hand: Debertz's undealt or
set-aside cards), place k the seat k places after the seat observing. It sees only the
observation vector, so its beliefs cannot leak a hidden card; it is trained (``cardsim train``
with ``algorithm: beliefs``, ``experiments/train/beliefs.py``) by cross-entropy against where
the cards really were in games of the players it will meet, which is how it learns what a
bid, a lead or a discard says about a hand. ``pimc:beliefs=NAME`` draws its deals by it
(``agents/belief_pimc.py``). Its checkpoints are neural checkpoints whose ``algorithm`` is
``beliefs``.
"""

from __future__ import annotations

import numpy as np
import torch

from cardsim.games import Game
from cardsim.errors import CheckpointError

PLACES = 4                       # 0: the dead stock; k = 1..3: the seat k after the observer
ALGORITHM = "beliefs"


def output_size(game: Game) -> int:
    """Outputs of a belief network of ``game``: a logit per card and place."""
    return game.num_cards * PLACES


def true_places(game: Game, states: np.ndarray, seats: int) -> np.ndarray:
    """Where each card lies in each engine state row, seen from the seat to act: an int8
    array (rows, cards) holding the place (0 the dead stock, k the seat k after the one to
    act), or -1 for a card that seat sees (its own, or played). What a belief network is
    trained to predict."""
    L = game.layout
    n_cards = game.num_cards
    states = np.asarray(states)
    rows = np.arange(len(states))
    me = states[:, L.TURN]
    seen = states[rows, L.HANDS + me] | states[:, L.PLAYED]
    places = np.zeros((len(states), n_cards), dtype=np.int8)
    cards = np.arange(n_cards, dtype=np.int64)
    for k in range(1, seats):
        hand = states[rows, L.HANDS + (me + k) % seats]
        places[((hand[:, None] >> cards) & 1) == 1] = k
    places[((seen[:, None] >> cards) & 1) == 1] = -1
    return places


class Beliefs:
    """A loaded belief network: ``log_places(observations)`` for a batch."""

    def __init__(self, data: dict, path, game: Game):
        self.data, self.path = data, path
        self.net = data["net"]
        self.game = data["game"]
        self.cards = game.num_cards
        config = (data.get("training") or {}).get("config") or {}
        # "sampler": the network learnt what to add to the sampler's own chances
        self.prior = (config.get("args") or {}).get("prior", "none")

    @torch.no_grad()
    def log_places(self, observations: np.ndarray) -> np.ndarray:
        """Log chances, (n, 64, PLACES) float64: row i, card c, place p (cards past the
        deck's size are 0 and never read). A network learnt over the sampler's chances
        (``prior == "sampler"``) gives instead the log factor it multiplies them by: up to
        a constant per card, the log of its belief over the sampler's chance, which is what
        weighs a deal the sampler drew."""
        obs = torch.as_tensor(np.asarray(observations, dtype=np.float32))
        logits = self.net(obs).view(len(obs), self.cards, PLACES)
        out = np.zeros((len(obs), 64, PLACES), dtype=np.float64)
        if self.prior == "sampler":
            out[:, :self.cards] = logits.double().numpy()
        else:
            out[:, :self.cards] = torch.log_softmax(logits, dim=-1).double().numpy()
        return out

    def check_rules(self, rules) -> None:
        """Refuse a rules variant the network was not trained for."""
        from agents.neural.checkpoint import check_rules

        check_rules(self.data, rules, self.path)


def load_beliefs(text: str, game: Game) -> Beliefs:
    """The belief network a ``beliefs`` option names (a model zoo name, a file or a training
    run directory), checked: a neural checkpoint of ``game`` whose algorithm is beliefs."""
    from agents.neural.checkpoint import load_checkpoint
    from agents.neural.zoo import checkpoint_path

    path = checkpoint_path(text)
    data = load_checkpoint(path, game=game.name)
    if data.get("algorithm") != ALGORITHM or data["net"].num_actions != output_size(game):
        raise CheckpointError(f"checkpoint {path} is not a belief network (its algorithm is "
                              f"{data.get('algorithm')!r}); pimc:beliefs= takes one trained "
                              f"with algorithm beliefs")
    return Beliefs(data, path, game)
