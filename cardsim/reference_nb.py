"""The yardstick of the engines' speed: a minimal play-only bitmask loop of each game.

A reference deal is what no engine of the game can do without: shuffle and deal the cards,
then play every trick with uniformly random legal cards (Debertz: follow suit, trump when
void, overtrump on a trump lead, with a random trump suit; Barbu: follow suit, no trump) and
find each trick's winner, who leads the next. It has no bidding, contracts, doubles, melds,
scoring or records. ``cardsim bench`` times it alternately with the engine's random play in
the same run and prints the engine's share of its rate (``engine_vs_reference``): a ratio,
unlike a rate, that the host's load changes little.

Card ids are the engines' (Debertz: suit * 8 + rank, rank 7 8 9 T J Q K A = 0..7; Barbu:
suit * 13 + rank, 2..A = 0..12); the loops keep hands as bit masks in locals.
"""

import time

import numpy as np
from numba import njit

from cardsim.debertz.tables import PLAIN_STRENGTH, TRUMP_HIGHER, TRUMP_STRENGTH
from cardsim.hands_nb import hand_of, played
from cardsim.parallel_nb import next_block, row_block, run_workers
from cardsim.rng_nb import random_bit_scalar, shuffle_cards, stream


@njit(cache=True)
def debertz_deal(state, cards, players, teams):
    """One reference deal of Debertz with ``players`` seats under the default conventions
    (D8: follow suit, overtrumping on a trump lead; when void, any trump; no partner
    exemption): 9 cards each with 2 or 3 players, 8 with 4. Returns (the advanced generator,
    the number of tricks won by seat 0, or by its side with ``teams``: a checksum that keeps
    the loop's work alive)."""
    for k in range(32):  # each deal shuffles the deck in order, so it depends on its seed only
        cards[k] = k
    state = shuffle_cards(state, cards)
    per = 8 if players == 4 else 9
    h0 = h1 = h2 = h3 = 0
    for k in range(per):
        h0 |= 1 << cards[k]
        h1 |= 1 << cards[per + k]
        if players > 2:
            h2 |= 1 << cards[2 * per + k]
        if players > 3:
            h3 |= 1 << cards[3 * per + k]
    state, trump = random_bit_scalar(0xF, state)
    won = 0
    leader = 0
    for _ in range(per):
        best_card = -1
        best_strength = -1
        top = leader
        led = 0
        for k in range(players):
            seat = leader + k
            seat = seat - players if seat >= players else seat
            hand = hand_of(h0, h1, h2, h3, seat)
            if k == 0:
                allowed = hand
            else:
                follow = hand & (0xFF << (led * 8))
                trumps = hand & (0xFF << (trump * 8))
                higher = (0xFF if best_strength < 16
                          else TRUMP_HIGHER[best_card & 7]) << (trump * 8)
                over_follow = follow & higher  # non-empty only on a trump lead (D8.3)
                if follow != 0:
                    allowed = over_follow if over_follow != 0 else follow
                else:
                    allowed = trumps if trumps != 0 else hand
            state, card = random_bit_scalar(allowed, state)
            suit = card >> 3
            if k == 0:
                led = suit
            strength = (16 + TRUMP_STRENGTH[card & 7] if suit == trump
                        else (PLAIN_STRENGTH[card & 7] if suit == led else -1))
            if strength > best_strength:
                best_strength, best_card, top = strength, card, seat
            h0, h1, h2, h3 = played(h0, h1, h2, h3, seat, card)
        won += (top & 1) == 0 if teams else top == 0
        leader = top
    return state, won


@njit(cache=True)
def barbu_deal(state, cards):
    """One reference deal of Barbu: 13 cards to each of 4 seats, 13 tricks of follow-suit
    without trump. Returns (the advanced generator, tricks won by seat 0)."""
    for k in range(52):
        cards[k] = k
    state = shuffle_cards(state, cards)
    h0 = h1 = h2 = h3 = 0
    for k in range(13):
        h0 |= 1 << cards[k]
        h1 |= 1 << cards[13 + k]
        h2 |= 1 << cards[26 + k]
        h3 |= 1 << cards[39 + k]
    won = 0
    leader = 0
    for _ in range(13):
        best = -1
        top = leader
        led = 0
        for k in range(4):
            seat = (leader + k) & 3
            hand = hand_of(h0, h1, h2, h3, seat)
            if k > 0:
                follow = hand & (0x1FFF << (led * 13))
                hand = follow if follow != 0 else hand
            state, card = random_bit_scalar(hand, state)
            if k == 0:
                led = card // 13
                best = card
            elif card // 13 == led and card > best:
                best, top = card, seat
            h0, h1, h2, h3 = played(h0, h1, h2, h3, seat, card)
        won += top == 0
        leader = top
    return state, won


@njit(cache=True, nogil=True)
def reference_worker(game, players, teams, seed, first, n_items, out, counter):
    """A worker of ``reference_deals`` (cardsim.parallel_nb): block b's checksum into
    ``out[b]``; deal ``first + i`` draws from its own stream of ``seed``."""
    n_blocks = out.shape[0]
    cards = np.arange(32 if game == 0 else 52, dtype=np.int64)
    b = next_block(counter)
    while b < n_blocks:
        lo, hi = row_block(b, n_items, n_blocks)
        total = 0
        for i in range(lo, hi):
            state = stream(seed, first + i, 0)
            if game == 0:
                state, won = debertz_deal(state, cards, players, teams)
            else:
                state, won = barbu_deal(state, cards)
            total += won
        out[b] = total
        b = next_block(counter)


def reference_deals(game: str, players: int, teams: bool, first: int, n: int, n_blocks: int,
                    seed: int = 0) -> int:
    """Play reference deals ``first .. first + n - 1`` of ``game`` in ``n_blocks`` blocks on
    numba's threads; returns their checksum (tricks won by seat 0 or its side)."""
    out = np.zeros(n_blocks, dtype=np.int64)
    run_workers(reference_worker, 0 if game == "debertz" else 1, players, bool(teams), seed,
                first, n, out, np.zeros(1, dtype=np.int64))
    return int(out.sum())


def alternate(engine, reference, hands: int, rounds: int = 4) -> tuple[float, float]:
    """Seconds of the engine and of the reference over ``hands`` deals each, timed
    alternately in ``rounds`` rounds so that both see the same host: round r plays deals
    ``first .. first + n - 1`` with ``engine(first, n)``, then the same with
    ``reference(first, n)``."""
    per = -(-hands // rounds)
    t_engine = t_reference = 0.0
    for first in range(0, hands, per):
        n = min(per, hands - first)
        t0 = time.perf_counter()
        engine(first, n)
        t1 = time.perf_counter()
        reference(first, n)
        t2 = time.perf_counter()
        t_engine += t1 - t0
        t_reference += t2 - t1
    return t_engine, t_reference
