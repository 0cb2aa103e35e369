"""Named Debertz action ids. A legal mask is an int64 with bit ``a`` set when action a is legal."""

from cardsim.cards import DEBERTZ_DECK, SUIT_LETTERS

# 0..31: play that card (Debertz card index).
PASS = 32          # D4: pass in either bidding round
PLAY = 33          # D4 round 1: accept the turn-up suit as trump
NAME_SUIT = 34     # D4 round 2: 34 + suit names that suit (34..37)
SWAP = 38          # D5: swap the 7 of trump for the turn-up
KEEP = 39          # D5: keep the 7 of trump
NUM_ACTIONS = 40


def action_name(action: int) -> str:
    """Readable name of an action id: a card ('TS'), 'pass', 'play', 'name_H', 'swap', 'keep'."""
    a = int(action)
    if 0 <= a < 32:
        return DEBERTZ_DECK.format(a)
    if a == PASS:
        return "pass"
    if a == PLAY:
        return "play"
    if NAME_SUIT <= a < NAME_SUIT + 4:
        return "name_" + SUIT_LETTERS[a - NAME_SUIT]
    if a == SWAP:
        return "swap"
    if a == KEEP:
        return "keep"
    raise ValueError(f"no Debertz action has id {a}; ids are 0..{NUM_ACTIONS - 1}")


ACTION_NAMES = tuple(action_name(a) for a in range(NUM_ACTIONS))
