"""Named Barbu action ids (80 of them) and how a legal set is represented.

Ids:  0..51 play that card (Barbu card index, cardsim.cards) | 52 Domino pass (B5) |
53..59 choose a contract (B3.2, order of ``CONTRACT_NAMES``) | 60..63 name the trump suit
(S H D C) | 64..76 name the Domino starting rank (2..A) | 77 no double, 78 double,
79 redouble (B6, towards the one target the engine is asking about, see engine_nb).

Legal sets: 80 ids do not fit one non-negative int64, but the legal actions of any phase are
always inside one contiguous id range at most 53 wide (cards + pass, contracts, suits, ranks or
double choices). So ``engine_nb.legal_mask(st, R)`` returns a pair ``(base, bits)``: action
``base + k`` is legal exactly when bit ``k`` of ``bits`` is set. ``engine_nb.legal_array``
fills a caller-provided uint8 array of NUM_ACTIONS entries instead (for environments).
"""

from cardsim.cards import BARBU_DECK, SUIT_LETTERS

# Contract numbers (B4, B5); their names are the hand-record values (docs/hand-records.md).
NO_TRICKS, NO_QUEENS, NO_LAST_TWO, NO_HEARTS, NO_KING, TRUMPS, DOMINO = range(7)
NUM_CONTRACTS = 7
CONTRACT_NAMES = ("no_tricks", "no_queens", "no_last_two", "no_hearts", "no_king", "trumps",
                  "domino")
ALL_CONTRACTS = (1 << NUM_CONTRACTS) - 1
# B8: the contract scores of one deal add up to these totals.
CONTRACT_TOTALS = (-26, -24, -30, -30, -20, 65, 65)

NUM_CARDS = 52
PASS = 52               # B5: Domino pass (legal only when no card is playable)
CONTRACT = 53           # 53 + contract number
TRUMP_SUIT = 60         # 60 + suit
START_RANK = 64         # 64 + rank (2 = 0 ... A = 12)
NO_DOUBLE = 77          # B6: leave the pair as it is
DOUBLE = 78             # B6: double the target
REDOUBLE = 79           # B6: redouble a target who doubled the speaker
NUM_ACTIONS = 80


def action_name(action: int) -> str:
    """Readable name of an action id: a card ('QS'), 'pass', a contract name ('no_king'),
    'trump_H', 'start_7', 'no_double', 'double', 'redouble'."""
    a = int(action)
    if 0 <= a < NUM_CARDS:
        return BARBU_DECK.format(a)
    if a == PASS:
        return "pass"
    if CONTRACT <= a < CONTRACT + NUM_CONTRACTS:
        return CONTRACT_NAMES[a - CONTRACT]
    if TRUMP_SUIT <= a < TRUMP_SUIT + 4:
        return "trump_" + SUIT_LETTERS[a - TRUMP_SUIT]
    if START_RANK <= a < START_RANK + 13:
        return "start_" + BARBU_DECK.ranks[a - START_RANK]
    if a == NO_DOUBLE:
        return "no_double"
    if a == DOUBLE:
        return "double"
    if a == REDOUBLE:
        return "redouble"
    raise ValueError(f"no Barbu action has id {a}; ids are 0..{NUM_ACTIONS - 1}")


ACTION_NAMES = tuple(action_name(a) for a in range(NUM_ACTIONS))
_IDS = {name: a for a, name in enumerate(ACTION_NAMES)}


def action_id(name) -> int:
    """Action id of a name from ``ACTION_NAMES`` (cards also as '10h', 'Q♠'), or an int id."""
    if isinstance(name, (int,)) and not isinstance(name, bool):
        if 0 <= name < NUM_ACTIONS:
            return int(name)
        raise ValueError(f"no Barbu action has id {name}; ids are 0..{NUM_ACTIONS - 1}")
    if hasattr(name, "__index__") and not isinstance(name, (str, bool)):
        return action_id(int(name))
    if not isinstance(name, str):
        raise ValueError(f"an action is an id or a name, got {name!r}")
    key = name.strip()
    if key in _IDS:
        return _IDS[key]
    if key.lower() in _IDS:
        return _IDS[key.lower()]
    return BARBU_DECK.parse(key)
