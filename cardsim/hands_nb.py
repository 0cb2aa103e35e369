"""Hands held in four locals (registers) rather than a state row: fast loops that play whole
tricks keep them this way (the engines' random play, the speed yardstick ``reference_nb``)."""

from numba import njit


@njit(cache=True, inline="always")
def hand_of(h0, h1, h2, h3, seat):
    """The hand of ``seat``."""
    return h0 if seat == 0 else (h1 if seat == 1 else (h2 if seat == 2 else h3))


@njit(cache=True, inline="always")
def played(h0, h1, h2, h3, seat, card):
    """The four hands after ``seat`` played ``card``."""
    gone = ~(1 << card)
    return (h0 & gone if seat == 0 else h0, h1 & gone if seat == 1 else h1,
            h2 & gone if seat == 2 else h2, h3 & gone if seat == 3 else h3)


@njit(cache=True, inline="always")
def hands_at(st, at):
    """The four hands kept in ``st[at:at + 4]``."""
    return st[at], st[at + 1], st[at + 2], st[at + 3]


@njit(cache=True, inline="always")
def store_hands(st, at, h0, h1, h2, h3):
    """Keep the four hands in ``st[at:at + 4]``."""
    st[at] = h0
    st[at + 1] = h1
    st[at + 2] = h2
    st[at + 3] = h3
