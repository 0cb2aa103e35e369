"""Barbu positions for the search tests, and an independent check of sampled deals: the real
deal's plays are replayed through the engine on the sampled hands, each one legal there."""

import itertools

from cardsim.barbu import engine_nb as E
from cardsim.barbu import layout as L
from cardsim.barbu.face_nb import GAME
from experiments.bench.search import barbu_positions  # noqa: F401  (the tests' positions)
from tests.search.sampler_checks import sampled_deals


def replays_on(st, R, hands):
    """Whether every play of position ``st`` (cards and Domino passes) is legal, in order,
    when the deal's hands at the start of play were ``hands`` (4 masks), and the play ends
    with the same cards in hand as ``hands`` less what was played."""
    row = st.copy()
    row[L.DEALT:L.DEALT + 4] = hands[:4]
    E.begin_deal(row, R)  # the deal as it stood before its contract, dealt ``hands``
    for f in (L.CONTRACT, L.TRUMP, L.START_RANK):  # the contract chosen (doubles play no part)
        row[f] = st[f]
    E.start_play(row, R)
    for p in range(st[L.N_PLAYS]):
        seat, action = divmod(int(st[L.PLAYS + p]), 1 << L.PLAY_SEAT_SHIFT)
        if row[L.PHASE] != L.PH_PLAY or row[L.TURN] != seat or not E.is_legal(row, R, action):
            return False
        E.step(row, R, action)
    return row[L.PLAYED] == st[L.PLAYED]


def dealt_of(st, hands):
    """Hands at the start of play: ``hands`` now plus what each seat played."""
    out = [int(h) for h in hands[:4]]
    for p in range(st[L.N_PLAYS]):
        seat, action = divmod(int(st[L.PLAYS + p]), 1 << L.PLAY_SEAT_SHIFT)
        if action < 52:
            out[seat] |= 1 << action
    return out


def consistent_deals(st, R, me):
    """Every deal of the cards ``me`` cannot see that agrees with the plays, by enumerating
    every way to share them out and replaying (small end positions only)."""
    others = [s for s in range(4) if s != me]
    sizes = [bin(int(st[L.HANDS + s])).count("1") for s in others]
    hidden = [c for c in range(52) if not (int(st[L.PLAYED]) | int(st[L.HANDS + me])) >> c & 1]
    found = []
    for owner in itertools.product(range(3), repeat=len(hidden)):
        if [owner.count(k) for k in range(3)] != sizes:
            continue
        hands = [int(h) for h in st[L.HANDS:L.HANDS + 4]]
        for k, s in enumerate(others):
            hands[s] = sum(1 << c for c, o in zip(hidden, owner) if o == k)
        if replays_on(st, R, dealt_of(st, hands)):
            found.append(tuple(hands))
    return found


def sample(states, R, count, seed=7, seats=None):
    """``count`` deals per position from ``cardsim.sample_nb.sample_rows`` for the seat to act
    (or ``seats``)."""
    return sampled_deals(GAME, L, states, R, count, seed=seed, seats=seats)
