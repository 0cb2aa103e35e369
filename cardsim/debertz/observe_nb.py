"""What one Debertz seat may know, as a flat float32 vector of named pieces
(docs/architecture.md, the engine).

``PIECES`` declares every piece (name, size, encoding); offsets and the total ``OBS_SIZE`` come
from it (``cardsim.observation``). ``observe(st, R, seat, out)`` writes the vector of ``seat`` for
state row ``st``; ``observation_pieces(vector)`` gives the dict of named pieces.

Seats and sides are relative to the observer: relative seat r is seat ``(seat + r) % players``
(0 = the observer, 1 = the next to play after it, ...), relative side r is side
``(side + r) % sides``. Every piece is sized for 4 seats whatever the player count, so one
layout serves every configuration.

Only public facts and the seat's own cards reach the vector: its hand, cards played (by whom),
the current trick, the turn-up and where it went (D3.3, D5), bids, trump, voids shown by play
(D8), melds as far as declared or shown (D6.6: each declared run's length, which fixes its
kind, once its owner declared it — when playing its first card under ``declare =
"first_trick"``, before the first lead under ``"before_play"``; the winning meld's cards once
shown: after the first trick, or at once, or when a debertz ends the game), the bella once
announced (D7), tricks and card points taken, scores, byte counts and the pot.

The last pieces add nothing the others do not determine; they spell out for a network what
a trick-taking player reads at a glance and a small network learns slowly: who takes the
trick so far and how many points are in it, which of the seat's cards would take it, and
what each card of the hand is worth under the trump. They come last so that a network
trained before they existed reads the same values at the start of the vector
(``agents.neural.checkpoint``).
"""

import numpy as np
from numba import njit

from cardsim.bits_nb import lowest_bit
from cardsim.debertz import actions as A
from cardsim.debertz import layout as L
from cardsim.debertz.engine_nb import card_key, card_strength
from cardsim.debertz.melds_nb import list_runs, run_kind
from cardsim.debertz.tables import CARD_POINTS
from cardsim.observation import ObservationSpec
from cardsim.jit import NO_REFCOUNT

INF = 1e4  # bound of the unbounded pieces (scores and the like never come near it)
MAX_SEATS = 4
BID_CHOICES = 6  # pass, play, name S/H/D/C: action ids 32..37
MELD_LENGTHS = 6  # runs of 3..8 cards
MAX_SUIT_RUNS = 2  # runs of 3+ cards in one suit of 8 (three would need 3 + 1 + 3 + 1 + 3)

PIECES = (
    ("hand", 32, "cards the seat holds now (bit = card index)"),
    ("played", MAX_SEATS * 32, "cards played in this deal, row = relative seat that played it"),
    ("trick", MAX_SEATS * 32, "cards of the current trick, row = relative seat that played it"),
    ("trick_leader", MAX_SEATS, "relative seat that led the current trick (play phase)"),
    ("trick_no", 1, "tricks completed / tricks per round"),
    ("turnup", 32, "the turn-up card (D3.1)"),
    ("turnup_place", 1 + MAX_SEATS, "where the turn-up is: 0 table or dead, 1+r taken by "
                                    "relative seat r (4 players D3.3, seven swap D5)"),
    ("known_dead", 32, "dead cards known to all (2-3 players): the turn-up, or the 7 of trump "
                       "swapped for it (D5)"),
    ("dealer", MAX_SEATS, "relative seat of the dealer"),
    ("turn", MAX_SEATS, "relative seat to act"),
    ("phase", len(L.PHASE_NAMES), "phase one-hot: " + ", ".join(L.PHASE_NAMES)),
    ("players", 3, "player count one-hot: 2, 3, 4"),
    ("teams", 1, "1 with two teams of two (D1)"),
    ("bids", 8 * BID_CHOICES, "bid k (speaker dealer+1+k) one-hot: pass, play, name S/H/D/C"),
    ("trump", 4, "trump suit (D4)"),
    ("bidder", MAX_SEATS, "relative seat of the bidder"),
    ("melds_declared", MAX_SEATS * MELD_LENGTHS,
     "per relative seat: number of declared runs of length 3..8 (D6.6)"),
    ("meld_winner", MAX_SEATS, "relative seat whose winning meld has been shown (D6.6)"),
    ("meld_shown", 32, "cards of the winning meld once shown (D6.6)"),
    ("bella", MAX_SEATS, "relative seat that announced bella (D7)"),
    ("voids", MAX_SEATS * 4, "per relative seat: suits it has shown it lacks (D8)"),
    ("tricks_won", MAX_SEATS, "per relative seat: tricks taken / tricks per round"),
    ("won_points", MAX_SEATS, "per relative seat: card points of its tricks / 162"),
    ("scores", MAX_SEATS, "per relative side: game total / target"),
    ("byte_counts", MAX_SEATS, "per relative side: bytes so far / 3 (D9.3)"),
    ("pot", 1, "hanging-byte pot / target (D9.2)"),
    ("recorded", MAX_SEATS, "per relative side: points recorded for the deal once it has "
                            "ended / 162 (D9)"),
    ("target", 1, "target / 1000 (D11)"),
    ("end_points", 1, "1 with end_mode 'points' (D11)"),
    # Appended pieces: what the pieces above already determine, worked out for the network
    # (a network made before they were added reads only the vector's start; checkpoints)
    ("trick_top", MAX_SEATS, "relative seat whose card takes the current trick so far (D8)"),
    ("trick_points", 1, "card points (D2) of the current trick's cards / 50"),
    ("takes_trick", 32, "cards of the hand that would take the current trick so far if "
                        "played now (D8; none before its lead)"),
    ("hand_points", 32, "per card of the hand: its card points (D2) under the trump / 20"),
)
_UNBOUNDED = (-INF, INF)
SPEC = ObservationSpec(PIECES, bounds={
    "melds_declared": (0.0, 4.0), "scores": _UNBOUNDED, "byte_counts": (0.0, INF),
    "pot": (0.0, INF), "recorded": _UNBOUNDED, "target": (0.0, INF),
    "trick_points": (0.0, 2.0)})
_C = SPEC.constants()
OBS_SIZE = _C["OBS_SIZE"]
OFF_HAND = _C["OFF_HAND"]
OFF_PLAYED = _C["OFF_PLAYED"]
OFF_TRICK = _C["OFF_TRICK"]
OFF_TRICK_LEADER = _C["OFF_TRICK_LEADER"]
OFF_TRICK_NO = _C["OFF_TRICK_NO"]
OFF_TURNUP = _C["OFF_TURNUP"]
OFF_TURNUP_PLACE = _C["OFF_TURNUP_PLACE"]
OFF_KNOWN_DEAD = _C["OFF_KNOWN_DEAD"]
OFF_DEALER = _C["OFF_DEALER"]
OFF_TURN = _C["OFF_TURN"]
OFF_PHASE = _C["OFF_PHASE"]
OFF_PLAYERS = _C["OFF_PLAYERS"]
OFF_TEAMS = _C["OFF_TEAMS"]
OFF_BIDS = _C["OFF_BIDS"]
OFF_TRUMP = _C["OFF_TRUMP"]
OFF_BIDDER = _C["OFF_BIDDER"]
OFF_MELDS_DECLARED = _C["OFF_MELDS_DECLARED"]
OFF_MELD_WINNER = _C["OFF_MELD_WINNER"]
OFF_MELD_SHOWN = _C["OFF_MELD_SHOWN"]
OFF_BELLA = _C["OFF_BELLA"]
OFF_VOIDS = _C["OFF_VOIDS"]
OFF_TRICKS_WON = _C["OFF_TRICKS_WON"]
OFF_WON_POINTS = _C["OFF_WON_POINTS"]
OFF_SCORES = _C["OFF_SCORES"]
OFF_BYTE_COUNTS = _C["OFF_BYTE_COUNTS"]
OFF_POT = _C["OFF_POT"]
OFF_RECORDED = _C["OFF_RECORDED"]
OFF_TARGET = _C["OFF_TARGET"]
OFF_END_POINTS = _C["OFF_END_POINTS"]
OFF_TRICK_TOP = _C["OFF_TRICK_TOP"]
OFF_TRICK_POINTS = _C["OFF_TRICK_POINTS"]
OFF_TAKES_TRICK = _C["OFF_TAKES_TRICK"]
OFF_HAND_POINTS = _C["OFF_HAND_POINTS"]


def observation_pieces(vector: np.ndarray) -> dict:
    """The named pieces of an observation vector (views; a batch works on its last axis)."""
    return SPEC.pieces_of(vector)


@njit(cache=True, inline="always")
def set_bits(out, off, mask):
    """out[off + b] = 1 for every set bit b of ``mask``."""
    while mask != 0:
        out[off + lowest_bit(mask)] = 1.0
        mask &= mask - 1


def _suit_runs():
    """Per suit byte: its runs of 3+ cards (D6.1), lowest first, as (top rank, length); length
    0 past the last. Found by ``melds_nb.list_runs``."""
    list_runs_py = getattr(list_runs, "py_func", list_runs)  # plain Python: no compiling here
    runs = np.zeros((4, 3), dtype=np.int64)
    table = np.zeros((256, MAX_SUIT_RUNS, 2), dtype=np.int64)
    for b in range(256):
        n = list_runs_py(b, runs)
        table[b, :n] = runs[:n, 1:]
    return table


SUIT_RUNS = _suit_runs()


def _run_length_table():
    """Per suit byte: how many runs (D6.1) of each length 3..8 it holds."""
    table = np.zeros((256, MELD_LENGTHS), dtype=np.float32)
    for b in range(256):
        for _, length in SUIT_RUNS[b]:
            if length != 0:
                table[b, length - 3] += 1
    return table


RUN_LENGTHS = _run_length_table()


@njit(cache=True, **NO_REFCOUNT)
def add_run_counts(out, off, hand):
    """Add the runs of 3+ cards of ``hand`` (D6.1) to out[off + length - 3]."""
    for suit in range(4):
        b = (hand >> (suit * 8)) & 0xFF
        if b != 0:
            for k in range(MELD_LENGTHS):
                out[off + k] += RUN_LENGTHS[b, k]


@njit(cache=True, **NO_REFCOUNT)
def winning_run_mask(hand, trump, debertz_trump_only, trump_wins_tie):
    """Cards of the highest run of ``hand`` (D6.2 order: kind, top card, trump on a tie)."""
    best_key = -1
    best_mask = 0
    for suit in range(4):
        b = (hand >> (suit * 8)) & 0xFF
        for k in range(MAX_SUIT_RUNS):
            top = SUIT_RUNS[b, k, 0]
            length = SUIT_RUNS[b, k, 1]
            if length == 0:
                break
            kind = run_kind(length, suit, trump, debertz_trump_only)
            tie = 1 if (trump_wins_tie and suit == trump) else 0
            key = (kind << 5) | (top << 1) | tie
            if key > best_key:
                best_key = key
                best_mask = (((1 << length) - 1) << (top + 1 - length)) << (suit * 8)
    return best_mask


@njit(cache=True, **NO_REFCOUNT)
def observe(st, R, seat, out):
    """Write what ``seat`` may know of state row ``st`` into ``out`` (OBS_SIZE float32)."""
    for k in range(OBS_SIZE):
        out[k] = 0.0
    n = R[L.R_PLAYERS]
    teams = R[L.R_TEAMS]
    sides = R[L.R_SIDES]
    phase = st[L.PHASE]
    tricks = 8 if n == 4 else 9
    trump = st[L.TRUMP]
    set_bits(out, OFF_HAND, st[L.HANDS + seat])
    n_plays = st[L.N_PLAYS]
    if st[L.PLAY_HANDS + seat] != 0:  # in play, a seat's cards leave its hand only by play
        for s in range(n):
            set_bits(out, OFF_PLAYED + (s - seat + n) % n * 32,
                     st[L.PLAY_HANDS + s] & ~st[L.HANDS + s])
    if phase == L.PH_PLAY:
        leader = st[L.LEADER]
        out[OFF_TRICK_LEADER + (leader - seat + n) % n] = 1.0
        for k in range(st[L.TRICK_LEN]):
            s = (leader + k) % n
            out[OFF_TRICK + (s - seat + n) % n * 32 + st[L.TRICK + k]] = 1.0
    out[OFF_TRICK_NO] = st[L.TRICK_NO] / tricks
    out[OFF_TURNUP + st[L.TURNUP]] = 1.0
    holder = st[L.TURNUP_RECEIVER]
    if st[L.SWAP_SEAT] >= 0:
        holder = st[L.SWAP_SEAT]
    if holder >= 0:
        out[OFF_TURNUP_PLACE + 1 + (holder - seat + n) % n] = 1.0
    else:
        out[OFF_TURNUP_PLACE] = 1.0
    if n < 4 and trump >= 0:
        if st[L.SWAP_SEAT] >= 0:
            out[OFF_KNOWN_DEAD + trump * 8] = 1.0  # D5: the 7 of trump went to the dead cards
        else:
            out[OFF_KNOWN_DEAD + st[L.TURNUP]] = 1.0
    out[OFF_DEALER + (st[L.DEALER] - seat + n) % n] = 1.0
    if st[L.TURN] >= 0:
        out[OFF_TURN + (st[L.TURN] - seat + n) % n] = 1.0
    out[OFF_PHASE + phase] = 1.0
    out[OFF_PLAYERS + n - 2] = 1.0
    out[OFF_TEAMS] = teams
    for k in range(st[L.N_BIDS]):
        out[OFF_BIDS + k * BID_CHOICES + st[L.BIDS + k] - A.PASS] = 1.0
    if trump >= 0:
        out[OFF_TRUMP + trump] = 1.0
    if st[L.BIDDER] >= 0:
        out[OFF_BIDDER + (st[L.BIDDER] - seat + n) % n] = 1.0
    # D6.6: melds. play_hands is set when the first lead is due (or a debertz is shown).
    if st[L.PLAY_HANDS + seat] != 0:
        all_public = R[L.R_DECLARE_BEFORE_PLAY] != 0 or st[L.END] == L.END_DEBERTZ
        first = min(n_plays, n)
        for s in range(n):
            declared = all_public or s == seat
            for k in range(first):
                if (st[L.PLAYS + k] >> 5) == s:
                    declared = True
            if declared:
                add_run_counts(out, OFF_MELDS_DECLARED + (s - seat + n) % n * MELD_LENGTHS,
                               st[L.PLAY_HANDS + s])
        mw = st[L.MELD_WINNER]
        if mw >= 0 and (all_public or st[L.TRICK_NO] >= 1):
            out[OFF_MELD_WINNER + (mw - seat + n) % n] = 1.0
            set_bits(out, OFF_MELD_SHOWN,
                     winning_run_mask(st[L.PLAY_HANDS + mw], trump, R[L.R_DEBERTZ_TRUMP_ONLY],
                                      R[L.R_TRUMP_MELD_WINS_TIE]))
    if st[L.BELLA_SHOWN] and st[L.BELLA_SEAT] >= 0:
        out[OFF_BELLA + (st[L.BELLA_SEAT] - seat + n) % n] = 1.0
    for s in range(n):
        r = (s - seat + n) % n
        v = st[L.VOIDS + s]
        for suit in range(4):
            if (v >> suit) & 1:
                out[OFF_VOIDS + r * 4 + suit] = 1.0
        out[OFF_TRICKS_WON + r] = st[L.TRICKS_WON + s] / tricks
        out[OFF_WON_POINTS + r] = st[L.WON_POINTS + s] / 162.0
    my_side = seat % 2 if teams else seat
    target = R[L.R_TARGET]
    ended = phase >= L.PH_DEAL_END and st[L.END] != L.END_VOID
    for side in range(sides):
        r = (side - my_side + sides) % sides
        out[OFF_SCORES + r] = st[L.SCORES + side] / target
        out[OFF_BYTE_COUNTS + r] = st[L.BYTE_COUNTS + side] / 3.0
        if ended:
            out[OFF_RECORDED + r] = st[L.RECORDED + side] / 162.0
    out[OFF_POT] = st[L.POT] / target
    out[OFF_TARGET] = target / 1000.0
    out[OFF_END_POINTS] = R[L.R_END_POINTS]
    if trump >= 0:
        hand = st[L.HANDS + seat]
        m = hand
        while m != 0:
            c = lowest_bit(m)
            m &= m - 1
            out[OFF_HAND_POINTS + c] = CARD_POINTS[card_key(c, trump)] / 20.0
        if phase == L.PH_PLAY and st[L.TRICK_LEN] > 0:
            out[OFF_TRICK_TOP + (st[L.TRICK_TOP] - seat + n) % n] = 1.0
            out[OFF_TRICK_POINTS] = st[L.TRICK_POINTS] / 50.0
            led = st[L.TRICK] >> 3
            best = st[L.TRICK_BEST]
            m = hand & ((0xFF << (led * 8)) | (0xFF << (trump * 8)))  # only these can take it
            while m != 0:
                c = lowest_bit(m)
                m &= m - 1
                if card_strength(c, trump) > best:
                    out[OFF_TAKES_TRICK + c] = 1.0


@njit(cache=True)
def observe_batch(S, R, seats, out):
    """observe() for every row i of ``S`` as seat ``seats[i]`` into ``out[i]``."""
    for i in range(S.shape[0]):
        observe(S[i], R, seats[i], out[i])
