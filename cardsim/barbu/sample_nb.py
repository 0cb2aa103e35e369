"""Deals of the cards one Barbu seat cannot see, consistent with everything it knows (search
agents, docs/rules/barbu.md).

A search agent at seat ``me`` replaces the other three hands with a **sampled deal**, drawn
uniformly among the deals that agree with what ``me`` knows:

- its own cards, every card played and who played it, the trick, each hand's size;
- suits shown void: a seat that did not follow lacks the led suit (B4);
- what the contract's rules reveal (B4): in Trumps with ``trumps_must_ruff`` a seat that
  neither followed nor trumped lacks trumps; with ``trumps_must_overtrump`` a seat that
  played under the best trump of a trump lead lacks every trump above it; with
  ``king_must_discard`` a seat that did not follow and did not play the K of hearts lacks
  it; a heart led where hearts may be led only from a hand of hearts (No Hearts, No King
  with ``king_lead_rule`` "no_hearts") shows the leader held nothing else; the K of hearts
  led under "king_only" was the leader's last card;
- Domino (B5): the layout, and every pass: a seat that passed held no card playable then.

Every fact is "seat s does not hold card c now" (hands only shrink, so a card lacking then is
lacking now), so the shared class-splitting core (``cardsim.deal_split_nb``) draws exactly
uniformly, without rejection. The contract choice and the doubles are not read as evidence
about the hands: they constrain no card.
"""

import numpy as np
from numba import njit

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import HEARTS, KING_HEARTS, RANK_BITS, SUIT_BITS
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.deal_split_nb import (
    CORE_WIDTH,
    KN_CAP,
    KN_FORBID,
    KN_HOLDER,
    KN_HOLDERS,
    KN_POOL,
    KN_SEAT,
    KN_UNCONSTRAINED,
    MAX_CARDS,
    draw_hidden,
    holder_of,
    prepare_classes,
)
from cardsim.jit import WITH_REFCOUNT, ix

ALL_CARDS = (1 << 52) - 1

KN_PLAYED_BY = CORE_WIDTH      # [4] per seat: the cards it played this deal
KNOWLEDGE_WIDTH = CORE_WIDTH + 4


@njit(cache=True)
def knowledge(st, R, me, kn):
    """Fill the knowledge row ``kn`` of seat ``me`` in position ``st``. Reads only what
    ``me`` may know. Returns False when the position has no hidden cards to sample."""
    for k in range(KNOWLEDGE_WIDTH):
        kn[k] = 0
    kn[KN_SEAT] = me
    h = 0
    for s in range(4):
        if s != me:
            kn[KN_HOLDER + h] = s
            kn[KN_CAP + h] = popcount(st[ix(L.HANDS + s)])
            h += 1
    kn[KN_HOLDERS] = h
    for p in range(st[L.N_PLAYS]):
        entry = st[ix(L.PLAYS + p)]
        action = entry & 63
        if action < A.NUM_CARDS:
            kn[ix(KN_PLAYED_BY + (entry >> L.PLAY_SEAT_SHIFT))] |= 1 << action
    if st[L.PHASE] == L.PH_PLAY:
        if st[L.CONTRACT] == A.DOMINO:
            domino_constraints(st, kn)
        else:
            trick_constraints(st, R, kn)
    constrained = False
    for k in range(h):
        constrained |= kn[KN_FORBID + k] != 0
    kn[KN_UNCONSTRAINED] = 0 if constrained else 1
    kn[KN_POOL] = ALL_CARDS & ~st[L.PLAYED] & ~st[ix(L.HANDS + me)]
    prepare_classes(kn)
    return kn[KN_POOL] != 0


@njit(cache=True, inline="always")
def forbid(kn, seat, cards):
    """Record that ``seat`` cannot hold ``cards`` (a shown void or a rule of play); nothing for a
    seat that is not a holder of hidden cards (the seat sampling)."""
    f = holder_of(kn, seat)
    if f >= 0:
        kn[ix(KN_FORBID + f)] |= cards


@njit(cache=True)
def trick_constraints(st, R, kn):
    """What the cards played so far tell (B4): voids, ruffs, overtrumps, discards, leads."""
    c = st[L.CONTRACT]
    trump = st[L.TRUMP]
    hearts_lead_bar = c == A.NO_HEARTS or (c == A.NO_KING and R[L.R_KING_LEAD_NO_HEARTS])
    led = -1
    best = -1  # the highest trump so far on a trump lead
    for p in range(st[L.N_PLAYS]):
        entry = st[ix(L.PLAYS + p)]
        seat = entry >> L.PLAY_SEAT_SHIFT
        card = entry & 63
        suit = card // 13
        if p % 4 == 0:
            led = suit
            best = card
            if hearts_lead_bar and suit == 1:
                forbid(kn, seat, ALL_CARDS & ~HEARTS)  # B4: hearts led from hearts only
            elif c == A.NO_KING and (1 << card) == KING_HEARTS:
                forbid(kn, seat, ALL_CARDS)  # B4 king_only: the K of hearts was the last card
            continue
        if suit != led:
            forbid(kn, seat, SUIT_BITS << (13 * led))  # B4: could not follow
            if c == A.TRUMPS and R[L.R_TRUMPS_MUST_RUFF] and suit != trump:
                forbid(kn, seat, SUIT_BITS << (13 * trump))  # B4: could not ruff
            if c == A.NO_KING and R[L.R_KING_MUST_DISCARD] and (1 << card) != KING_HEARTS:
                forbid(kn, seat, KING_HEARTS)  # B4 king_must_discard
        elif c == A.TRUMPS and led == trump and R[L.R_TRUMPS_MUST_OVERTRUMP]:
            if card < best:  # B4: could not beat the best trump so far
                forbid(kn, seat, (SUIT_BITS << (13 * trump)) & ~((2 << best) - 1))
            else:
                best = card


@njit(cache=True, **WITH_REFCOUNT)
def domino_constraints(st, kn):
    """B5: the layout replayed; a seat that passed held no card playable at that moment."""
    playable = RANK_BITS << st[L.START_RANK]
    lo = np.empty(4, dtype=np.int64)  # rows of the layout as they grow
    hi = np.empty(4, dtype=np.int64)
    for s in range(4):
        lo[s] = -1
        hi[s] = -1
    for p in range(st[L.N_PLAYS]):
        entry = st[ix(L.PLAYS + p)]
        seat = entry >> L.PLAY_SEAT_SHIFT
        action = entry & 63
        if action == A.PASS:
            forbid(kn, seat, playable)
            continue
        s = action // 13
        r = action % 13
        lo[s] = r if lo[s] < 0 else min(lo[s], r)
        hi[s] = r if hi[s] < 0 else max(hi[s], r)
        m = 0
        if lo[s] > 0:
            m |= 1 << (13 * s + lo[s] - 1)
        if hi[s] < 12:
            m |= 1 << (13 * s + hi[s] + 1)
        playable = (playable & ~(SUIT_BITS << (13 * s))) | m


@njit(cache=True)
def draw_deal(st, R, kn, ways, rng, i, held, buf):
    """Draw the hidden cards of position ``st`` (knowledge ``kn``, ``ways`` counted by
    ``count_completions``) into ``held`` (per holder, as ``kn``'s holders), from generator
    ``rng[i]``: uniform among the deals agreeing with everything ``kn``'s seat knows.
    ``buf``: MAX_CARDS ints of scratch. Returns the number of draws it took: always 1 (every
    constraint is card by card), the signature of the Debertz sampler's ``draw_deal``."""
    draw_hidden(kn, ways, rng, i, held, buf)
    return 1


@njit(cache=True)
def write_deal(st, kn, held, out):
    """``out``: position ``st`` with the hidden hands as in ``held`` (per holder); the dealt
    hands and the deck order (seat s got deck[13s:13s+13]) follow."""
    for k in range(st.shape[0]):
        out[k] = st[k]
    for k in range(kn[KN_HOLDERS]):
        out[ix(L.HANDS + kn[KN_HOLDER + k])] = held[k]
    for s in range(4):
        dealt = out[ix(L.HANDS + s)] | kn[ix(KN_PLAYED_BY + s)]
        out[ix(L.DEALT + s)] = dealt
        pos = 13 * s
        while dealt != 0 and pos < 13 * s + 13:
            out[ix(L.DECK + pos)] = lowest_bit(dealt)
            dealt &= dealt - 1
            pos += 1


# --- the pieces of the entry points written once for both games (cardsim.sample_nb) -------
@njit(cache=True, inline="always")
def knowledge_width():
    """Length of Barbu's knowledge row (``KNOWLEDGE_WIDTH``)."""
    return KNOWLEDGE_WIDTH


@njit(cache=True, inline="always")
def scratch_size():
    """Length of ``draw_deal``'s scratch buffer (``MAX_CARDS``)."""
    return MAX_CARDS


@njit(cache=True, inline="always")
def write_drawn(st, R, kn, held, tries, rng, i, out):
    """The deal ``draw_deal`` drew (``tries`` draws) as a whole state row ``out``."""
    write_deal(st, kn, held, out)
