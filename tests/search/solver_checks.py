"""What the open-hand solver tests of both games share: a root solve's card values and the
positions one card after a position."""

import numpy as np


def root_values(V, deck, st, R, side, tt, budget=0, maxn=0):
    """The solver module ``V``'s value of each legal card of ``st`` for ``side`` (cards of a
    ``deck``-card game), with a node budget and a max-n measure when given."""
    pos = np.zeros(V.POSITION_WIDTH, dtype=np.int64)
    V.position_of(st, R, side, pos)
    pos[V.P_BUDGET] = budget
    pos[V.P_MAXN] = maxn
    values = np.full(deck, -99999, dtype=np.int64)
    legal = V.solve_root(pos, tt, values)
    return {c: int(values[c]) for c in range(deck) if legal >> c & 1}


def children(E, st, R, cards):
    """(card, the position after it) for each of ``cards``, stepped by the engine ``E``."""
    for c in cards:
        child = st.copy()
        E.step(child, R, c)
        yield c, child
