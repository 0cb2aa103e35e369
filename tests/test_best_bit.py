"""``cardsim.bits_nb.best_bit``: the set bit with the largest score, the lowest among equals,
with the score function and its data inlined into compiled callers."""

from numba import njit

from cardsim.bits_nb import best_bit


@njit(cache=True, inline="always")
def rank_in_suit(bit, ranks):
    """A card's rank in a 13-card suit, scaled by ``ranks``'s first entry plus its second."""
    scale, offset = ranks
    return (bit % 13) * scale + offset


@njit(cache=True, inline="always")
def lowness(bit, _):
    return -(bit % 13)


@njit(cache=True)
def highest_and_lowest(mask):
    return best_bit(mask, rank_in_suit, (2, 1)), best_bit(mask, lowness, 0)


def test_the_best_scoring_bit_and_the_lowest_among_equals():
    # cards 3 and 16 share rank 3, 12 is the highest rank, 0 the lowest
    mask = (1 << 0) | (1 << 3) | (1 << 12) | (1 << 16) | (1 << 25)
    assert highest_and_lowest(mask) == (12, 0)
    assert highest_and_lowest((1 << 3) | (1 << 16)) == (3, 3)  # a tie: the lower bit
    assert highest_and_lowest((1 << 16) | (1 << 29)) == (16, 16)


def test_an_empty_mask_has_no_best_bit():
    assert highest_and_lowest(0) == (-1, -1)
