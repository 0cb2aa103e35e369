"""What one Barbu seat may know, as a flat float32 vector of named pieces
(docs/architecture.md, the engine).

``PIECES`` declares every piece (name, size, encoding); offsets and the total ``OBS_SIZE`` come
from it (``cardsim.observation``). ``observe(st, R, seat, out)`` writes the vector of ``seat`` for
state row ``st``; ``observation_pieces(vector)`` gives the dict of named pieces.

Seats are relative to the observer: relative seat r is seat ``(seat + r) % 4`` (0 = the
observer, 1 = its left, ...). Only public facts and the seat's own cards reach the vector: its
hand, cards played (by whom), the current trick, the contract, trump and starting rank, the
Domino rows and the cards playable on them (B5), every double and redouble (B6), doubles owed
(B6.3), contracts left (B2), voids shown by play in trick contracts (not following; not ruffing
when Trumps obliges to; leading a heart where hearts may only be led from a hand of hearts,
B4), hand sizes, tricks and scores.

The last pieces add nothing the others do not determine; they spell out for a network who
takes the current trick so far, what its cards would score the taker in the contract, and
which of the seat's cards would take it. They come last so that a network trained before
they existed reads the same values at the start of the vector (``agents.neural.checkpoint``).
"""

import numpy as np
from numba import njit

from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import trick_points, trick_winner_index
from cardsim.bits_nb import lowest_bit, popcount
from cardsim.observation import ObservationSpec
from cardsim.jit import NO_REFCOUNT

INF = 1e4  # bound of the unbounded pieces (scores and the like never come near it)
SCORE_SCALE = 100.0

PIECES = (
    ("hand", 52, "cards the seat holds now (bit = card index)"),
    ("played", 4 * 52, "cards played in this deal, row = relative seat that played it"),
    ("trick", 4 * 52, "cards of the current trick, row = relative seat that played it"),
    ("trick_leader", 4, "relative seat that led the current trick (trick contracts)"),
    ("trick_no", 1, "tricks completed / 13"),
    ("declarer", 4, "relative seat of the declarer (B2)"),
    ("turn", 4, "relative seat to act"),
    ("phase", len(L.PHASE_NAMES), "phase one-hot: " + ", ".join(L.PHASE_NAMES)),
    ("contract", A.NUM_CONTRACTS, "contract one-hot: " + ", ".join(A.CONTRACT_NAMES)),
    ("trump", 4, "Trumps: the trump suit (B4)"),
    ("start_rank", 13, "Domino: the starting rank 2..A (B5)"),
    ("domino_rows", 8, "Domino: per suit (lowest rank + 1) / 13 and (highest rank + 1) / 13 "
                       "of its row, 0 while not open (B5)"),
    ("domino_playable", 52, "Domino: cards that may be played now, whoever holds them (B5)"),
    ("hand_sizes", 4, "per relative seat: cards held / 13"),
    ("doubled", 16, "entry 4i+j: relative seat i doubled relative seat j (B6)"),
    ("redoubled", 16, "entry 4i+j: relative seat j redoubled the double of relative seat i"),
    ("doubling_target", 4, "doubling phase: relative seat the speaker is asked about"),
    ("doubling_round", 2, "doubling phase: first turns, redouble round (B6.2)"),
    ("owed", 4, "per relative seat: doubles of the declarer it still owes / 2 (B6.3)"),
    ("contracts_left", 4 * A.NUM_CONTRACTS, "per relative seat: contracts not yet played (B2)"),
    ("deal_in_block", 7, "position of the deal among the declarer's 7 (B2)"),
    ("deal_no", 1, "deal number / 27"),
    ("voids", 16, "per relative seat: suits it has shown it lacks (trick contracts)"),
    ("tricks_won", 4, "per relative seat: tricks taken / 13"),
    ("contract_scores", 4, "per relative seat: contract score so far / 100 (B4, B5)"),
    ("deal_scores", 4, "per relative seat: deal score once the deal has ended / 100 (B7)"),
    ("scores", 4, "per relative seat: match total / 100"),
    # Appended pieces: what the pieces above already determine, worked out for the network
    # (a network made before they were added reads only the vector's start; checkpoints)
    ("trick_top", 4, "relative seat whose card takes the current trick so far (B4)"),
    ("trick_points", 1, "what the current trick's cards so far would score its taker in "
                        "the contract (B4) / 20"),
    ("takes_trick", 52, "cards of the hand that would take the current trick so far if "
                        "played now (B4; none before its lead)"),
)
_UNBOUNDED = (-INF, INF)
SPEC = ObservationSpec(PIECES, bounds={
    "contract_scores": _UNBOUNDED, "deal_scores": _UNBOUNDED, "scores": _UNBOUNDED,
    "trick_points": (-2.0, 1.0)})
_C = SPEC.constants()
OBS_SIZE = _C["OBS_SIZE"]
OFF_HAND = _C["OFF_HAND"]
OFF_PLAYED = _C["OFF_PLAYED"]
OFF_TRICK = _C["OFF_TRICK"]
OFF_TRICK_LEADER = _C["OFF_TRICK_LEADER"]
OFF_TRICK_NO = _C["OFF_TRICK_NO"]
OFF_DECLARER = _C["OFF_DECLARER"]
OFF_TURN = _C["OFF_TURN"]
OFF_PHASE = _C["OFF_PHASE"]
OFF_CONTRACT = _C["OFF_CONTRACT"]
OFF_TRUMP = _C["OFF_TRUMP"]
OFF_START_RANK = _C["OFF_START_RANK"]
OFF_DOMINO_ROWS = _C["OFF_DOMINO_ROWS"]
OFF_DOMINO_PLAYABLE = _C["OFF_DOMINO_PLAYABLE"]
OFF_HAND_SIZES = _C["OFF_HAND_SIZES"]
OFF_DOUBLED = _C["OFF_DOUBLED"]
OFF_REDOUBLED = _C["OFF_REDOUBLED"]
OFF_DOUBLING_TARGET = _C["OFF_DOUBLING_TARGET"]
OFF_DOUBLING_ROUND = _C["OFF_DOUBLING_ROUND"]
OFF_OWED = _C["OFF_OWED"]
OFF_CONTRACTS_LEFT = _C["OFF_CONTRACTS_LEFT"]
OFF_DEAL_IN_BLOCK = _C["OFF_DEAL_IN_BLOCK"]
OFF_DEAL_NO = _C["OFF_DEAL_NO"]
OFF_VOIDS = _C["OFF_VOIDS"]
OFF_TRICKS_WON = _C["OFF_TRICKS_WON"]
OFF_CONTRACT_SCORES = _C["OFF_CONTRACT_SCORES"]
OFF_DEAL_SCORES = _C["OFF_DEAL_SCORES"]
OFF_SCORES = _C["OFF_SCORES"]
OFF_TRICK_TOP = _C["OFF_TRICK_TOP"]
OFF_TRICK_POINTS = _C["OFF_TRICK_POINTS"]
OFF_TAKES_TRICK = _C["OFF_TAKES_TRICK"]

SUIT_BITS = (1 << 13) - 1


def observation_pieces(vector: np.ndarray) -> dict:
    """The named pieces of an observation vector (views; a batch works on its last axis)."""
    return SPEC.pieces_of(vector)


@njit(cache=True, inline="always")
def set_bits(out, off, mask):
    """out[off + b] = 1 for every set bit b of ``mask``."""
    while mask != 0:
        out[off + lowest_bit(mask)] = 1.0
        mask &= mask - 1


@njit(cache=True, **NO_REFCOUNT)
def voids_shown(st, R, seat, out):
    """Replay the deal's plays (trick contracts) and mark the suits each seat showed it lacks."""
    c = st[L.CONTRACT]
    if c < 0 or c == A.DOMINO:
        return
    trump = st[L.TRUMP]
    hearts_lead_barred = c == A.NO_HEARTS or (c == A.NO_KING and R[L.R_KING_LEAD_NO_HEARTS])
    led = 0
    for k in range(st[L.N_PLAYS]):
        e = st[L.PLAYS + k]
        s = e >> L.PLAY_SEAT_SHIFT
        card = e & 63
        suit = card // 13
        r = (s - seat + 4) % 4
        if k % 4 == 0:
            led = suit
            if suit == 1 and hearts_lead_barred:  # B4: a heart lead shows a hand of hearts
                for x in (0, 2, 3):
                    out[OFF_VOIDS + r * 4 + x] = 1.0
        elif suit != led:
            out[OFF_VOIDS + r * 4 + led] = 1.0
            if c == A.TRUMPS and R[L.R_TRUMPS_MUST_RUFF] and suit != trump:
                out[OFF_VOIDS + r * 4 + trump] = 1.0  # B4: had to ruff if able


@njit(cache=True, **NO_REFCOUNT)
def trick_so_far(st, seat, out):
    """The appended trick pieces of a started trick: who takes it so far, what its cards
    would score the taker, and which cards of ``seat``'s hand would take it (B4)."""
    n = st[L.TRICK_LEN]
    trump = st[L.TRUMP]  # -1 outside Trumps
    best_k = trick_winner_index(st, n)
    best = st[L.TRICK + best_k]
    tmask = 0
    for k in range(n):
        tmask |= 1 << st[L.TRICK + k]
    out[OFF_TRICK_TOP + (st[L.LEADER] + best_k - seat + 4) % 4] = 1.0
    out[OFF_TRICK_POINTS] = trick_points(st[L.CONTRACT], tmask, 13 - st[L.TRICK_NO]) / 20.0
    suit = best // 13
    beating = (SUIT_BITS << (13 * suit)) & ~((2 << best) - 1)  # higher cards of its suit
    if trump >= 0 and suit != trump:
        beating |= SUIT_BITS << (13 * trump)
    set_bits(out, OFF_TAKES_TRICK, st[L.HANDS + seat] & beating)


@njit(cache=True, **NO_REFCOUNT)
def observe(st, R, seat, out):
    """Write what ``seat`` may know of match row ``st`` into ``out`` (OBS_SIZE float32)."""
    for k in range(OBS_SIZE):
        out[k] = 0.0
    phase = st[L.PHASE]
    contract = st[L.CONTRACT]
    set_bits(out, OFF_HAND, st[L.HANDS + seat])
    for s in range(4):  # a seat's cards leave its hand only by being played
        set_bits(out, OFF_PLAYED + (s - seat + 4) % 4 * 52, st[L.DEALT + s] & ~st[L.HANDS + s])
    if phase == L.PH_PLAY and contract != A.DOMINO:
        leader = st[L.LEADER]
        out[OFF_TRICK_LEADER + (leader - seat + 4) % 4] = 1.0
        for k in range(st[L.TRICK_LEN]):
            out[OFF_TRICK + (leader + k - seat + 4) % 4 * 52 + st[L.TRICK + k]] = 1.0
        if st[L.TRICK_LEN] > 0:
            trick_so_far(st, seat, out)
    out[OFF_TRICK_NO] = st[L.TRICK_NO] / 13.0
    out[OFF_DECLARER + (st[L.DECLARER] - seat + 4) % 4] = 1.0
    if st[L.TURN] >= 0:
        out[OFF_TURN + (st[L.TURN] - seat + 4) % 4] = 1.0
    out[OFF_PHASE + phase] = 1.0
    if contract >= 0:
        out[OFF_CONTRACT + contract] = 1.0
    if st[L.TRUMP] >= 0:
        out[OFF_TRUMP + st[L.TRUMP]] = 1.0
    if st[L.START_RANK] >= 0:
        out[OFF_START_RANK + st[L.START_RANK]] = 1.0
    if contract == A.DOMINO:
        for suit in range(4):
            if st[L.ROW_LO + suit] >= 0:
                out[OFF_DOMINO_ROWS + 2 * suit] = (st[L.ROW_LO + suit] + 1) / 13.0
                out[OFF_DOMINO_ROWS + 2 * suit + 1] = (st[L.ROW_HI + suit] + 1) / 13.0
        if phase == L.PH_PLAY:
            set_bits(out, OFF_DOMINO_PLAYABLE, st[L.PLAYABLE])
    for s in range(4):
        r = (s - seat + 4) % 4
        out[OFF_HAND_SIZES + r] = popcount(st[L.HANDS + s]) / 13.0
        # Scaled by the doubles owed at a declarer's start: two under the rules file (the
        # piece's "/ 2"), more under the doubles_owed variant, so the piece stays in [0, 1].
        out[OFF_OWED + r] = st[L.OWED + s] / max(R[L.R_DOUBLES_OWED], 2)
        left = st[L.CONTRACTS_LEFT + s]
        for c in range(A.NUM_CONTRACTS):
            if (left >> c) & 1:
                out[OFF_CONTRACTS_LEFT + r * A.NUM_CONTRACTS + c] = 1.0
        out[OFF_TRICKS_WON + r] = st[L.TRICKS_WON + s] / 13.0
        out[OFF_CONTRACT_SCORES + r] = st[L.CONTRACT_SCORES + s] / SCORE_SCALE
        if phase >= L.PH_DEAL_END:
            out[OFF_DEAL_SCORES + r] = st[L.DEAL_SCORES + s] / SCORE_SCALE
        out[OFF_SCORES + r] = st[L.SCORES + s] / SCORE_SCALE
        for t in range(4):
            b = st[L.BETS + 4 * s + t]
            rt = (t - seat + 4) % 4
            if b >= 1:
                out[OFF_DOUBLED + 4 * r + rt] = 1.0
            if b == 2:
                out[OFF_REDOUBLED + 4 * r + rt] = 1.0
    if phase == L.PH_DOUBLE:
        speaker = (st[L.DECLARER] + 1 + st[L.DBL_SPEAKER]) % 4
        target = (speaker + 1 + st[L.DBL_TARGET]) % 4
        out[OFF_DOUBLING_TARGET + (target - seat + 4) % 4] = 1.0
        out[OFF_DOUBLING_ROUND + st[L.DBL_ROUND] - 1] = 1.0
    d = st[L.DEAL_NO]
    out[OFF_DEAL_IN_BLOCK + d % L.DEALS_PER_DECLARER] = 1.0
    out[OFF_DEAL_NO] = d / (L.DEALS_PER_MATCH - 1.0)
    voids_shown(st, R, seat, out)


@njit(cache=True)
def observe_batch(S, R, seats, out):
    """observe() for every row i of ``S`` as seat ``seats[i]`` into ``out[i]``."""
    for i in range(S.shape[0]):
        observe(S[i], R, seats[i], out[i])
