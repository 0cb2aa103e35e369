"""Helpers for the Barbu tests: hand-built deals and scripted play.

A module of its own, not conftest.py: test modules import from it by name, and several test
folders have a conftest.py, so ``from conftest import`` depends on collection order."""

from cardsim.barbu.game import BarbuGame
from cardsim.barbu.rules import BarbuRules


def cards(text):
    """'S2-S8 5H D2-D6' style: ranges within one suit written as <suit><rank>-<suit><rank>."""
    ranks = "23456789TJQKA"
    out = []
    for tok in text.split():
        if "-" in tok:
            a, b = tok.split("-")
            suit = a[0]
            for r in ranks[ranks.index(a[1]):ranks.index(b[1]) + 1]:
                out.append(r + suit)
        elif tok[0] in "SHDC" and len(tok) == 2 and tok[1] in ranks:
            out.append(tok[1] + tok[0])
        else:
            out.append(tok)
    return out


def deal_of(*hands_text):
    hands = [cards(h) for h in hands_text]
    assert [len(h) for h in hands] == [13] * 4, [len(h) for h in hands]
    assert len({c for h in hands for c in h}) == 52
    return hands


SUIT_PER_SEAT = ("S2-SA", "H2-HA", "D2-DA", "C2-CA")


def new_game(hands, declarer=0, rules=None, **kw):
    if isinstance(rules, dict):
        rules = BarbuRules(**rules)
    return BarbuGame.from_deal(hands, declarer, rules=rules, **kw)


def no_doubles(game):
    """Answer every doubling question with no_double (or the forced double)."""
    while game.phase() == "double":
        legal = game.legal_action_names()
        game.step("no_double" if "no_double" in legal else legal[0])


def play(game, *names):
    for n in names:
        game.step(n)


def play_lowest(game):
    """Play the lowest legal card (or pass) until the deal ends."""
    while game.phase() == "play":
        game.step(game.legal_actions()[0])

