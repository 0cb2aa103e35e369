"""Compiled random-play loops over many Barbu deals or matches (the simulation fast path).

An *item* of a run is either a whole 28-deal match (``whole_matches``) or one deal (hands
mode). Item ``i`` of a run is fixed by (seed, i) alone, so results are the same for any block
count and thread count (statistics are integer sums):

* whole matches: item ``i`` is match ``i``; its deals come from the engine's seeded streams,
  its random decisions from ``rng_nb.stream(seed, i, POLICY_KEY)``.
* hands mode: item ``i`` is deal ``i % 28`` of match ``i // 28`` (same cards, declarer and
  dealer as in the whole match), played as if the declarer's earlier deals of that match had
  been played by the random policy: the contracts already used are a uniformly random set of
  the right size, and each opponent's doubles still owed come from the same coin flips the
  random policy makes towards the declarer (B6.3 forcing included), drawn from
  ``stream(seed, i // 28, HANDS_KEY + i % 28)``. Match totals before the deal are 0. Its
  decisions come from ``stream(seed, i // 28, POLICY_KEY + 1 + i % 28)``.

The random policy picks a uniformly random legal action; a decision with a single legal
action draws nothing from the generator.
"""

from numba import njit

from cardsim import rng_nb, stream_keys
from cardsim.barbu import actions as A
from cardsim.barbu import layout as L
from cardsim.barbu.engine_nb import (
    answer_double,
    beats,
    begin_deal,
    cards_allowed,
    deal_from_seed,
    domino_choices,
    double_choices,
    end_domino,
    finish_deal,
    first_declarer_of,
    goes_out,
    lay_domino_card,
    legal_mask,
    next_domino_player,
    next_question,
    start_play,
    step,
    trick_ends_deal,
    trick_points,
)
from cardsim.bits_nb import nth_bit, popcount
from cardsim.hands_nb import hand_of, hands_at, played, store_hands
from cardsim.jit import NO_REFCOUNT, ix

POLICY_KEY = stream_keys.POLICY
HANDS_KEY = stream_keys.HANDS

# Columns of the statistics array (one row per block, summed at the end).
S_DEALS = 0             # deals played
S_MATCHES = 1           # matches finished
S_DECISIONS = 2         # decisions taken
S_PAIRS_DOUBLED = 3     # pairs left doubled (not redoubled) at the end of doubling
S_PAIRS_REDOUBLED = 4   # pairs redoubled
S_SHARED_WINS = 5       # finished matches whose win is shared (B2)
S_BAD = 6               # deals or matches breaking a B8 total (a bug if ever non-zero)
S_WINS = 7              # 4 columns: match wins per seat (a shared win counts for each)
S_FINAL = 11            # 4 columns: sum of final match totals per seat
S_COUNT = 15            # 7 columns: deals per contract
S_DECL_CS = 22          # 7 columns: sum of the declarer's contract scores, per contract
S_DECL_DS = 29          # 7 columns: sum of the declarer's deal scores, per contract
S_ALL_CS = 36           # 7 columns: sum of all seats' contract scores, per contract
S_ALL_DS = 43           # 7 columns: sum of all seats' deal scores, per contract
S_PAIRS_BET = 50        # 7 columns: doubled or redoubled pairs, per contract
S_TRICKS = 57           # 7 columns: tricks played, per contract (0 for Domino)
NUM_STATS = 64


@njit(cache=True, inline="always")
def random_action_ahead(base, bits, state, ahead):
    """A uniformly random legal action from generator ``state``, whose next output
    ``ahead`` (``rng_nb.peek_scalar(state)``) is already worked out: returns (new state, its
    next output, action). A forced action draws nothing: the state only advances when there
    is a choice. Both outcomes are worked out and one selected: forced actions come
    unpredictably, so a branch would be mispredicted (with one legal action the draw is 0)."""
    after = rng_nb.peek_scalar(state + rng_nb.GOLDEN)  # the output after ``ahead``
    n = popcount(bits)
    draws = n > 1
    action = base + nth_bit(bits, rng_nb.scale_below(ahead, n))
    return (state + rng_nb.GOLDEN if draws else state), (after if draws else ahead), action


@njit(cache=True, inline="always")
def random_action_scalar(base, bits, state):
    """``random_action_ahead`` for a generator held in a local: returns (new state, action)."""
    state, _, action = random_action_ahead(base, bits, state, rng_nb.peek_scalar(state))
    return state, action


@njit(cache=True, inline="always")
def random_action(base, bits, rng, i):
    """``random_action_scalar`` with generator ``rng[i]``."""
    rng[i], action = random_action_scalar(base, bits, rng[i])
    return action


@njit(cache=True, inline="always")
def play_tricks(st, R, state, ahead):
    """Random legal cards from the start of a trick until a trick contract's deal ends, with
    the generator one draw ahead as in ``play_random_deal``: returns (new state, its next
    output, cards played). The same draws and the same final row as stepping card by card
    (``legal_cards`` and ``play_trick_card`` of the engine, whose rules it calls), with the
    cards played held in locals for the length of the deal
    (tests/barbu/test_barbu_random_play.py)."""
    c = st[L.CONTRACT]
    trump = st[L.TRUMP]
    gone = st[L.PLAYED]
    n_plays = st[L.N_PLAYS]
    leader = st[L.LEADER]
    n = st[L.TRICK_NO]
    cards = 0
    while True:
        seat = leader
        led = 0
        best_led = 0  # the highest card of the led suit so far
        best = 0  # the winning card so far
        winner = leader
        tmask = 0
        for k in range(4):
            # the row's hands are brought up to date at the end: a seat's hand is what it held
            # less the cards played since (one load, where picking a hand out of four locals
            # and taking the card out of it were a dozen instructions)
            hand = st[ix(L.HANDS + seat)] & ~(gone | tmask)
            allowed = cards_allowed(hand, R, c, trump, k, led, best_led)
            state, ahead, card = random_action_ahead(0, allowed, state, ahead)
            st[ix(L.PLAYS + n_plays)] = (seat << L.PLAY_SEAT_SHIFT) | card
            n_plays += 1
            st[ix(L.TRICK + k)] = card
            tmask |= 1 << card
            if k == 0:
                led = card // 13
                best_led = card
                best = card
            else:
                best_led = card if (card // 13 == led) & (card > best_led) else best_led
                better = beats(card, best, trump)
                best = card if better else best
                winner = seat if better else winner
            seat = (seat + 1) & 3
        cards += 4
        gone |= tmask
        st[ix(L.CONTRACT_SCORES + winner)] += trick_points(c, tmask, 13 - n)
        st[ix(L.TRICKS_WON + winner)] += 1
        st[ix(L.TRICK_WINNERS + n)] = winner
        n += 1
        leader = winner
        if trick_ends_deal(c, n, gone, tmask):
            break
    for s in range(4):
        st[L.HANDS + s] &= ~gone
    st[L.PLAYED] = gone
    st[L.N_PLAYS] = n_plays
    st[L.TRICK_NO] = n
    st[L.TRICK_LEN] = 0
    st[L.LEADER] = leader
    st[L.TURN] = leader
    finish_deal(st, R)
    return state, ahead, cards


@njit(cache=True, **NO_REFCOUNT)
def play_domino_at_random(st, R, state, ahead):
    """Random Domino cards and passes until the deal ends, with the generator one draw ahead
    as in ``play_random_deal``: returns (new state, its next output, decisions taken). The
    same draws and the same final row as stepping them (the engine's ``domino_choices``,
    ``lay_domino_card``, ``goes_out``, ``end_domino`` and ``next_domino_player``), with the
    hands and the playable cards held in locals (tests/barbu/test_barbu_random_play.py)."""
    h0, h1, h2, h3 = hands_at(st, L.HANDS)
    playable = st[L.PLAYABLE]
    gone = st[L.PLAYED]
    n_plays = st[L.N_PLAYS]
    seat = st[L.TURN]
    out = (h0 == 0) | ((h1 == 0) << 1) | ((h2 == 0) << 2) | ((h3 == 0) << 3)  # seats out
    taken = 0
    while True:
        base, bits = domino_choices(hand_of(h0, h1, h2, h3, seat), playable)
        state, ahead, action = random_action_ahead(base, bits, state, ahead)
        st[ix(L.PLAYS + n_plays)] = (seat << L.PLAY_SEAT_SHIFT) | action
        n_plays += 1
        taken += 1
        if action != A.PASS:
            h0, h1, h2, h3 = played(h0, h1, h2, h3, seat, action)
            gone |= 1 << action
            playable = lay_domino_card(st, playable, action)
            if hand_of(h0, h1, h2, h3, seat) == 0:
                out |= 1 << seat
                if goes_out(st, seat):
                    break
        seat = next_domino_player(seat, out)
    store_hands(st, L.HANDS, h0, h1, h2, h3)
    st[L.PLAYABLE] = playable
    st[L.PLAYED] = gone
    st[L.N_PLAYS] = n_plays
    end_domino(st, R)
    return state, ahead, taken


@njit(cache=True, **NO_REFCOUNT)
def double_at_random(st, R, state, ahead):
    """Random answers from the current doubling question to the start of the play, with the
    generator one draw ahead as in ``play_random_deal``: returns (new state, its next output,
    answers given). The same draws and the same final row as stepping answer by answer: the
    questions come from the engine's ``next_question``, the legal answers from its
    ``double_choices`` and their effect from its ``answer_double``, without the step's
    dispatch on the phase (tests/barbu/test_barbu_random_play.py)."""
    decl = st[L.DECLARER]
    rnd, p, t = next_question(st, R, st[L.DBL_ROUND], st[L.DBL_SPEAKER], st[L.DBL_TARGET])
    taken = 0
    while rnd <= 2:
        speaker = (decl + 1 + p) & 3
        target = (speaker + 1 + t) & 3
        st[L.DBL_ROUND] = rnd  # the question's position, as the step leaves it once answered
        st[L.DBL_SPEAKER] = p
        st[L.DBL_TARGET] = t + 1
        base, bits = double_choices(st, speaker, target)
        state, ahead, action = random_action_ahead(base, bits, state, ahead)
        answer_double(st, speaker, target, action)
        taken += 1
        rnd, p, t = next_question(st, R, rnd, p, t + 1)
    start_play(st, R)
    return state, ahead, taken


@njit(cache=True, inline="always")
def play_random_deal(st, R, state):
    """Random legal decisions until the current deal ends, from generator ``state`` held in a
    local. Returns (new state, decisions taken).

    The generator runs one draw ahead (``random_action_ahead``): whether a decision draws
    depends on its legal set, so otherwise the generator's hashing would wait for the legal
    set on every decision. The doubling phase, the tricks of a trick contract and the Domino
    have loops of their own; those of the doubling and the Domino are called, not inlined,
    which keeps this loop's compilation (and that of every loop it is inlined into) short."""
    taken = 0
    ahead = rng_nb.peek_scalar(state)
    while st[L.PHASE] < L.PH_DEAL_END:
        if (st[L.PHASE] == L.PH_PLAY) & (st[L.CONTRACT] != A.DOMINO) & (st[L.TRICK_LEN] == 0):
            state, ahead, cards = play_tricks(st, R, state, ahead)
            taken += cards
            continue
        if (st[L.PHASE] == L.PH_PLAY) & (st[L.CONTRACT] == A.DOMINO):
            state, ahead, decisions = play_domino_at_random(st, R, state, ahead)
            taken += decisions
            continue
        if st[L.PHASE] == L.PH_DOUBLE:
            state, ahead, answers = double_at_random(st, R, state, ahead)
            taken += answers
            continue
        base, bits = legal_mask(st, R)
        state, ahead, action = random_action_ahead(base, bits, state, ahead)
        step(st, R, action)
        taken += 1
    return state, taken


@njit(cache=True, **NO_REFCOUNT)
def init_hand_item(st, R, seed, item):
    """Set ``st`` to the start of hands-mode item ``item`` (see the module doc string)."""
    match = item // L.DEALS_PER_MATCH
    d = item % L.DEALS_PER_MATCH
    # every field is set below, by deal_from_seed or by begin_deal, except these match-level
    # ones (the logs past their counts are never read)
    for s in range(4):
        st[L.SCORES + s] = 0
    st[L.MATCH_OVER] = 0
    st[L.WINNERS] = 0
    st[L.SEED] = seed
    st[L.GAME_ID] = match
    st[L.DEAL_NO] = d
    first = first_declarer_of(R, seed, match)
    st[L.FIRST_DECLARER] = first
    block = d // L.DEALS_PER_DECLARER
    j = d % L.DEALS_PER_DECLARER  # deals this declarer has already played
    decl = (first + block) & 3
    st[L.DECLARER] = decl
    st[L.DEALER] = (decl + 3) & 3
    h = rng_nb.stream(seed, match, HANDS_KEY + d)
    left = A.ALL_CONTRACTS
    for k in range(j):  # a uniformly random set of j contracts already played
        h, r = rng_nb.below_scalar(h, A.NUM_CONTRACTS - k)
        left &= ~(1 << nth_bit(left, r))
    for b in range(4):
        seat = (first + b) & 3
        st[L.CONTRACTS_LEFT + seat] = 0 if b < block else (left if b == block else A.ALL_CONTRACTS)
    for o in range(1, 4):
        seat = (decl + o) & 3
        owed = R[L.R_DOUBLES_OWED]  # B6.3 (rules file: 2; convention doubles_owed)
        for k in range(j):
            if owed >= L.DEALS_PER_DECLARER - k:
                # B6.3: forced when the chances left equal the doubles owed; a forced double
                # draws nothing. A branch, as it is rare: the generator's next draw then need
                # not wait for the flips before it
                owed -= 1
            else:
                h, r = rng_nb.below_scalar(h, 2)
                owed -= 1 if (r == 1) & (owed > 0) else 0
        st[L.OWED + seat] = owed
    deal_from_seed(st)
    begin_deal(st, R)


@njit(cache=True, **NO_REFCOUNT)
def record_deal_stats(st, stats, whole_matches):
    """Add the deal that just ended in ``st`` to a statistics row (and the match, when whole
    matches are played: a hands-mode deal 27 ends no real match)."""
    c = st[L.CONTRACT]
    decl = st[L.DECLARER]
    stats[S_DEALS] += 1
    stats[S_COUNT + c] += 1
    stats[S_DECL_CS + c] += st[L.CONTRACT_SCORES + decl]
    stats[S_DECL_DS + c] += st[L.DEAL_SCORES + decl]
    stats[S_TRICKS + c] += st[L.TRICK_NO]
    tot_cs = 0
    tot_ds = 0
    for s in range(4):
        tot_cs += st[L.CONTRACT_SCORES + s]
        tot_ds += st[L.DEAL_SCORES + s]
    stats[S_ALL_CS + c] += tot_cs
    stats[S_ALL_DS + c] += tot_ds
    if tot_cs != A.CONTRACT_TOTALS[c] or tot_ds != tot_cs:  # B8
        stats[S_BAD] += 1
    doubled = redoubled = 0
    for k in range(16):  # counted with selects: which pairs were bet is random
        b = st[L.BETS + k]
        doubled += b == 1
        redoubled += b == 2
    stats[S_PAIRS_DOUBLED] += doubled
    stats[S_PAIRS_REDOUBLED] += redoubled
    stats[S_PAIRS_BET + c] += doubled + redoubled
    if whole_matches and st[L.MATCH_OVER]:
        stats[S_MATCHES] += 1
        w = st[L.WINNERS]
        if popcount(w) > 1:
            stats[S_SHARED_WINS] += 1
        total = 0
        for s in range(4):
            if (w >> s) & 1:
                stats[S_WINS + s] += 1
            stats[S_FINAL + s] += st[L.SCORES + s]
            total += st[L.SCORES + s]
        if total != 0:  # B8: the match is zero-sum
            stats[S_BAD] += 1


@njit(cache=True, **NO_REFCOUNT)
def policy_stream(seed, item, whole_matches):
    """The random policy's generator for item ``item`` (module doc string)."""
    if whole_matches:
        return rng_nb.stream(seed, item, POLICY_KEY)
    return rng_nb.stream(seed, item // L.DEALS_PER_MATCH,
                         POLICY_KEY + 1 + item % L.DEALS_PER_MATCH)


def simulate_random(R, seed, first_game, n_items, whole_matches, n_blocks):
    """Play items ``first_game .. first_game + n_items - 1`` (deals, or whole matches)
    with random decisions on the engine's fast path (``cardsim.random_play_nb``, written once
    for both games). Returns the statistics array summed over blocks (columns S_*)."""
    from cardsim.game_nb import GameTag
    from cardsim.random_play_nb import simulate_random as simulate

    return simulate(GameTag("barbu"), R, seed, first_game, n_items, bool(whole_matches), NUM_STATS,
                    n_blocks)
