"""The Barbu engine: kernels over one match's state row (layout.py), docs/rules/barbu.md.

Every kernel takes ``st`` (one row of the batch, an int64 vector) and ``R`` (the packed rules),
so a batch loop, a search agent and the Python layer all run the same code. Kernels do not
check their input: ``cardsim.barbu.game`` validates actions before calling ``step``.

Legal sets are ``(base, bits)`` pairs (see actions.py): action ``base + k`` is legal when bit
``k`` of ``bits`` is set.

Doubling (B6) is asked one (speaker, target) pair at a time. Speakers go in order from the
declarer's left, the declarer last (B6.1); each speaker is asked about the other seats in play
order from its own left: speaker + 1, speaker + 2, speaker + 3. A pair in which the speaker has
no choice is skipped. Then the redouble round (B6.2) asks, in the same speaker and target
order, only about doublers who spoke after the speaker. The choices are NO_DOUBLE / DOUBLE,
NO_DOUBLE / REDOUBLE (towards a seat that doubled the speaker), or DOUBLE alone when B6.3
forces it. The conventions beyond the rules file (docs/rules/barbu.md, "Variants") enter in
three places: how many doubles each declarer is owed (start_deal), whether a doubled pair may
be redoubled (has_choice), and whether the Domino starting rank is fixed (step).

Seats wrap round the table with ``& 3``: seat arithmetic here is never negative, and for
non-negative numbers ``x & 3 == x % 4`` without Python's sign correction.
"""

from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.bits_nb import fill_legal, popcount
from cardsim.jit import NO_REFCOUNT, ix

SUIT_BITS = (1 << 13) - 1
HEARTS = SUIT_BITS << 13
KING_HEARTS = 1 << (13 + 11)
ACE_HEARTS = 1 << (13 + 12)
QUEENS = (1 << 10) | (1 << 23) | (1 << 36) | (1 << 49)
RANK_BITS = 1 | (1 << 13) | (1 << 26) | (1 << 39)   # the four cards of rank 0; << rank for others
DOMINO_POINTS = (45, 20, 5, -5)                     # B5: first, second, third, last out
GAME_STREAM_KEY = stream_keys.GAME  # match-level draws


# ---------------------------------------------------------------------------------------------
# starting matches and deals (B2, B3)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def init_game(st, R, seed, game_id):
    """Reset ``st`` to the start of match ``game_id`` and deal its first deal."""
    st[:] = 0
    st[L.SEED] = seed
    st[L.GAME_ID] = game_id
    st[L.FIRST_DECLARER] = first_declarer_of(R, seed, game_id)
    for s in range(4):
        st[L.CONTRACTS_LEFT + s] = A.ALL_CONTRACTS
    start_deal(st, R)


@njit(cache=True, **NO_REFCOUNT)
def first_declarer_of(R, seed, game_id):
    """B2: the rule's seat, or a draw from the match's own seeded stream."""
    if R[L.R_FIRST_DECLARER] >= 0:
        return R[L.R_FIRST_DECLARER]
    _, v = rng_nb.below_scalar(rng_nb.stream(seed, game_id, GAME_STREAM_KEY), 4)
    return v


@njit(cache=True, **NO_REFCOUNT)
def start_deal(st, R):
    """Declarer, dealer and (at a declarer's first deal) the doubles owed for deal ``deal_no``,
    then deal the cards from the seeded generator."""
    d = st[L.DEAL_NO]
    decl = (st[L.FIRST_DECLARER] + d // L.DEALS_PER_DECLARER) & 3
    st[L.DECLARER] = decl
    st[L.DEALER] = (decl + 3) & 3  # B2: the dealer sits before the declarer
    if d % L.DEALS_PER_DECLARER == 0:  # B6.3: doubles of the new declarer from each other
        for s in range(4):                 # player (rules file: two; convention doubles_owed)
            st[L.OWED + s] = 0 if s == decl else R[L.R_DOUBLES_OWED]
    deal_from_seed(st)
    begin_deal(st, R)


@njit(cache=True, **NO_REFCOUNT)
def deal_from_seed(st):
    """Deal 13 cards each (B2) from (seed, match, deal number) alone.

    A partial Fisher-Yates shuffle fills deck positions 51 down to 13 (seats 3, 2, 1) with
    uniformly drawn cards; positions 0-12 keep the rest (seat 0), so the 13-13-13-13 split is
    uniform. Two swaps share one 31-bit draw r: j1 = r (k+1) >> 31, then the low 31 bits of
    that product (again nearly uniform, 25+ bits of entropy left) give j2 the same way, with
    multiplications only (bias below 2**-24 per index)."""
    deck = st[L.DECK:L.DECK + 52]
    for c in range(52):
        deck[c] = c
    state = rng_nb.stream(st[L.SEED], st[L.GAME_ID], st[L.DEAL_NO])
    low31 = (1 << 31) - 1
    k = 51
    while k >= 13:
        state, r = rng_nb.below_scalar(state, 1 << 31)
        x = r * (k + 1)
        j = x >> 31
        t = deck[k]
        deck[k] = deck[j]
        deck[j] = t
        k -= 1
        if k >= 13:
            x = (x & low31) * (k + 1)
            j = x >> 31
            t = deck[k]
            deck[k] = deck[j]
            deck[j] = t
            k -= 1
    for s in range(4):
        m = 0
        for k in range(13):
            m |= 1 << deck[13 * s + k]
        st[L.DEALT + s] = m


@njit(cache=True, **NO_REFCOUNT)
def begin_deal(st, R):
    """Clear the per-deal fields (dealt hands, scores and owed doubles are already set) and
    wait for the declarer's contract (B3.2)."""
    for s in range(4):
        st[L.HANDS + s] = st[L.DEALT + s]
        st[L.SCORES_BEFORE + s] = st[L.SCORES + s]
        st[L.OWED_BEFORE + s] = st[L.OWED + s]
        st[L.TRICK + s] = 0
        st[L.TRICKS_WON + s] = 0
        st[L.ROW_LO + s] = -1
        st[L.ROW_HI + s] = -1
        st[L.OUT_ORDER + s] = -1
        st[L.CONTRACT_SCORES + s] = 0
        st[L.SETTLEMENTS + s] = 0
        st[L.DEAL_SCORES + s] = 0
    for k in range(16):
        st[L.BETS + k] = 0
    for k in range(13):
        st[L.TRICK_WINNERS + k] = -1
    st[L.PLAYED] = 0
    st[L.DBL_ROUND] = 1
    st[L.DBL_SPEAKER] = 0
    st[L.DBL_TARGET] = 0
    st[L.LEADER] = st[L.DECLARER]
    st[L.TRICK_NO] = 0
    st[L.TRICK_LEN] = 0
    st[L.PLAYABLE] = 0
    st[L.CONTRACT] = -1
    st[L.TRUMP] = -1
    st[L.START_RANK] = -1
    st[L.N_DOUBLES] = 0
    st[L.N_PLAYS] = 0
    st[L.N_OUT] = 0
    st[L.PHASE] = L.PH_CONTRACT
    st[L.TURN] = st[L.DECLARER]


@njit(cache=True, **NO_REFCOUNT)
def next_deal(st, R):
    """Start the next deal of a match whose last deal has ended (phase PH_DEAL_END)."""
    st[L.DEAL_NO] += 1
    start_deal(st, R)


@njit(cache=True, **NO_REFCOUNT)
def init_from_deal(st, R, seed, game_id, deal_no, declarer, hands, scores, owed, declarer_left):
    """A match row at the start of deal ``deal_no`` with given cards (``hands``: 4 card masks),
    match totals, doubles owed to the declarer and the declarer's contracts left (a mask).

    Seats that were declarer before have no contracts left, later ones all seven (B2). The
    caller (game.py) validates everything."""
    st[:] = 0
    st[L.SEED] = seed
    st[L.GAME_ID] = game_id
    st[L.DEAL_NO] = deal_no
    block = deal_no // L.DEALS_PER_DECLARER
    st[L.FIRST_DECLARER] = (declarer - block + 4) & 3
    for b in range(4):
        seat = (st[L.FIRST_DECLARER] + b) & 3
        if b < block:
            st[L.CONTRACTS_LEFT + seat] = 0
        elif b > block:
            st[L.CONTRACTS_LEFT + seat] = A.ALL_CONTRACTS
        else:
            st[L.CONTRACTS_LEFT + seat] = declarer_left
    st[L.DECLARER] = declarer
    st[L.DEALER] = (declarer + 3) & 3
    k = 0
    for s in range(4):
        st[L.SCORES + s] = scores[s]
        st[L.OWED + s] = owed[s]
        st[L.DEALT + s] = hands[s]
        for c in range(52):
            if (hands[s] >> c) & 1:
                st[L.DECK + k] = c
                k += 1
    begin_deal(st, R)


@njit(cache=True, **NO_REFCOUNT)
def copy_state(src, dst):
    """Copy one match state row into another (search agents branch this way)."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


# ---------------------------------------------------------------------------------------------
# doubling (B6)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def speaking_position(st, seat):
    """Position of a seat in the doubling order: 0 = declarer's left ... 3 = declarer (B6.1)."""
    return (seat - st[L.DECLARER] + 3) & 3


@njit(cache=True, inline="always")
def has_choice(st, R, rnd, speaker, target):
    """Whether ``speaker`` has anything to decide towards ``target`` in doubling round rnd."""
    if st[ix(L.BETS + 4 * target + speaker)] == 1:  # target doubled speaker, not yet redoubled
        if R[L.R_REDOUBLES] == 0:
            return False  # convention redoubles off: the pair holds its one bet already
        if rnd == 1:
            return True  # B6.1: redouble a player who already doubled you
        # B6.2: the second round is for doublers who spoke after the speaker
        return speaking_position(st, target) > speaking_position(st, speaker)
    if rnd == 2 or st[ix(L.BETS + 4 * speaker + target)] != 0:
        return False
    decl = st[L.DECLARER]
    if speaker == decl:
        return False  # B6.1: the declarer may only redouble
    if st[L.CONTRACT] >= A.TRUMPS:
        return target == decl  # B6.1: positive contracts: only the declarer may be doubled
    return True


@njit(cache=True, inline="always")
def dbl_speaker_seat(st):
    """B6: the seat now asked whether to double, from its position ``dbl_speaker`` counted from the
    declarer's left."""
    return (st[L.DECLARER] + 1 + st[L.DBL_SPEAKER]) & 3


@njit(cache=True, inline="always")
def dbl_target_seat(st):
    """B6: the seat the speaker is asked about doubling: the ``dbl_target``-th seat after the
    speaker."""
    return (dbl_speaker_seat(st) + 1 + st[L.DBL_TARGET]) & 3


@njit(cache=True, inline="always")
def double_is_forced(st, speaker, target):
    """B6.3: the speaker's chances left (this deal and the declarer's later deals) equal the
    doubles still owed, so doubling the declarer is the only choice."""
    if target != st[L.DECLARER] or speaker == target or st[L.DBL_ROUND] != 1:
        return False
    chances = L.DEALS_PER_DECLARER - st[L.DEAL_NO] % L.DEALS_PER_DECLARER
    return st[ix(L.OWED + speaker)] >= chances


@njit(cache=True, inline="always")
def next_question(st, R, rnd, p, t):
    """B6: the first (round, speaker position, target position) from ``(rnd, p, t)`` on whose
    pair gives the speaker a choice; round 3 when none is left. The order in which pairs are
    asked, for the engine's step and the random-play loop (simulate_nb) alike."""
    decl = st[L.DECLARER]
    while rnd <= 2:
        while p < 4:
            speaker = (decl + 1 + p) & 3
            while t < 3:
                if has_choice(st, R, rnd, speaker, (speaker + 1 + t) & 3):
                    return rnd, p, t
                t += 1
            t = 0
            p += 1
        p = 0
        rnd += 1
    return rnd, p, t


@njit(cache=True, inline="always")
def seek_doubling(st, R):
    """From the current (round, speaker, target) position on, stop at the first pair with a
    choice, or start the play when there is none left."""
    rnd, p, t = next_question(st, R, st[L.DBL_ROUND], st[L.DBL_SPEAKER], st[L.DBL_TARGET])
    if rnd > 2:
        start_play(st, R)
        return
    st[L.DBL_ROUND] = rnd
    st[L.DBL_SPEAKER] = p
    st[L.DBL_TARGET] = t
    st[L.TURN] = (st[L.DECLARER] + 1 + p) & 3
    st[L.PHASE] = L.PH_DOUBLE


@njit(cache=True, inline="always")
def answer_double(st, speaker, target, action):
    """What the speaker's answer about ``target`` changes: the pair's bet, the doubles log and
    the doubles still owed to the declarer (B6)."""
    if action == A.DOUBLE:
        st[ix(L.BETS + 4 * speaker + target)] = 1
        st[ix(L.DOUBLES + st[L.N_DOUBLES])] = speaker * 16 + target * 4 + L.DOUBLE_KIND_DOUBLE
        st[L.N_DOUBLES] += 1
        if target == st[L.DECLARER] and st[ix(L.OWED + speaker)] > 0:
            st[ix(L.OWED + speaker)] -= 1  # B6.3
    elif action == A.REDOUBLE:
        st[ix(L.BETS + 4 * target + speaker)] = 2
        st[ix(L.DOUBLES + st[L.N_DOUBLES])] = speaker * 16 + target * 4 + L.DOUBLE_KIND_REDOUBLE
        st[L.N_DOUBLES] += 1


@njit(cache=True, inline="always")
def double_choice(st, R, action):
    """The speaker's answer about the current target (B6)."""
    answer_double(st, dbl_speaker_seat(st), dbl_target_seat(st), action)
    st[L.DBL_TARGET] += 1
    seek_doubling(st, R)


@njit(cache=True, inline="always")
def double_choices(st, speaker, target):
    """The speaker's legal answers about ``target`` in the current doubling round, as
    ``(base, bits)``: no double or redouble towards a seat that doubled the speaker, double
    only when B6.3 forces it, else no double or double."""
    if st[ix(L.BETS + 4 * target + speaker)] == 1:
        return A.NO_DOUBLE, 0b101  # no double / redouble
    if double_is_forced(st, speaker, target):
        return A.NO_DOUBLE, 0b010  # B6.3: double only
    return A.NO_DOUBLE, 0b011  # no double / double


# ---------------------------------------------------------------------------------------------
# legal actions
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def cards_allowed(hand, R, contract, trump, k, led, best_led):
    """Mask of the cards of ``hand`` that may be played as card ``k`` (from 0) of a trick in a
    trick contract (B4); ``led``: the suit led, ``best_led``: the highest card of that suit
    so far (both unused when ``k`` is 0). Written on scalars, for ``legal_cards`` and the
    random-play loop that keeps hands in locals (simulate_nb)."""
    c = contract
    if k == 0:
        if c == A.NO_HEARTS or (c == A.NO_KING and R[L.R_KING_LEAD_NO_HEARTS]):
            plain = hand & ~HEARTS  # B4: no heart lead unless the leader holds only hearts
            return plain if plain != 0 else hand
        if c == A.NO_KING:
            others = hand & ~KING_HEARTS  # B4 king_only: K of hearts led only as the last card
            return others if others != 0 else hand
        return hand
    follow = hand & (SUIT_BITS << (13 * led))
    # Both answers are worked out and one is selected: whether the hand can follow is random,
    # so a branch on it would often be mispredicted; the contract tests are predictable.
    when_following = follow
    if c == A.TRUMPS and led == trump and R[L.R_TRUMPS_MUST_OVERTRUMP]:
        higher = follow & ~((2 << best_led) - 1)  # B4: on a trump lead, beat the highest trump
        when_following = higher if higher != 0 else follow
    when_void = hand
    if c == A.NO_KING and R[L.R_KING_MUST_DISCARD]:
        when_void = KING_HEARTS if (hand & KING_HEARTS) != 0 else hand  # B4 king_must_discard
    elif c == A.TRUMPS and R[L.R_TRUMPS_MUST_RUFF]:
        trumps = hand & (SUIT_BITS << (13 * trump))  # B4: ruff if able
        when_void = trumps if trumps != 0 else hand
    return when_following if follow != 0 else when_void


@njit(cache=True, inline="always")
def legal_cards(st, R):
    """Mask of the cards the seat to act may play in a trick contract (B4)."""
    k = st[L.TRICK_LEN]
    c = st[L.CONTRACT]
    led = st[L.TRICK] // 13
    best = st[L.TRICK]
    if c == A.TRUMPS:  # the highest card of the led suit matters only there
        for j in range(1, k):
            x = st[ix(L.TRICK + j)]
            best = x if (x // 13 == led) & (x > best) else best
    return cards_allowed(st[ix(L.HANDS + st[L.TURN])], R, c, st[L.TRUMP], k, led, best)


@njit(cache=True, inline="always")
def legal_mask(st, R):
    """Legal actions of the seat to act as ``(base, bits)``: action base + k is legal when bit
    k of bits is set; (0, 0) when nobody is to act."""
    ph = st[L.PHASE]
    if ph == L.PH_PLAY:
        if st[L.CONTRACT] == A.DOMINO:
            return domino_choices(st[ix(L.HANDS + st[L.TURN])], st[L.PLAYABLE])
        return 0, legal_cards(st, R)
    if ph == L.PH_DOUBLE:
        return double_choices(st, dbl_speaker_seat(st), dbl_target_seat(st))
    if ph == L.PH_CONTRACT:
        return A.CONTRACT, st[ix(L.CONTRACTS_LEFT + st[L.DECLARER])]
    if ph == L.PH_TRUMP:
        return A.TRUMP_SUIT, 0b1111  # B4: a suit, no no-trump
    if ph == L.PH_START_RANK:
        return A.START_RANK, SUIT_BITS  # B5: any rank, held or not
    return 0, 0


@njit(cache=True, **NO_REFCOUNT)
def legal_array(st, R, out):
    """Fill ``out`` (NUM_ACTIONS entries, e.g. uint8) with 1 for legal actions, else 0."""
    base, bits = legal_mask(st, R)
    fill_legal(base, bits, out)


@njit(cache=True, **NO_REFCOUNT)
def is_legal(st, R, action):
    """Whether ``action`` is in the legal set of the seat to act (``legal_mask``)."""
    base, bits = legal_mask(st, R)
    k = action - base
    return 0 <= k < 63 and ((bits >> k) & 1) == 1


# ---------------------------------------------------------------------------------------------
# stepping
# ---------------------------------------------------------------------------------------------
@njit(cache=True, **NO_REFCOUNT)
def step(st, R, action):
    """Apply a legal ``action`` of the seat to act."""
    ph = st[L.PHASE]
    if ph == L.PH_PLAY:
        if st[L.CONTRACT] == A.DOMINO:
            play_domino(st, R, action)
        else:
            play_trick_card(st, R, action)
    elif ph == L.PH_DOUBLE:
        double_choice(st, R, action)
    elif ph == L.PH_CONTRACT:
        c = action - A.CONTRACT
        st[L.CONTRACT] = c
        st[ix(L.CONTRACTS_LEFT + st[L.DECLARER])] &= ~(1 << c)  # B2: each contract once
        if c == A.TRUMPS:
            st[L.PHASE] = L.PH_TRUMP
        elif c == A.DOMINO and R[L.R_DOMINO_START] < 0:
            st[L.PHASE] = L.PH_START_RANK
        elif c == A.DOMINO:  # convention domino_start: the rank is fixed, nobody names it
            st[L.START_RANK] = R[L.R_DOMINO_START]
            seek_doubling(st, R)
        else:
            seek_doubling(st, R)
    elif ph == L.PH_TRUMP:
        st[L.TRUMP] = action - A.TRUMP_SUIT
        seek_doubling(st, R)
    elif ph == L.PH_START_RANK:
        st[L.START_RANK] = action - A.START_RANK
        seek_doubling(st, R)


@njit(cache=True, inline="always")
def start_play(st, R):
    """B3.4: the declarer leads to the first trick, or plays first in Domino."""
    decl = st[L.DECLARER]
    st[L.LEADER] = decl
    st[L.TURN] = decl
    st[L.PHASE] = L.PH_PLAY
    if st[L.CONTRACT] == A.DOMINO:
        st[L.PLAYABLE] = RANK_BITS << st[L.START_RANK]  # B5: only starting-rank cards at first


@njit(cache=True, inline="always")
def log_play(st, seat, action):
    """Append ``seat``'s card or Domino pass ``action`` to the deal's plays log (``seat <<
    PLAY_SEAT_SHIFT | action``), what hand records and the heuristic read."""
    st[ix(L.PLAYS + st[L.N_PLAYS])] = (seat << L.PLAY_SEAT_SHIFT) | action
    st[L.N_PLAYS] += 1


@njit(cache=True, inline="always")
def beats(card, best, trump):
    """Whether ``card`` beats ``best``, the trick's winning card so far: a higher card of its
    suit, or a trump on a card of another suit (B4; ``trump`` is -1 outside Trumps). A select,
    not a branch: the cards come at random, so branches on them would be mispredicted."""
    suit = card // 13
    best_suit = best // 13
    return ((suit == best_suit) & (card > best)) | ((suit != best_suit) & (suit == trump))


@njit(cache=True, inline="always")
def trick_winner_index(st, n=4):
    """Position among the trick's first ``n`` cards of the one winning so far (``beats``)."""
    trump = st[L.TRUMP]  # -1 outside Trumps
    best = st[L.TRICK]
    best_k = 0
    for k in range(1, n):
        c = st[ix(L.TRICK + k)]
        better = beats(c, best, trump)
        best = c if better else best
        best_k = k if better else best_k
    return best_k


@njit(cache=True, inline="always")
def trick_points(contract, tmask, tricks_left):
    """B4: what the completed trick ``tmask`` costs (or earns) its winner; ``tricks_left``
    counts it."""
    if contract == A.NO_TRICKS:
        return -2
    if contract == A.NO_QUEENS:
        return -6 * popcount(tmask & QUEENS)
    if contract == A.NO_LAST_TWO:
        return -20 if tricks_left == 1 else (-10 if tricks_left == 2 else 0)
    if contract == A.NO_HEARTS:
        return -2 * popcount(tmask & HEARTS) - (4 if (tmask & ACE_HEARTS) != 0 else 0)
    if contract == A.NO_KING:
        return -20 if (tmask & KING_HEARTS) != 0 else 0
    return 5  # Trumps


@njit(cache=True, inline="always")
def play_trick_card(st, R, card):
    """B4: the seat to act plays ``card``; completes tricks, scores them and ends the deal."""
    seat = st[L.TURN]
    bit = 1 << card
    st[ix(L.HANDS + seat)] &= ~bit
    st[L.PLAYED] |= bit
    k = st[L.TRICK_LEN]
    st[ix(L.TRICK + k)] = card
    st[L.TRICK_LEN] = k + 1
    log_play(st, seat, card)
    if k < 3:
        st[L.TURN] = (seat + 1) & 3
        return
    w = (st[L.LEADER] + trick_winner_index(st)) & 3
    tmask = (1 << st[L.TRICK]) | (1 << st[L.TRICK + 1]) | (1 << st[L.TRICK + 2]) | bit
    n = st[L.TRICK_NO]
    c = st[L.CONTRACT]
    st[ix(L.CONTRACT_SCORES + w)] += trick_points(c, tmask, 13 - n)
    st[ix(L.TRICKS_WON + w)] += 1
    st[ix(L.TRICK_WINNERS + n)] = w
    st[L.TRICK_NO] = n + 1
    st[L.TRICK_LEN] = 0
    st[L.LEADER] = w
    st[L.TURN] = w
    if trick_ends_deal(c, n + 1, st[L.PLAYED], tmask):
        finish_deal(st, R)


@njit(cache=True, inline="always")
def trick_ends_deal(contract, tricks_done, played, tmask):
    """Whether a trick contract's deal is over after the trick ``tmask``, with ``played`` the
    cards played so far: after 13 tricks, or early (B4, B8) in No Queens once the four queens
    are out and in No King once the K of hearts is taken."""
    return (tricks_done == 13 or (contract == A.NO_QUEENS and (played & QUEENS) == QUEENS)
            or (contract == A.NO_KING and (tmask & KING_HEARTS) != 0))


@njit(cache=True, inline="always")
def play_domino(st, R, action):
    """B5: the seat to act plays a card or passes; out order and the end of the deal."""
    seat = st[L.TURN]
    log_play(st, seat, action)
    if action != A.PASS:
        bit = 1 << action
        st[ix(L.HANDS + seat)] &= ~bit
        st[L.PLAYED] |= bit
        st[L.PLAYABLE] = lay_domino_card(st, st[L.PLAYABLE], action)
        if st[ix(L.HANDS + seat)] == 0 and goes_out(st, seat):
            end_domino(st, R)
            return
    out = 0
    for x in range(4):
        out |= (st[ix(L.HANDS + x)] == 0) << x
    st[L.TURN] = next_domino_player(seat, out)


@njit(cache=True, inline="always")
def domino_choices(hand, playable):
    """B5, B8: the legal set ``(base, bits)`` of a Domino player holding ``hand`` when the
    cards ``playable`` may be laid: those it holds, or a pass when it holds none."""
    m = hand & playable
    return 0, m if m != 0 else 1 << A.PASS


@njit(cache=True, inline="always")
def lay_domino_card(st, playable, card):
    """B5: ``card`` is laid in its suit's row (kept in ``st``); returns the cards playable
    after it, from ``playable`` before it: the row's ends move out by one rank."""
    s = card // 13
    r = card - 13 * s
    lo = st[ix(L.ROW_LO + s)]
    hi = st[ix(L.ROW_HI + s)]
    opened = lo >= 0  # else the starting-rank card opens the row (selects, not branches)
    lo = min(lo, r) if opened else r
    hi = max(hi, r) if opened else r
    st[ix(L.ROW_LO + s)] = lo
    st[ix(L.ROW_HI + s)] = hi
    below = (1 << (13 * s + lo - 1)) if lo > 0 else 0
    above = (1 << (13 * s + hi + 1)) if hi < 12 else 0
    return (playable & ~(SUIT_BITS << (13 * s))) | below | above


@njit(cache=True, inline="always")
def goes_out(st, seat):
    """B5: ``seat`` has laid its last card and joins the out order; returns whether three
    players are out, which ends the deal."""
    n_out = st[L.N_OUT]
    st[ix(L.OUT_ORDER + n_out)] = seat
    st[L.N_OUT] = n_out + 1
    return n_out + 1 == 3


@njit(cache=True, inline="always")
def end_domino(st, R):
    """B5: three are out: the one left (the seat whose hand in ``st`` is not empty) is
    appended to the out order, the places score and the deal ends."""
    for x in range(4):
        if st[ix(L.HANDS + x)] != 0:
            st[L.OUT_ORDER + 3] = x
    st[L.N_OUT] = 4
    for j in range(4):
        st[ix(L.CONTRACT_SCORES + st[L.OUT_ORDER + j])] = DOMINO_POINTS[j]
    finish_deal(st, R)


@njit(cache=True, inline="always")
def next_domino_player(seat, out):
    """B5: the player after ``seat``, players who are out (``out``: a bit a seat) skipped."""
    nxt = (seat + 1) & 3
    while (out >> nxt) & 1:
        nxt = (nxt + 1) & 3
    return nxt


# ---------------------------------------------------------------------------------------------
# scoring (B7) and the match end (B2)
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def finish_deal(st, R):
    """B7: settlements of every doubled pair, deal scores, match totals; B2: the match ends
    after 28 deals and the highest totals share the win."""
    for i in range(4):
        settlement = st[L.SETTLEMENTS + i]
        for j in range(4):
            # every pair is settled, unbet ones by 0: which pairs were bet is random, so a
            # branch on it would be mispredicted
            mult = st[L.BETS + 4 * i + j] + st[L.BETS + 4 * j + i]  # 0, 1 or 2 (one bet a pair)
            settlement += (st[L.CONTRACT_SCORES + i] - st[L.CONTRACT_SCORES + j]) * mult
        st[L.SETTLEMENTS + i] = settlement
    for s in range(4):
        ds = st[L.CONTRACT_SCORES + s] + st[L.SETTLEMENTS + s]
        st[L.DEAL_SCORES + s] = ds
        st[L.SCORES + s] += ds
    st[L.TURN] = -1
    st[L.TRICK_LEN] = 0
    if st[L.DEAL_NO] == L.DEALS_PER_MATCH - 1:
        best = st[L.SCORES]
        for s in range(1, 4):
            if st[L.SCORES + s] > best:
                best = st[L.SCORES + s]
        w = 0
        for s in range(4):
            if st[L.SCORES + s] == best:
                w |= 1 << s
        st[L.WINNERS] = w
        st[L.MATCH_OVER] = 1
        st[L.PHASE] = L.PH_MATCH_OVER
    else:
        st[L.PHASE] = L.PH_DEAL_END
