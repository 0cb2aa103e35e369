"""Observers: layout derived from the piece spec, and information hygiene — changing the hidden
cards of other seats never changes a seat's observation (both games)."""

import numpy as np
import pytest

from cardsim.barbu import layout as BL
from cardsim.cards import DEBERTZ_DECK
from cardsim.barbu import observe_nb as BO
from cardsim.barbu.game import BarbuGame
from cardsim.debertz import layout as DL
from cardsim.debertz import observe_nb as DO
from cardsim.debertz.game import DebertzGame
from cardsim.debertz.rules import DebertzRules


@pytest.mark.parametrize("module", [DO, BO])
def test_layout_comes_from_the_piece_spec(module):
    offset = 0
    for name, size, encoding in module.PIECES:
        assert getattr(module, "OFF_" + name.upper()) == offset
        assert encoding
        offset += size
    assert module.OBS_SIZE == offset == module.SPEC.size
    vec = np.arange(module.OBS_SIZE, dtype=np.float32)
    pieces = module.observation_pieces(vec)
    assert list(pieces) == [p[0] for p in module.PIECES]
    assert np.array_equal(np.concatenate(list(pieces.values())), vec)


def debertz_runs(hand):
    """Multiset of run lengths of a hand (what a declaration makes public, D6.6)."""
    out = []
    for suit in range(4):
        b = (int(hand) >> (suit * 8)) & 0xFF
        length = 0
        for rank in range(9):
            if rank < 8 and b >> rank & 1:
                length += 1
            else:
                if length >= 3:
                    out.append(length)
                length = 0
    return sorted(out)


def swap_debertz_cards(st, R, a, b, ca, cb):
    """Exchange card ca of seat a with card cb of seat b (b = -1: the dead stock) everywhere
    the state holds cards; returns False when that would change public facts."""
    n = int(R[DL.R_PLAYERS])
    trump = int(st[DL.TRUMP])
    pub = {int(st[DL.TURNUP]), }
    if trump >= 0:
        pub.add(trump * 8)  # the 7 of trump (its swap is public, D5)
        if st[DL.BELLA_SHOWN]:
            pub |= {trump * 8 + 5, trump * 8 + 6}
    mw = int(st[DL.MELD_WINNER])
    if mw >= 0 and st[DL.PLAY_HANDS + mw]:
        m = int(DO.winning_run_mask(st[DL.PLAY_HANDS + mw], trump, R[DL.R_DEBERTZ_TRUMP_ONLY],
                                    R[DL.R_TRUMP_MELD_WINS_TIE]))
        pub |= {c for c in range(32) if m >> c & 1}
    if ca in pub or cb in pub:
        return False
    fields = ["HANDS", "PLAY_HANDS", "DEALT", "EXTRA"]
    before = {s: debertz_runs(st[DL.PLAY_HANDS + s]) for s in range(n)}
    new = st.copy()
    for f in fields:
        off = getattr(DL, f)
        for seat, give, take in ((a, ca, cb), (b, cb, ca)):
            if seat < 0:
                continue
            m = int(new[off + seat])
            if m >> give & 1:
                new[off + seat] = (m & ~(1 << give)) | (1 << take)
    if b < 0:
        new[DL.DEAD] = (int(new[DL.DEAD]) & ~(1 << cb)) | (1 << ca)
    deck = new[DL.DECK:DL.DECK + 32]
    ia, ib = np.flatnonzero(deck == ca)[0], np.flatnonzero(deck == cb)[0]
    deck[ia], deck[ib] = cb, ca
    if any(debertz_runs(new[DL.PLAY_HANDS + s]) != before[s] for s in range(n)):
        return False
    if mw >= 0 and st[DL.PLAY_HANDS + mw]:  # the shown meld stays the winner's highest run
        m2 = int(DO.winning_run_mask(new[DL.PLAY_HANDS + mw], trump, R[DL.R_DEBERTZ_TRUMP_ONLY],
                                     R[DL.R_TRUMP_MELD_WINS_TIE]))
        if m2 != m:
            return False
    st[:] = new
    return True


DEBERTZ_RULES = [DebertzRules(), DebertzRules(players=3, declare="before_play"),
                 DebertzRules(players=4), DebertzRules(players=4, teams=True, bella_any_card=False)]


@pytest.mark.parametrize("rules", DEBERTZ_RULES, ids=lambda r: f"p{r.players}-{r.declare}")
def test_debertz_hidden_cards_never_reach_an_observation(rules):
    rng = np.random.default_rng(11)
    n = rules.players
    out1 = np.zeros(DO.OBS_SIZE, np.float32)
    out2 = np.zeros(DO.OBS_SIZE, np.float32)
    checked = changed_own = 0
    for game in range(30):
        g = DebertzGame(rules, seed=game)
        stop = int(rng.integers(0, 30))
        for _ in range(stop):
            if g.turn() < 0:
                break
            g.step(int(rng.choice(g.legal_actions())))
        st = g.state[0]
        for observer in range(n):
            others = [s for s in range(n) if s != observer]
            for _ in range(6):
                a = int(rng.choice(others))
                b = int(rng.choice([s for s in others if s != a] + ([-1] if n < 4 else [])))
                ha = int(st[DL.HANDS + a])
                hb = int(st[DL.HANDS + b]) if b >= 0 else int(st[DL.DEAD])
                if ha == 0 or hb == 0:
                    continue
                ca = int(rng.choice([c for c in range(32) if ha >> c & 1]))
                cb = int(rng.choice([c for c in range(32) if hb >> c & 1]))
                DO.observe(st, g.R, observer, out1)
                changed = st.copy()
                if not swap_debertz_cards(changed, g.R, a, b, ca, cb):
                    continue
                DO.observe(changed, g.R, observer, out2)
                assert np.array_equal(out1, out2), (game, observer, a, b, ca, cb)
                checked += 1
                # the same swap seen by a seat that held one of the cards does change
                DO.observe(st, g.R, a, out1)
                DO.observe(changed, g.R, a, out2)
                changed_own += not np.array_equal(out1, out2)
    assert checked > 100 and changed_own == checked


def swap_barbu_cards(st, a, b, ca, cb):
    """Exchange card ca of seat a with card cb of seat b everywhere the state holds cards."""
    for off in (BL.HANDS, BL.DEALT):
        for seat, give, take in ((a, ca, cb), (b, cb, ca)):
            m = int(st[off + seat])
            if m >> give & 1:
                st[off + seat] = (m & ~(1 << give)) | (1 << take)
    deck = st[BL.DECK:BL.DECK + 52]
    ia, ib = np.flatnonzero(deck == ca)[0], np.flatnonzero(deck == cb)[0]
    deck[ia], deck[ib] = cb, ca


def test_barbu_hidden_cards_never_reach_an_observation():
    rng = np.random.default_rng(5)
    out1 = np.zeros(BO.OBS_SIZE, np.float32)
    out2 = np.zeros(BO.OBS_SIZE, np.float32)
    checked = 0
    for game in range(12):
        g = BarbuGame(seed=game)
        for _ in range(int(rng.integers(0, 600))):
            if g.is_match_over:
                break
            if g.is_deal_over:
                g.next_deal()
                continue
            acts = np.flatnonzero(g.legal_array())
            g.step(int(rng.choice(acts)))
        st = g.st
        for observer in range(4):
            others = [s for s in range(4) if s != observer]
            for _ in range(6):
                a, b = rng.choice(others, size=2, replace=False)
                ha, hb = int(st[BL.HANDS + a]), int(st[BL.HANDS + b])
                if ha == 0 or hb == 0:
                    continue
                ca = int(rng.choice([c for c in range(52) if ha >> c & 1]))
                cb = int(rng.choice([c for c in range(52) if hb >> c & 1]))
                changed = st.copy()
                swap_barbu_cards(changed, a, b, ca, cb)
                BO.observe(st, g.R, observer, out1)
                BO.observe(changed, g.R, observer, out2)
                assert np.array_equal(out1, out2), (game, observer, a, b, ca, cb)
                BO.observe(st, g.R, int(a), out1)
                BO.observe(changed, g.R, int(a), out2)
                assert not np.array_equal(out1, out2)
                checked += 1
    assert checked > 100


def test_debertz_melds_are_declared_as_the_convention_says():
    """D6.6: under first_trick a seat's runs become public when it plays its first card and
    the winning meld's cards when the first trick is complete; under before_play both at the
    first lead."""
    for declare in ("first_trick", "before_play"):
        rules = DebertzRules(players=2, declare=declare, first_dealer=0, seven_swap=False)
        # seat 0 holds A K Q of spades (a terz); seat 1 speaks first, takes hearts and leads
        g = DebertzGame.from_deal(rules, hands=["AS KS QS 7H 8D 9C", "7S 9H JD TC 8C JS"],
                                  turnup="JH", stock=["AD", "KD", "7D", "AH", "KH", "8H"])
        g.step("play")
        assert g.phase() == "play" and g.turn() == 1
        out = np.zeros(DO.OBS_SIZE, np.float32)

        def seen_by_seat1():
            DO.observe(g.state[0], g.R, 1, out)
            p = DO.observation_pieces(out)
            other = p["melds_declared"][DO.MELD_LENGTHS:2 * DO.MELD_LENGTHS]
            return other.copy(), p["meld_shown"].copy(), p["meld_winner"].copy()

        runs, shown, winner = seen_by_seat1()
        public = declare == "before_play"
        assert runs[0] == (1 if public else 0)  # one terz (length 3)
        assert shown.any() == public
        g.step(int(g.legal_actions()[0]))  # seat 1 leads
        g.step(int(g.legal_actions()[0]))  # seat 0 plays: declares; the trick is complete
        runs, shown, winner = seen_by_seat1()
        assert runs[0] == 1 and winner[1] == 1
        assert sorted(np.flatnonzero(shown)) == sorted(
            DEBERTZ_DECK.parse(c) for c in ("AS", "KS", "QS"))


def test_debertz_trick_pieces_spell_out_the_trick():
    """The appended pieces: who takes the trick so far and its points (D8, D2), which of the
    seat's cards would take it, and each card's points under the trump."""
    rules = DebertzRules(players=2, first_dealer=0, seven_swap=False)
    def seen(g, seat):
        out = np.zeros(DO.OBS_SIZE, np.float32)
        DO.observe(g.state[0], g.R, seat, out)
        p = DO.observation_pieces(out)
        return p, {DEBERTZ_DECK.format(int(i)) for i in np.flatnonzero(p["takes_trick"])}

    for lead, takes in (("TC", {"7H", "8H", "KH", "AH"}),  # any trump ruffs a plain ten
                        ("9H", set()),                     # nothing of seat 0 beats the 9 of trump
                        ("7D", {"8D", "7H", "8H", "KH", "AH"})):  # higher, or any trump
        g = DebertzGame.from_deal(rules, hands=["AS KS QS 7H 8D 9C", "7S 9H JD TC 8C JS"],
                                  turnup="JH", stock=["AD", "KD", "7D", "AH", "KH", "8H"])
        p, _ = seen(g, 1)
        assert not p["hand_points"].any()  # bidding: no trump yet
        g.step("play")  # hearts; seat 0 holds QS KS AS 7H 8H KH AH 8D 9C
        p, taking = seen(g, 1)
        assert not p["trick_top"].any() and p["trick_points"][0] == 0 and not taking
        assert p["hand_points"][DEBERTZ_DECK.parse("9H")] == pytest.approx(14 / 20)  # D2
        assert p["hand_points"][DEBERTZ_DECK.parse("JS")] == pytest.approx(2 / 20)
        g.step(lead)
        p, taking = seen(g, 0)
        assert p["trick_top"].tolist() == [0, 1, 0, 0]  # the seat after the observer
        points = {"TC": 10, "9H": 14, "7D": 0}[lead]
        assert p["trick_points"][0] == pytest.approx(points / 50)
        assert taking == takes
        assert p["hand_points"][DEBERTZ_DECK.parse("AH")] == pytest.approx(11 / 20)
        assert p["hand_points"][DEBERTZ_DECK.parse("8H")] == 0
