"""The Debertz heuristic policy as numba kernels (strategy in agents/debertz/heuristic.py).

``heuristic_action(st, R, mask, params, rng, i)`` returns a member of the legal mask ``mask``
for the seat to act in state row ``st``. It reads only what that seat may know: its own hand,
the cards played and the current trick, trump, bidder, turn-up (and who took it: the 4-player
receiver or the seven swapper), bids, dealer, the voids shown by failures to follow, and the
rules. It never reads other seats' hands, the deck, the dead cards or the melds of others
(tests/agents/test_debertz_heuristic.py re-deals the hidden cards to prove it).

Everything here works on scalars and int card masks and allocates nothing, so the policy runs
inside the block loops compiled without reference counting (cardsim.jit.NO_REFCOUNT).

Each phase's choice and the hand valuation are compiled as functions of their own (called once
per decision), the small card helpers inlined: the policy inlined into one body was most of a
table's first-run compilation.
"""

import numpy as np
from numba import njit

from agents.base import option_slot
from agents.debertz.heuristic import DebertzHeuristic
from agents.debertz.heuristic_options import OPTIONS
from cardsim import rng_nb
from cardsim.bits_nb import best_bit, lowest_bit, popcount
from cardsim.debertz import actions as A
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import (
    card_rank_value,
    mask_points,
    tricks_per_round,
    winning_index,
)
from cardsim.debertz.melds_nb import KIND_DEBERTZ, meld_summary
from cardsim.debertz.tables import (
    PLAIN_HIGHER,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    TRUMP_HIGHER,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
)
from cardsim.jit import NO_REFCOUNT
from cardsim.rng_nb import random_bit

# the heuristic with its default options (the search agents' play-outs)
DEFAULT_PARAMS = DebertzHeuristic("debertz").params

# the agent's options' places in its parameter vector (agents/debertz/heuristic_options.py)
P_AGGRESSION = option_slot(OPTIONS, "aggression")
P_SWAP = option_slot(OPTIONS, "swap")
P_COUNTING = option_slot(OPTIONS, "counting")
P_EPSILON = option_slot(OPTIONS, "epsilon")

ALL_CARDS = (1 << 32) - 1
RANK_T, RANK_J, RANK_Q, RANK_K, RANK_A = 3, 4, 5, 6, 7

# Bid evaluation (points-like units). A trump is worth by how many unknown trumps beat it:
# the master trump about a sure trick, the next one a likely trick, and so on (D2 order).
TRUMP_VALUE_BY_HIGHER = np.array([28, 18, 11, 7, 5, 4, 4, 4], dtype=np.int64)
# A side card that no unknown card of its suit beats (a master), by rank 7 8 9 T J Q K A.
MASTER_SIDE_VALUE = np.array([2, 2, 2, 11, 3, 4, 6, 14], dtype=np.int64)
# Hand value needed to bid at aggression 0.5: 2, 3, 4 players each for themselves; 2v2.
BID_THRESHOLD_2P = 54
BID_THRESHOLD_3P = 58
BID_THRESHOLD_4P = 56
BID_THRESHOLD_TEAMS = 65
AGGRESSION_SPAN = 60  # aggression 0 .. 1 moves the threshold by +30 .. -30


# ---------------------------------------------------------------------------------------------
# card helpers (scalars)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def suit_bits(suit):
    """Mask of the 8 cards of a suit."""
    return 0xFF << (suit * 8)


@njit(cache=True, inline="always")
def power(card, trump):
    """How strong a card is to keep (D2 order): every trump above every plain card."""
    r = card & 7
    if (card >> 3) == trump:
        return 8 + TRUMP_STRENGTH[r]
    return PLAIN_STRENGTH[r]


@njit(cache=True, inline="always")
def weakness(card, trump):
    """``-power``: ``best_bit`` takes the weakest card by it."""
    return -power(card, trump)


@njit(cache=True, inline="always")
def points_of(card, trump):
    """Card points of one card (D2)."""
    r = card & 7
    if (card >> 3) == trump:
        return TRUMP_POINTS[r]
    return PLAIN_POINTS[r]


@njit(cache=True, inline="always")
def higher_in_suit(card, trump):
    """Mask of the cards of the card's own suit that beat it (D2 order)."""
    s = card >> 3
    r = card & 7
    if s == trump:
        return TRUMP_HIGHER[r] << (s * 8)
    return PLAIN_HIGHER[r] << (s * 8)


@njit(cache=True, inline="always")
def can_beat(poss, best, led, trump):
    """Could a player who may hold the cards ``poss`` beat ``best`` in a trick led with suit
    ``led``? Only what is known counts as a void: ``poss`` already lacks the shown voids."""
    led_cards = poss & suit_bits(led)
    trumps = poss & suit_bits(trump)
    if (best >> 3) == led:  # best is of the led suit (a trump if trumps were led)
        if led_cards & higher_in_suit(best, trump):
            return True
        # D8.2: a player with no card of the led suit must trump
        return led != trump and led_cards == 0 and trumps != 0
    # best is a trump on a plain lead: only a void in the led suit can overtrump
    return led_cards == 0 and (trumps & higher_in_suit(best, trump)) != 0


@njit(cache=True, inline="always")
def opponents_can_beat(best, led, trump, p1, p2, p3, n_after):
    """Can any of the next ``n_after`` players (possible cards p1, p2, p3; 0 for a partner)
    beat ``best``?"""
    if n_after >= 1 and can_beat(p1, best, led, trump):
        return True
    if n_after >= 2 and can_beat(p2, best, led, trump):
        return True
    return n_after >= 3 and can_beat(p3, best, led, trump)


@njit(cache=True, inline="always")
def without_voids(cards, voids):
    """``cards`` less the suits of the void bit set ``voids``."""
    for s in range(4):
        if (voids >> s) & 1:
            cards &= ~suit_bits(s)
    return cards


# ---------------------------------------------------------------------------------------------
# bidding (D4) and the seven swap (D5)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def hand_value(hand, trump, gone, debertz_trump_only, trump_wins_tie):
    """Rough worth of ``hand`` with ``trump``, in points-like units: trumps by rank among the
    unknown trumps and by length, masters and guarded tens of the side suits, short side
    suits to ruff, sequences (D6) and bella (D7). ``gone``: cards known out of play."""
    tb = (hand >> (trump * 8)) & 0xFF
    tlen = popcount(tb)
    gone_t = (gone >> (trump * 8)) & 0xFF
    v = 0
    b = tb
    while b:
        r = lowest_bit(b)
        b &= b - 1
        h = popcount(TRUMP_HIGHER[r] & ~tb & ~gone_t)
        val = TRUMP_VALUE_BY_HIGHER[h]
        if h > 0 and tlen <= h:  # not enough trumps to wait for the higher ones to fall
            val = val // 2
        v += val
    if tlen > 2:
        v += 6 * (tlen - 2)
    for s in range(4):
        if s == trump:
            continue
        sb = (hand >> (s * 8)) & 0xFF
        cnt = popcount(sb)
        gs = (gone >> (s * 8)) & 0xFF
        if cnt == 0:
            if tlen >= 2:
                v += 6  # a void to ruff in
            continue
        if cnt == 1 and tlen >= 2 and (sb >> RANK_A) == 0:
            v += 3
        b = sb
        while b:
            r = lowest_bit(b)
            b &= b - 1
            h = popcount(PLAIN_HIGHER[r] & ~sb & ~gs)
            if h == 0:
                v += MASTER_SIDE_VALUE[r]
            elif h == 1 and r == RANK_T and cnt >= 2:
                v += 4  # a ten guarded against the ace
    key, pts, kind = meld_summary(hand, trump, debertz_trump_only, trump_wins_tie)
    if kind == KIND_DEBERTZ:
        v += 1000
    v += (pts * 3) // 5  # sequences score only when highest (D6.3): count them at 60%
    bella = (1 << (trump * 8 + RANK_K)) | (1 << (trump * 8 + RANK_Q))
    if (hand & bella) == bella:
        v += 20  # D7
    return v


@njit(cache=True, inline="always")
def bid_threshold(players, teams, aggression):
    """Hand value needed to take the contract (D9.2: the bidder must beat every opponent)."""
    if teams:
        base = BID_THRESHOLD_TEAMS
    elif players == 2:
        base = BID_THRESHOLD_2P
    elif players == 3:
        base = BID_THRESHOLD_3P
    else:
        base = BID_THRESHOLD_4P
    return base - (aggression - 0.5) * AGGRESSION_SPAN


@njit(cache=True, inline="always")
def bidding_hand(hand, seat, turnup, trump, round1, players, dealer, turnup_to_dealer,
                 seven_swap):
    """(the cards the seat would play with, cards known gone) if it chose ``trump``: with 4
    players the bidder takes the turn-up (D3.3); with 2-3 the turn-up is dead (D3.3) unless
    the seat holds the 7 of trump in round 1 and swaps (D5)."""
    up = 1 << turnup
    if players == 4:
        if not turnup_to_dealer or seat == dealer:
            return hand | up, 0
        return hand, 0
    seven = 1 << (trump * 8)
    if round1:
        if seven_swap and (hand & seven):
            return (hand & ~seven) | up, seven
        return hand, 0  # the turn-up may still be swapped in by another seat
    return hand, up


@njit(cache=True, **NO_REFCOUNT)
def bid_choice(st, R, mask, params):
    """D4: play / pass in round 1; the best suit or pass in round 2 (the dealer under the
    obligation names the best suit)."""
    n = R[L.R_PLAYERS]
    seat = st[L.TURN]
    hand = st[L.HANDS + seat]
    turnup = st[L.TURNUP]
    up_suit = turnup >> 3
    thr = bid_threshold(n, R[L.R_TEAMS], params[P_AGGRESSION])
    swap_ok = R[L.R_SEVEN_SWAP] != 0 and params[P_SWAP] >= 0.5
    if st[L.PHASE] == L.PH_BID1:
        h, gone = bidding_hand(hand, seat, turnup, up_suit, True, n, st[L.DEALER],
                               R[L.R_TURNUP_TO_DEALER], swap_ok)
        v = hand_value(h, up_suit, gone, R[L.R_DEBERTZ_TRUMP_ONLY], R[L.R_TRUMP_MELD_WINS_TIE])
        if v >= thr and (mask >> A.PLAY) & 1:
            return A.PLAY
        return A.PASS
    best_v = -1
    best_s = -1
    for s in range(4):
        if s == up_suit or not (mask >> (A.NAME_SUIT + s)) & 1:
            continue
        h, gone = bidding_hand(hand, seat, turnup, s, False, n, st[L.DEALER],
                               R[L.R_TURNUP_TO_DEALER], swap_ok)
        v = hand_value(h, s, gone, R[L.R_DEBERTZ_TRUMP_ONLY], R[L.R_TRUMP_MELD_WINS_TIE])
        if v > best_v:
            best_v = v
            best_s = s
    if (mask >> A.PASS) & 1 and (best_s < 0 or best_v < thr):
        return A.PASS
    return A.NAME_SUIT + best_s


@njit(cache=True, **NO_REFCOUNT)
def swap_choice(st, R, params):
    """D5: swap the 7 of trump for the turn-up unless that loses value (a sequence)."""
    if params[P_SWAP] < 0.5:
        return A.KEEP
    seat = st[L.TURN]
    hand = st[L.HANDS + seat]
    trump = st[L.TRUMP]
    seven = 1 << (trump * 8)
    swapped = (hand & ~seven) | (1 << st[L.TURNUP])
    keep_v = hand_value(hand, trump, 1 << st[L.TURNUP], R[L.R_DEBERTZ_TRUMP_ONLY],
                        R[L.R_TRUMP_MELD_WINS_TIE])
    swap_v = hand_value(swapped, trump, seven, R[L.R_DEBERTZ_TRUMP_ONLY],
                        R[L.R_TRUMP_MELD_WINS_TIE])
    if swap_v >= keep_v:
        return A.SWAP
    return A.KEEP


# ---------------------------------------------------------------------------------------------
# card play (D8)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def seat_possible(st, r, out, counting, holder, up_bit):
    """Cards seat ``r`` may hold: unknown cards less its shown voids; the turn-up only if it is
    the seat known to hold it (4-player receiver or seven swapper)."""
    poss = out
    if counting:
        poss = without_voids(poss, st[L.VOIDS + r])
    if holder >= 0 and holder != r:
        poss &= ~up_bit
    return poss


@njit(cache=True, inline="always")
def smear_value(card, known):
    """How much we like giving ``card`` to a trick our side surely takes: tens first (an ace
    would catch them later), then aces, never trumps unless forced. ``known``: (trump, the
    cards someone else may hold)."""
    trump, out = known
    v = points_of(card, trump) * 10 - power(card, trump)
    if (card >> 3) == trump:
        v -= 200
    elif (higher_in_suit(card, trump) & out) == 0 and points_of(card, trump) >= 10:
        v -= 35  # a master ace/ten wins a trick of its own later
    return v


@njit(cache=True, inline="always")
def discard_cost(card, trump, out, hand, has_trumps):
    """How much we lose by throwing ``card`` to a trick we do not take: its points, its
    strength, trumps and masters dearest, a ten's last guard, a singleton cheap (a void to
    ruff in)."""
    s = card >> 3
    c = points_of(card, trump) * 10 + power(card, trump)
    if s == trump:
        return c + 150
    if (higher_in_suit(card, trump) & out) == 0 and (card & 7) != 0:
        c += 40
    sb = (hand >> (s * 8)) & 0xFF
    ten = 1 << (s * 8 + RANK_T)
    if (card & 7) != RANK_T and (hand & ten) and popcount(sb) == 2 \
            and (higher_in_suit(s * 8 + RANK_T, trump) & out) != 0:
        c += 30  # the ten would stand bare under the ace
    if popcount(sb) == 1 and has_trumps:
        c -= 5
    return c


@njit(cache=True, inline="always")
def discard_saving(card, known):
    """``-discard_cost``: ``best_bit`` takes the card to throw by it. ``known``: (trump, out,
    hand, has_trumps) as ``discard_cost`` takes them."""
    trump, out, hand, has_trumps = known
    return -discard_cost(card, trump, out, hand, has_trumps)


@njit(cache=True, inline="always")
def lead_cost(card, trump, out, hand, has_trumps, partner_ruffs):
    """How little we like leading ``card`` when no master is worth leading: low cards of
    short suits, not away from a ten, towards a partner's void (2v2). Leading into an
    opponent's ruff is not avoided: it costs them a trump (measured better than avoiding it)."""
    s = card >> 3
    c = points_of(card, trump) * 10 + power(card, trump)
    sb = (hand >> (s * 8)) & 0xFF
    ten = 1 << (s * 8 + RANK_T)
    if (card & 7) != RANK_T and (hand & ten) and (higher_in_suit(s * 8 + RANK_T, trump) & out):
        c += 15  # keep the ten guarded
    if popcount(sb) == 1 and has_trumps:
        c -= 8
    if partner_ruffs:
        c -= 20
    return c


@njit(cache=True, inline="always")
def lead_appeal(card, known):
    """``-lead_cost``: ``best_bit`` takes the low card to lead by it. ``known``: (trump, out,
    hand, has_trumps, the partner's shown voids)."""
    trump, out, hand, has_trumps, partner_voids = known
    return -lead_cost(card, trump, out, hand, has_trumps, (partner_voids >> (card >> 3)) & 1)


@njit(cache=True, inline="always")
def masters_of(cards, trump, out):
    """The cards of ``cards`` that no card of ``out`` beats in their suit."""
    masters = 0
    while cards:
        c = lowest_bit(cards)
        cards &= cards - 1
        if (higher_in_suit(c, trump) & out) == 0:
            masters |= 1 << c
    return masters


@njit(cache=True, **NO_REFCOUNT)
def play_choice(st, R, mask, params):
    """D8: the card to play."""
    n = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    seat = st[L.TURN]
    trump = st[L.TRUMP]
    hand = st[L.HANDS + seat]
    counting = params[P_COUNTING] >= 0.5
    tl = st[L.TRICK_LEN]
    leader = st[L.LEADER]
    t0 = st[L.TRICK]
    t1 = st[L.TRICK + 1]
    t2 = st[L.TRICK + 2]
    trick_mask = 0
    for k in range(tl):
        trick_mask |= 1 << st[L.TRICK + k]
    played = st[L.PLAYED] if counting else trick_mask
    turnup = st[L.TURNUP]
    up_bit = 1 << turnup
    # Where the turn-up is, which everybody saw (D3.3, D5): dead with 2-3 players unless it
    # was swapped in (then the 7 of trump is dead), held by the receiver with 4.
    if n < 4:
        holder = st[L.SWAP_SEAT]
        dead = (1 << (trump * 8)) if holder >= 0 else up_bit
    else:
        holder = st[L.TURNUP_RECEIVER]
        dead = 0
    out = ALL_CARDS & ~hand & ~played & ~dead  # cards someone else may hold
    partner = (seat + 2) % 4 if teams else -1
    # possible cards of the seats after me in play order; 0 for the partner (it beating our
    # card is no harm) and for seats that do not exist
    p1 = 0
    p2 = 0
    p3 = 0
    for k in range(1, n):
        r = (seat + k) % n
        if r == partner:
            continue
        poss = seat_possible(st, r, out, counting, holder, up_bit)
        if k == 1:
            p1 = poss
        elif k == 2:
            p2 = poss
        else:
            p3 = poss
    tmask = suit_bits(trump)
    has_trumps = (hand & tmask) != 0
    legal = mask & ALL_CARDS
    n_tricks = tricks_per_round(n)
    last_trick = st[L.TRICK_NO] == n_tricks - 1

    if tl == 0:
        return lead_choice(st, hand, legal, trump, out, p1, p2, p3, partner, counting)

    # --- following --------------------------------------------------------------------------
    led = t0 >> 3
    widx = winning_index(t0, t1, t2, 0, tl, trump)
    best = st[L.TRICK + widx]
    wseat = (leader + widx) % n
    n_after = n - 1 - tl
    # the players still to come after me are the first n_after of p1, p2, p3
    tpts = mask_points(trick_mask, trump)
    if last_trick:
        tpts += 10  # D2: the last trick scores 10 more
    partner_wins = wseat == partner
    partner_sure = partner_wins and not opponents_can_beat(best, led, trump, p1, p2, p3,
                                                            n_after)
    best_v = card_rank_value(best, led, trump)
    winners = 0  # our cards that beat the trick so far
    sure = 0  # those of them no opponent after us can beat
    m = legal
    while m:
        c = lowest_bit(m)
        m &= m - 1
        if card_rank_value(c, led, trump) > best_v:
            winners |= 1 << c
            if not opponents_can_beat(c, led, trump, p1, p2, p3, n_after):
                sure |= 1 << c
    if partner_wins and partner_sure:
        return best_bit(legal, smear_value, (trump, out))  # points onto the partner's sure trick
    if sure != 0:
        return best_bit(sure, weakness, trump)  # the cheapest card that surely takes the trick
    if not partner_wins:
        if winners != 0 and (legal & ~suit_bits(trump)) == 0 and led != trump:
            # D8.2: forced to ruff anyway, so ruff high enough to win now
            return best_bit(winners, weakness, trump)
        strong_card = best_bit(winners, power, trump)
        if strong_card >= 0 and tpts + points_of(strong_card, trump) >= 20 and (
                (strong_card >> 3) == trump or (higher_in_suit(strong_card, trump) & out) == 0):
            # worth fighting for with a card only a ruff (or a higher trump) can beat
            return strong_card
    return best_bit(legal, discard_saving, (trump, out, hand, has_trumps))


@njit(cache=True, **NO_REFCOUNT)
def lead_choice(st, hand, legal, trump, out, p1, p2, p3, partner, counting):
    """D8: the card to lead: trump management, masters, the last tricks, then a low card.
    ``out``: the cards someone else may hold; ``p1``-``p3``: those each seat after the
    leader may hold (0 for the partner); ``partner``: the partner's seat, -1 without teams."""
    tmask = suit_bits(trump)
    my_trumps = hand & tmask
    has_trumps = my_trumps != 0
    opp_any = p1 | p2 | p3
    opp_trumps = (opp_any & tmask) != 0
    bidder = st[L.BIDDER]
    our_contract = bidder == st[L.TURN] or (partner >= 0 and bidder == partner)
    # the plain suits an opponent could ruff: it may be void there and hold trumps
    ruffable = 0
    for s in range(4):
        if s == trump:
            continue
        sm = suit_bits(s)
        if ((p1 & sm) == 0 and (p1 & tmask) != 0) or ((p2 & sm) == 0 and (p2 & tmask) != 0) \
                or ((p3 & sm) == 0 and (p3 & tmask) != 0):
            ruffable |= sm
    partner_voids = 0
    if partner >= 0 and counting:
        pv = st[L.VOIDS + partner]
        if not (pv >> trump) & 1:
            partner_voids = pv
    # masters: the highest trump, and the best sure side card
    top_trump = best_bit(legal & tmask, power, trump)
    low_trump = best_bit(legal & tmask, weakness, trump)
    sure = masters_of(legal, trump, out) & ~ruffable  # the cards that surely take a trick
    side_master = best_bit(sure & ~tmask, points_of, trump)
    n_sure = popcount(sure)
    n_cards = popcount(hand)
    top_master = top_trump >= 0 and (higher_in_suit(top_trump, trump) & out) == 0
    # Last-trick awareness (D2: +10): with two cards, one sure and one not, keep the sure
    # one for the last trick.
    if n_cards == 2 and n_sure == 1 and (legal & ~sure) != 0:
        return lowest_bit(legal & ~sure)
    # Trump management: the contract side draws the opponents' trumps with its master trump
    # (defenders keep theirs to ruff); a long-trump bidder without the master pushes a low
    # trump to make the high ones fall (D8.3 forces overtrumping).
    n_my_trumps = popcount(my_trumps)
    if opp_trumps and top_trump >= 0:
        if top_master and our_contract:
            return top_trump
        if our_contract and n_my_trumps >= 4:
            return low_trump
    if side_master >= 0:
        return side_master
    # a low card, plain suits first
    best = best_bit(legal & ~tmask, lead_appeal, (trump, out, hand, has_trumps, partner_voids))
    if best >= 0:
        return best
    if top_master:
        return top_trump
    return low_trump


# ---------------------------------------------------------------------------------------------
# the policy
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def policy_choice(st, R, mask, params):
    """The heuristic's own choice for the seat to act, without the random share and without
    the legality guard of ``heuristic_action`` (tests check it is always legal)."""
    ph = st[L.PHASE]
    if ph == L.PH_PLAY:
        return play_choice(st, R, mask, params)
    if ph == L.PH_BID1 or ph == L.PH_BID2:
        return bid_choice(st, R, mask, params)
    if ph == L.PH_SWAP:
        return swap_choice(st, R, params)
    return -1


@njit(cache=True, **NO_REFCOUNT)
def heuristic_action(st, R, mask, params, rng, i):
    """The heuristic's action for the seat to act in ``st`` (a member of ``mask``). With
    option epsilon > 0 it plays a random legal action that often (drawn from ``rng[i]``);
    otherwise it is deterministic and does not touch ``rng``."""
    eps = params[P_EPSILON]
    if eps > 0.0 and rng_nb.below(rng, i, 1 << 24) < eps * (1 << 24):
        return random_bit(mask, rng, i)
    a = policy_choice(st, R, mask, params)
    if a < 0 or not (mask >> a) & 1:
        a = lowest_bit(mask)  # never reached by a correct policy; keeps every move legal
    return a


@njit(cache=True, inline="always")
def policy_action(game, params, st, R, base, bits, rng, i):
    """The heuristic's decision at the table (the ``CompiledPolicy`` signature of
    cardsim.policy_nb): legal set ``(base, bits)`` (Debertz: base 0), generator ``rng[i]``."""
    return heuristic_action(st, R, bits, params, rng, i)


@njit(cache=True, inline="always")
def rollout_action(st, R, base, bits, rng, i):
    """The heuristic's decision with its default options, as the search agents' play-outs
    take it."""
    return heuristic_action(st, R, bits, DEFAULT_PARAMS, rng, i)
