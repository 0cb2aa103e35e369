"""What the hidden-card sampler tests of both games share: drawing deals for positions, and a
chi-square check that the draws are uniform among the consistent deals."""

import numpy as np

from cardsim.sample_nb import sample_rows


def sampled_deals(GAME, L, states, R, count, seed=7, seats=None):
    """``count`` deals per position from ``cardsim.sample_nb.sample_rows`` for the seat to act
    (or ``seats``), the game given by its face ``GAME`` and layout ``L``; the deals and the
    tries per position."""
    states = np.array(states)
    if seats is None:
        seats = states[:, L.TURN].copy()
    out = np.zeros((len(states), count, L.STATE_WIDTH), dtype=np.int64)
    rng = np.arange(1, len(states) + 1, dtype=np.uint64) * np.uint64(seed)
    tries = sample_rows(GAME, states, R, np.asarray(seats, dtype=np.int64), count, rng, out)
    return out, tries


def assert_uniform_among(keys, deals):
    """Every sampled deal (by its key) is one of the consistent ``deals``, and the draws are
    uniform among them (chi-square within 5 standard deviations of its degrees of freedom)."""
    index = {d: k for k, d in enumerate(deals)}
    hits = np.zeros(len(deals))
    for key in keys:
        assert key in index  # never a deal that contradicts what the seat knows
        hits[index[key]] += 1
    expected = len(keys) / len(deals)
    chi2 = ((hits - expected) ** 2 / expected).sum()
    df = len(deals) - 1
    assert abs(chi2 - df) / np.sqrt(2 * df) < 5, (chi2, df)


def fewest_deals_above_a_handful(states, deals_of):
    """The position with the most structure: of the positions with six or more consistent
    deals (``deals_of(st)``, None for a position passed over), the one with the fewest; the
    position and its deals."""
    candidates = []
    for st in states:
        deals = deals_of(st)
        if deals is not None and len(deals) >= 6:
            candidates.append((len(deals), st, deals))
    assert candidates
    _, st, deals = min(candidates, key=lambda c: c[0])
    return st, deals
