"""Helpers shared by the known-answer tests: hand-built Debertz deals and scripted play."""

from cardsim.cards import DEBERTZ_DECK
from cardsim.debertz.actions import action_name
from cardsim.debertz.game import DebertzGame


def cards(text):
    return sorted(text.split())


def mask(text):
    return DEBERTZ_DECK.mask_of(text.split())


def legal_names(game):
    return sorted(action_name(a) for a in game.legal_actions())


def deal9(rules, full_hands, turnup, dealer=0, **kw):
    """A 2-3 player deal from each seat's 9 cards: the first 6 are dealt first, the last 3
    are its share of the stock (dealt from dealer+1 round the table)."""
    n = rules.players
    hands = [h.split() for h in full_hands]
    stock = []
    for k in range(1, n + 1):
        stock += hands[(dealer + k) % n][6:]
    return DebertzGame.from_deal(rules, [h[:6] for h in hands], turnup, stock, dealer=dealer, **kw)


def play(game, actions):
    """Step a game through actions given as a list or a space-separated string."""
    for a in actions.split() if isinstance(actions, str) else actions:
        game.step(a)
