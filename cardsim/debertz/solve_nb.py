"""Card play with every hand known: the exact value of each legal card (Debertz, D7-D9).

Given all hands (a real position, or a deal drawn by ``sample_nb``), ``solve_root`` returns
for each legal card of the seat to act the value of the rest of the round when every seat
plays perfectly from then on: the seat's side maximises, every other side minimises (with
three sides the others are assumed to play together against the seat). The value is the
side's points minus everyone else's over the cards still to be won: card points of the
tricks (D2), 10 for the last trick, and the sequences and bella of a side whose first trick
is still to come (D6.4, D7: they count only once the side takes a trick). Points already
won do not change the choice and are left out. A round cut short by the "points" end mode
(D11) is solved as if played out.

Search: alpha-beta over cards, a transposition table at trick boundaries (keyed by the cards
still out, the leader and which sides have a trick: within one deal these fix the
position), the table's best card first, then a killer lead (the lead that cut off a sibling
search at the same depth), a cut wherever no side can gain the points still to come beyond
the window, and equal cards merged (two zero-point cards of a
suit with no live card between them in trick order give the same result, so only one is
searched). A node budget turns the solver into a heuristic one: once it is spent, trick
boundaries are valued by a static count (every seat keeps the points of its own cards).

**Max-n.** With three sides (three players, or four each for himself) the paranoid model
takes the others for one team against the seat, which they are not. ``P_MAXN`` = 1 solves
instead for the points every side takes when each side to act plays for its own value (its
points less everyone else's; max-n, ``cardsim.maxn_nb``), and the value is the seat's side's
at that outcome. With two sides the two models are the same game.

``P_MAXN`` = 2 (``MAXN_RECORDED``) has every side play for what is written down instead:
its recorded score (D9.2: a bidder who does not beat every opponent records nothing and the
best opponent takes its points, a tie puts them in the pot, an earlier pot goes to the
round's unique top scorer; D9.3: the byte penalty when this byte would be the bidder's third)
times the number of other sides, less the others' recorded scores. These depend on all the
round's points, so the search keeps each side's round points so far (``P_ACC``), the value is
that of the whole round, and the table key carries a hash of those points. The no-trick
penalty (D9.4) is not weighed.
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import lowest_bit, popcount
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import (card_rank_value, legal_in_trick, mask_points,
                                       points_so_far, side_of)
from cardsim.debertz.tables import (CARD_POINTS, LAST_TRICK_BONUS, PLAIN_HIGHER,
                                    PLAIN_STRENGTH, TRUMP_HIGHER, TRUMP_STRENGTH)
from cardsim.game_nb import GameTag
from cardsim.jit import WITH_REFCOUNT, ix
from cardsim.maxn_nb import F_POINTS, F_SAVED, F_SLOT, F_WINNER, open_frame, probe_scores
from cardsim.solve_nb import solve_root as solve_cards
from cardsim.solve_row_nb import P_BUDGET, P_GEN, P_NODES, P_TRICK_LEN
# this game's pieces of the search that read only the fields every game's row shares
from cardsim.solve_row_nb import count_node, generation, restore_budget, trick_len  # noqa: F401
from cardsim.transposition_nb import INF
from cardsim.transposition_nb import new_table as shared_table

# the solver's position row; P_TRICK_LEN (8), P_NODES (25), P_BUDGET (26) and P_GEN (27)
# stand where every game's row has them (cardsim.solve_row_nb)
P_HANDS = 0        # [4] cards held
P_UNUSED = 4       # [4] (free)
P_LEADER = 9
P_TOP = 10         # seat winning the trick so far
P_BEST = 11        # strength of its card (engine card_rank_value: trumps 16+), -1 before
P_TRICK_POINTS = 12
P_TRICKS_LEFT = 13  # tricks still to complete, the current one included
P_HAS_TRICK = 14   # bit per side: sides that have taken a trick
P_PLAYERS = 15
P_TEAMS = 16
P_TRUMP = 17
P_EXEMPTION = 18   # partner exemption in force (D8.5)
P_OVERTRUMP = 19   # overtrump_on_ruff (D8.4)
P_SIDE = 20        # the side the values are for
P_BONUS = 21       # [4] per side: sequences + bella it scores with its first trick
P_TRICKS = 28     # [4 * 10] cards of each trick by tricks left: a completed trick's cards stay
                  # in place while deeper tricks are searched
P_MAXN = 68        # 0: paranoid; max-n, every side playing for its own: 1 round points,
                   # 2 recorded score (MAXN_RECORDED)
P_ACC = 69         # [4] per side: its round points so far (D9.1), kept up to date by max-n
P_BIDDER = 73      # the bidder's side (D9.2)
P_POT = 74         # the pot waiting for a round's winner (D9.2)
P_BYTE_COST = 75   # what a byte would cost the bidder beyond its points (D9.3 penalty due)
P_DEALER = 76      # the dealer (D9.2: remainders go in order from the dealer)
P_KILLERS = 77     # [33] by cards still held: the lead that last cut the search off there
POSITION_WIDTH = 110

MAXN_POINTS = 1    # P_MAXN: each side plays for its round points less everyone else's
MAXN_RECORDED = 2  # P_MAXN: ... for its recorded score less the others' mean (D9.2, D9.3)

ZERO_PLAIN = 0x07070707   # the zero-point ranks 7, 8, 9 of every suit
ZERO_TRUMP = 0x03         # of the trump suit: 7, 8
DEBERTZ = GameTag("debertz")  # picks this module's pieces in cardsim.maxn_nb.search_maxn
TT_BITS = 17       # default table: 2**17 entries (5 MB)

# trick order of each rank (7 8 9 T J Q K A = 0..7), 0 lowest, plain suit then trump suit;
# and the rank at each trick order
ORDER = np.concatenate([PLAIN_STRENGTH, TRUMP_STRENGTH])
RANK_AT = np.concatenate([np.argsort(PLAIN_STRENGTH), np.argsort(TRUMP_STRENGTH)])


@njit(cache=True, **WITH_REFCOUNT)
def new_table(bits=TT_BITS):
    """A transposition table of 2**bits entries for ``solve_root`` (cardsim.transposition_nb),
    reusable across solves of any deals."""
    return shared_table(bits)


@njit(cache=True)
def position_of(st, R, side, pos):
    """Fill ``pos`` from engine state ``st`` (PH_PLAY, its hands as they are) for ``side``."""
    n = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    for k in range(POSITION_WIDTH):
        pos[k] = 0
    for s in range(n):
        pos[P_HANDS + s] = st[L.HANDS + s]
    tlen = st[L.TRICK_LEN]
    left = (8 if n == 4 else 9) - st[L.TRICK_NO]
    for k in range(tlen):
        pos[P_TRICKS + 4 * left + k] = st[L.TRICK + k]
    pos[P_TRICK_LEN] = tlen
    pos[P_LEADER] = st[L.LEADER]
    pos[P_TOP] = st[L.TRICK_TOP]
    pos[P_BEST] = st[L.TRICK_BEST]  # the engine's strength: card_rank_value of the best card
    pos[P_TRICK_POINTS] = st[L.TRICK_POINTS]
    pos[P_TRICKS_LEFT] = left
    has = 0
    for s in range(n):
        if st[L.TRICKS_WON + s] > 0:
            has |= 1 << side_of(s, teams)
    pos[P_HAS_TRICK] = has
    pos[P_PLAYERS] = n
    pos[P_TEAMS] = teams
    pos[P_TRUMP] = st[L.TRUMP]
    pos[P_EXEMPTION] = 1 if (teams and R[L.R_PARTNER_EXEMPTION]) else 0
    pos[P_OVERTRUMP] = R[L.R_OVERTRUMP_ON_RUFF]
    pos[P_SIDE] = side
    mw = st[L.MELD_WINNER]
    if mw >= 0:
        ms = side_of(mw, teams)
        for s in range(n):
            if side_of(s, teams) == ms:
                pos[P_BONUS + ms] += st[L.SEQ_POINTS + s]
    b = st[L.BELLA_SEAT]
    if b >= 0:
        pos[P_BONUS + side_of(b, teams)] += 20
    for q in range(R[L.R_SIDES]):
        pos[P_ACC + q] = points_so_far(st, R, q, True)
    bside = side_of(st[L.BIDDER], teams)
    pos[P_BIDDER] = bside
    pos[P_POT] = st[L.POT]
    if R[L.R_BYTE_PENALTY] > 0 and (st[L.BYTE_COUNTS + bside] + 1) % 3 == 0:
        pos[P_BYTE_COST] = R[L.R_BYTE_PENALTY]
    pos[P_DEALER] = st[L.DEALER]
    return pos


@njit(cache=True, inline="always")
def trick_at(pos):
    """Index in ``pos`` of the current trick's first card."""
    return P_TRICKS + 4 * pos[P_TRICKS_LEFT]


@njit(cache=True, inline="always")
def to_act(pos):
    """The seat to play the next card: the leader's followers in turn, one per card already in the
    trick, wrapping round the table of ``P_PLAYERS`` seats."""
    s = pos[P_LEADER] + pos[P_TRICK_LEN]
    n = pos[P_PLAYERS]
    return s - n if s >= n else s


@njit(cache=True)
def legal_of(pos, seat):
    """Legal cards of ``seat`` (D8) in the solver's position."""
    hand = pos[P_HANDS + seat]
    if pos[P_TRICK_LEN] == 0:
        return hand
    return legal_in_trick(hand, seat, pos[trick_at(pos)] >> 3, pos[P_TRUMP], pos[P_TOP], pos[P_BEST],
                          pos[P_EXEMPTION], pos[P_OVERTRUMP])


@njit(cache=True)
def distinct_cards(pos, cards):
    """``cards`` less the zero-point cards equal to a higher one kept (no live card of the
    suit between them in trick order): they lead to the same result."""
    trump = pos[P_TRUMP]
    # most often no suit has two zero-point cards (7, 8, 9; of trumps 7, 8): nothing to merge
    zero = (cards & ZERO_PLAIN & ~(0xFF << (trump * 8))) | (cards & (ZERO_TRUMP << (trump * 8)))
    pairs = False
    for suit in range(4):
        b = (zero >> (suit * 8)) & 0xFF
        pairs |= b & (b - 1) != 0
    if not pairs:
        return cards
    live = held_cards(pos)
    for k in range(pos[P_TRICK_LEN]):
        live |= 1 << pos[trick_at(pos) + k]
    keep = 0
    for suit in range(4):
        mine = (cards >> (suit * 8)) & 0xFF
        if mine & (mine - 1) == 0:  # none or one card: nothing to merge
            keep |= mine << (suit * 8)
            continue
        t = 8 if suit == trump else 0
        suit_live = (live >> (suit * 8)) & 0xFF
        # walk the suit's ranks from the highest in trick order down
        prev_zero = False   # the last live card seen was ours, kept, and worth 0
        for order in range(7, -1, -1):
            r = RANK_AT[t + order]
            if not (suit_live >> r) & 1:
                continue
            ours = (mine >> r) & 1
            zero = CARD_POINTS[t + r] == 0
            if ours:
                if not (prev_zero and zero):
                    keep |= 1 << (suit * 8 + r)
                prev_zero = zero
            else:
                prev_zero = False
    return keep


@njit(cache=True)
def static_value(pos):
    """Budget spent: every seat's side keeps the points of the cards it holds."""
    trump = pos[P_TRUMP]
    v = 0
    for s in range(pos[P_PLAYERS]):
        pts = mask_points(pos[P_HANDS + s], trump)
        v += pts if side_of(s, pos[P_TEAMS]) == pos[P_SIDE] else -pts
    return v


@njit(cache=True)
def last_trick(pos):
    """The value of the last trick: every seat has one card left, so nothing is chosen."""
    n = pos[P_PLAYERS]
    seat = pos[P_LEADER]
    for _ in range(n):
        card = lowest_bit(pos[P_HANDS + seat])
        saved, gained = apply_card(pos, seat, card)
        if pos[P_TRICK_LEN] == 0:  # the trick is complete
            undo_card(pos, seat, card, saved)
            for _ in range(n - 1):  # take the others back, last first
                seat = seat - 1 if seat > 0 else n - 1
                pos[P_TRICK_LEN] -= 1
                pos[P_HANDS + seat] |= 1 << pos[trick_at(pos) + pos[P_TRICK_LEN]]
            pos[P_TOP] = -1
            pos[P_BEST] = -1
            pos[P_TRICK_POINTS] = 0
            return gained
        seat = seat + 1 if seat + 1 < n else 0
    return 0


@njit(cache=True, inline="always")
def held_cards(pos):
    """The cards still in the hands."""
    held = 0
    for s in range(pos[P_PLAYERS]):
        held |= pos[P_HANDS + s]
    return held


@njit(cache=True, inline="always")
def points_to_come(pos, held):
    """The card points still ``held`` or in the trick, the last trick's 10 and the sequences
    and bella of sides still without a trick."""
    rest = mask_points(held, pos[P_TRUMP]) + pos[P_TRICK_POINTS] + LAST_TRICK_BONUS
    for q in range(4):
        if not (pos[P_HAS_TRICK] >> q) & 1:
            rest += pos[P_BONUS + q]
    return rest


@njit(cache=True, inline="always")
def table_key(pos):
    """The transposition key of a trick boundary: the cards still out, the leader and which
    sides have a trick (within one deal these fix the position)."""
    return held_cards(pos) | (pos[P_LEADER] << 32) | (pos[P_HAS_TRICK] << 34)


# --- this game's pieces of the search written once for both games (cardsim.solve_nb), besides
# those of every game's row (count_node, trick_len, generation, restore_budget: solve_row_nb)
@njit(cache=True, inline="always")
def position_width():
    """Length of this game's position row (``POSITION_WIDTH``), what a caller allocates for
    ``pos``."""
    return POSITION_WIDTH


@njit(cache=True, inline="always")
def settle_boundary(pos, alpha, beta):
    """A trick boundary valued at once: the round's end, its last trick (nothing is chosen)
    or, with the budget spent, the static count."""
    if pos[P_TRICKS_LEFT] == 0:
        return True, 0
    if pos[P_TRICKS_LEFT] == 1:
        return True, last_trick(pos)
    if pos[P_BUDGET] > 0 and pos[P_NODES] > pos[P_BUDGET]:
        return True, static_value(pos)
    return False, 0


@njit(cache=True, inline="always")
def sure_trump_points(mine, others):
    """Card points of the trumps ``mine`` (the trump suit's 8 bits) that beat every trump of
    ``others``: each wins the trick it falls in, whoever leads (D8: the highest trump takes
    the trick)."""
    pts = 0
    m = mine
    while m != 0:
        r = lowest_bit(m)
        m &= m - 1
        if TRUMP_HIGHER[r] & others == 0:
            pts += CARD_POINTS[8 + r]
    return pts


@njit(cache=True, inline="always")
def settle_node(pos, alpha, beta):
    """No side can gain more than every point still to come: outside (-rest, rest) the test
    is decided without searching (most often deep in a zero-window test). An exact solve
    (no budget) without teams narrows that: the trumps of one side above every trump of the
    other (and of the trick on the table) are sure to take their points, so the value lies in
    ``[2 * ours - rest, rest - 2 * theirs]`` (``ours``: the side's sure points, with its
    sequences and bella if it has no trick yet). Killer leads are kept per number of cards
    still held."""
    held = held_cards(pos)
    rest = points_to_come(pos, held)
    lo = -rest
    hi = rest
    if pos[P_BUDGET] == 0 and not pos[P_TEAMS]:  # 2 against 2: measured no fewer nodes
        trump = pos[P_TRUMP]
        ours = 0
        for s in range(pos[P_PLAYERS]):
            if side_of(s, pos[P_TEAMS]) == pos[P_SIDE]:
                ours |= pos[P_HANDS + s]
        theirs = held & ~ours
        table = 0
        for k in range(pos[P_TRICK_LEN]):
            table |= 1 << pos[trick_at(pos) + k]
        shift = trump * 8
        ot = (ours >> shift) & 0xFF
        tt_ = (theirs >> shift) & 0xFF
        on_table = (table >> shift) & 0xFF
        if ot != 0:
            x = sure_trump_points(ot, tt_ | on_table)
            if x > 0 and not (pos[P_HAS_TRICK] >> pos[P_SIDE]) & 1:
                x += pos[P_BONUS + pos[P_SIDE]]
            lo = 2 * x - rest
        if tt_ != 0:
            hi = rest - 2 * sure_trump_points(tt_, ot | on_table)
    if hi <= alpha:
        return True, hi, -1
    if lo >= beta:
        return True, lo, -1
    return False, 0, P_KILLERS + popcount(held)


@njit(cache=True, inline="always")
def maximises(pos, seat):
    """Whether ``seat`` maximises the value: the seats of the side the values are for (D1: partners
    share a side); every other side minimises (paranoid)."""
    return side_of(seat, pos[P_TEAMS]) == pos[P_SIDE]


@njit(cache=True, inline="always")
def moves_of(pos, seat):
    """The cards ``seat`` may play that are worth searching: its legal cards (D8) with equal ones
    merged (``distinct_cards``)."""
    return distinct_cards(pos, legal_of(pos, seat))


@njit(cache=True, inline="always")
def wide_with_budget(pos):
    """Zero-window tests with a budget too (measured the stronger choice here)."""
    return False


@njit(cache=True, inline="always")
def zero_window_tests(pos):
    """An exact solve without teams ends its zero-window tests with one window search after
    4 of them (their fail-soft bounds creep: half the nodes at the first trick with four
    sides, a third off the 90th percentile with three); a budgeted one never does (its
    values depend on the nodes searched), nor 2 against 2 (measured slower)."""
    return 4 if pos[P_BUDGET] == 0 and not pos[P_TEAMS] else -1


@njit(cache=True)
def order_pick(pos, moves, seat):
    """The next card to try, likely best first: the leader a master card (no card left in
    the other hands beats it), the richest first, else its weakest card; a follower whose
    side wins the trick: the last to play its richest card that does not take it over, an
    earlier one its cheapest; otherwise the cheapest card that takes the trick, else its
    cheapest card. (Each choice measured by the nodes it saves on random positions.)"""
    trump = pos[P_TRUMP]
    tlen = pos[P_TRICK_LEN]
    led = (pos[trick_at(pos)] >> 3) if tlen > 0 else -1
    ours = tlen > 0 and side_of(pos[P_TOP], pos[P_TEAMS]) == side_of(seat, pos[P_TEAMS])
    best_card = -1
    best_score = -INF
    others = 0
    if tlen == 0:
        for s in range(pos[P_PLAYERS]):
            if s != seat:
                others |= pos[P_HANDS + s]
    m = moves
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        pts = CARD_POINTS[ix(((c >> 3) == trump) * 8 + (c & 7))]
        if tlen == 0:
            v = card_rank_value(c, c >> 3, trump)
            higher = TRUMP_HIGHER[c & 7] if (c >> 3) == trump else PLAIN_HIGHER[c & 7]
            if others & (higher << (c & ~7)) == 0:  # the suit's master: cash it, rich first
                score = 2000 + pts * 16 + v
            else:
                score = -v * 16 - pts
        else:
            v = card_rank_value(c, led, trump)
            if ours and tlen + 1 == pos[P_PLAYERS]:
                score = pts * 16 - max(v, 0) - (1000 if v > pos[P_BEST] else 0)
            elif ours:
                score = -pts * 16 - max(v, 0) - (1000 if v > pos[P_BEST] else 0)
            elif v > pos[P_BEST]:
                score = 1000 - v * 16 + pts
            else:
                score = -pts * 16 - max(v, 0)
        if score > best_score:
            best_score = score
            best_card = c
    return best_card


@njit(cache=True, inline="always")
def apply_card(pos, seat, card):
    """Play ``card`` for ``seat``. Returns what ``undo_card`` needs and the value the card
    settled: the completed trick's points (D2, D8, D9.1), signed for ``P_SIDE``, else 0."""
    trump = pos[P_TRUMP]
    tlen = pos[P_TRICK_LEN]
    at = trick_at(pos)
    led = card >> 3 if tlen == 0 else pos[at] >> 3
    saved = (pos[P_TOP], pos[P_BEST], pos[P_HAS_TRICK], pos[P_LEADER], pos[P_TRICK_POINTS])
    pos[P_HANDS + seat] &= ~(1 << card)
    pos[at + tlen] = card
    v = card_rank_value(card, led, trump)
    if v > pos[P_BEST]:
        pos[P_BEST] = v
        pos[P_TOP] = seat
    pos[P_TRICK_POINTS] += CARD_POINTS[ix(((card >> 3) == trump) * 8 + (card & 7))]
    if tlen + 1 < pos[P_PLAYERS]:
        pos[P_TRICK_LEN] = tlen + 1
        return saved, 0
    winner = pos[P_TOP]
    wside = side_of(winner, pos[P_TEAMS])
    gained = pos[P_TRICK_POINTS]
    if pos[P_TRICKS_LEFT] == 1:
        gained += LAST_TRICK_BONUS
    if not (pos[P_HAS_TRICK] >> wside) & 1:  # D6.4, D7: first trick of the side
        gained += pos[P_BONUS + wside]
    pos[P_HAS_TRICK] |= 1 << wside
    pos[P_TRICK_LEN] = 0
    pos[P_TRICK_POINTS] = 0
    pos[P_TOP] = -1
    pos[P_BEST] = -1
    pos[P_LEADER] = winner
    pos[P_TRICKS_LEFT] -= 1
    return saved, gained if wside == pos[P_SIDE] else -gained


@njit(cache=True, inline="always")
def undo_card(pos, seat, card, saved):
    """Take back ``apply_card(pos, seat, card)``."""
    if pos[P_TRICK_LEN] == 0:  # the card completed a trick
        pos[P_TRICKS_LEFT] += 1
        pos[P_TRICK_LEN] = pos[P_PLAYERS] - 1
    else:
        pos[P_TRICK_LEN] -= 1
    pos[P_TOP], pos[P_BEST], pos[P_HAS_TRICK], pos[P_LEADER], pos[P_TRICK_POINTS] = saved
    pos[P_HANDS + seat] |= 1 << card


# --- max-n: every side plays for itself (module docstring, cardsim.maxn_nb) ---------------


@njit(cache=True, inline="always")
def utility(pos, side, scores, d):
    """``side``'s value of the points ``scores[d]`` (taken from the node on): with
    MAXN_RECORDED its recorded score less the others' mean (``recorded_utility``), else its
    points less everyone else's."""
    if pos[P_MAXN] == MAXN_RECORDED:
        return recorded_utility(pos, side, scores, d)
    sides = 2 if pos[P_TEAMS] else pos[P_PLAYERS]
    u = 0
    for q in range(sides):
        u += scores[d, q] if q == side else -scores[d, q]
    return u


@njit(cache=True, inline="always")
def round_total(pos, scores, d, q):
    """Side ``q``'s round points (D9.1) at the end: so far on the path, plus ``scores[d]``."""
    return pos[P_ACC + q] + scores[d, q]


@njit(cache=True)
def recorded_utility(pos, side, scores, d):
    """``side``'s recorded score (D9.2: byte, hanging byte, the pot; D9.3: the byte
    penalty now due) when the round ends with round points ``round_total``, times the
    number of other sides, less the others' recorded scores: the game is not zero-sum in
    round points once the bidder can byte, and each side plays for what is written down."""
    sides = 2 if pos[P_TEAMS] else pos[P_PLAYERS]
    b = pos[P_BIDDER]
    tb = round_total(pos, scores, d, b)
    top_opp = -1
    n_top = 0
    top = -1        # the unique top scorer of the round, which takes the pot
    top_side = -1
    for q in range(sides):
        t = round_total(pos, scores, d, q)
        if q != b:
            if t > top_opp:
                top_opp = t
                n_top = 1
            elif t == top_opp:
                n_top += 1
        if t > top:
            top = t
            top_side = q
        elif t == top:
            top_side = -1
    u = 0
    tied_before = 0  # tied top opponents met so far in order from the dealer
    for j in range(sides):
        q = (pos[P_DEALER] + 1 + j) % sides
        t = round_total(pos, scores, d, q)
        rec = t
        if q == b:
            if top_opp > t:
                rec = -pos[P_BYTE_COST]
            elif top_opp == t:
                rec = 0
        elif top_opp > tb and t == top_opp:  # the byte's points, shared from the dealer on
            rec += tb // n_top + (1 if tied_before < tb % n_top else 0)
            tied_before += 1
        if q == top_side:
            rec += pos[P_POT]
        u += (sides - 1) * rec if q == side else -rec
    return u


@njit(cache=True)
def static_scores(pos, scores, d):
    """Budget spent: ``static_value``'s count, side by side."""
    trump = pos[P_TRUMP]
    for s in range(pos[P_PLAYERS]):
        scores[d, side_of(s, pos[P_TEAMS])] += mask_points(pos[P_HANDS + s], trump)


@njit(cache=True, inline="always")
def play_scored(pos, seat, card):
    """``apply_card`` for max-n: what ``undo_card`` needs, the side that took the trick the
    card completed (-1 if none) and the trick's points for it."""
    completes = pos[P_TRICK_LEN] + 1 == pos[P_PLAYERS]
    saved, gained = apply_card(pos, seat, card)
    if not completes:
        return saved, -1, 0
    wside = side_of(pos[P_LEADER], pos[P_TEAMS])
    points = gained if wside == pos[P_SIDE] else -gained
    pos[P_ACC + wside] += points
    return saved, wside, points


@njit(cache=True, inline="always")
def open_node(pos, tt, scores, frames, d):
    """Start the max-n node at depth ``d``: True when its scores are settled at once
    (``scores[d]`` set: the round's end, the budget spent, or the table), else False with
    its frame ready for its cards."""
    pos[P_NODES] += 1
    for j in range(4):
        scores[d, j] = 0
    frames[d, F_SLOT] = -1
    if pos[P_TRICK_LEN] == 0:
        if pos[P_TRICKS_LEFT] == 0:
            return True
        if pos[P_BUDGET] > 0 and pos[P_NODES] > pos[P_BUDGET]:
            static_scores(pos, scores, d)
            return True
        if probe_scores(tt, maxn_key(pos), pos[P_GEN], scores, frames, d):
            return True
    seat = to_act(pos)
    # a side seldom takes every point to come: no ceiling
    return open_frame(frames, d, seat, distinct_cards(pos, legal_of(pos, seat)), INF)


@njit(cache=True, inline="always")
def maxn_key(pos):
    """``table_key``; with MAXN_RECORDED also a hash of the round points so far, as the best
    play from a position then depends on them."""
    key = table_key(pos)
    if pos[P_MAXN] != MAXN_RECORDED:
        return key
    acc = 0
    for q in range(4):
        acc |= pos[P_ACC + q] << (12 * q)
    return key ^ np.int64(np.uint64(acc) * np.uint64(0x9E3779B97F4A7C15))


@njit(cache=True, inline="always")
def undo_from_frame(pos, seat, card, frames, d):
    """``undo_card`` with what ``play_scored`` saved in the search frame."""
    if frames[d, F_WINNER] >= 0:
        pos[P_ACC + frames[d, F_WINNER]] -= frames[d, F_POINTS]
    undo_card(pos, seat, card, (frames[d, F_SAVED], frames[d, F_SAVED + 1],
                                frames[d, F_SAVED + 2], frames[d, F_SAVED + 3],
                                frames[d, F_SAVED + 4]))


@njit(cache=True, inline="always")
def pairs_sum_below_zero(pos):
    """Shallow pruning is sound (cardsim.maxn_nb) in an exact solve on round points: every
    side is one seat (max-n has no teams), its value is its points less all the others', so
    any two sides' values add up to minus twice the rest's points. (On recorded scores they
    do not; a budgeted solve's values depend on the nodes it searches.)"""
    return pos[P_MAXN] == MAXN_POINTS and pos[P_BUDGET] == 0


@njit(cache=True, inline="always")
def seat_utility(pos, seat, scores, d):
    """The value that ``seat``'s side plays for under max-n, from the sides' points ``scores[d]``
    (``utility``)."""
    return utility(pos, side_of(seat, pos[P_TEAMS]), scores, d)


@njit(cache=True, inline="always")
def maxn_root_value(pos, scores, winner, points):
    """The seat's side's value under max-n once ``search_maxn`` has run, after a root card
    whose trick (if it completed one) went to side ``winner`` for ``points``: of the rest of
    the round, or with MAXN_RECORDED of the whole round (the points so far count in the
    recorded score)."""
    if winner >= 0 and pos[P_MAXN] != MAXN_RECORDED:  # P_ACC has it already
        scores[0, winner] += points
    return utility(pos, pos[P_SIDE], scores, 0)


@njit(cache=True, inline="always")
def unplay_scored(pos, winner, points):
    """Take a root card's trick points back out of the sides' round points."""
    if winner >= 0:
        pos[P_ACC + winner] -= points


@njit(cache=True, inline="always")
def start_solve(pos, gen):
    """Start a new solve: its transposition table generation ``gen``, a node count of zero (the
    budget is the whole solve's) and no killer leads yet."""
    pos[P_GEN] = gen
    pos[P_NODES] = 0  # one budget for the whole solve
    for k in range(33):
        pos[P_KILLERS + k] = -1


@njit(cache=True, inline="always")
def solves_maxn(pos):
    """Max-n when asked, where there are three or four sides."""
    return pos[P_MAXN] != 0 and not pos[P_TEAMS] and pos[P_PLAYERS] > 2


@njit(cache=True, inline="always")
def share_budget(pos, cards):
    """Max-n: the solve's budget shared out among the root cards; returns the budget."""
    budget = pos[P_BUDGET]
    if budget > 0:
        pos[P_BUDGET] = max(1, budget // cards)
    return budget


@njit(cache=True, inline="always")
def begin_card(pos, maxn):
    """Max-n counts each root card's nodes against its share of the budget; the nodes so
    far are kept aside."""
    if not maxn:
        return 0
    nodes = pos[P_NODES]
    pos[P_NODES] = 0
    return nodes


@njit(cache=True, inline="always")
def end_card(pos, maxn, token):
    """Max-n: add back the nodes that ``begin_card`` kept aside (``token``), so the solve's count
    goes on from there; the paranoid search counts straight on."""
    if maxn:
        pos[P_NODES] += token


@njit(cache=True, inline="always")
def value_merged(pos, legal, searched, values):
    """A merged card takes the value of the nearest searched card above it in its suit."""
    m = legal & ~searched
    trump = pos[P_TRUMP]
    while m != 0:
        c = lowest_bit(m)
        m &= m - 1
        suit = c >> 3
        t = 8 if suit == trump else 0
        best_order = 99
        for q in range(8):
            other = suit * 8 + q
            if (searched >> other) & 1 and ORDER[t + q] > ORDER[t + (c & 7)] \
                    and ORDER[t + q] < best_order:
                best_order = ORDER[t + q]
                values[c] = values[other]


@njit(cache=True, **WITH_REFCOUNT)
def solve_root(pos, tt, values):
    """``values[c]``: the value (module docstring) of each legal card ``c`` of the seat to
    act, exact unless the node budget ``pos[P_BUDGET]`` runs out; other entries are left as
    they are. Returns the legal cards' mask. Equal cards get the value of the one searched
    (cardsim.solve_nb)."""
    return solve_cards(DEBERTZ, pos, tt, values)
