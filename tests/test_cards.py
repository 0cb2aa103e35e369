"""cards.py: bit layout (docs/architecture.md, the engine), parsing and formatting in
hand-record notation."""

import pytest

from cardsim.cards import BARBU_DECK, DEBERTZ_DECK, HEARTS, SPADES, CLUBS
from cardsim.errors import InvalidCardError


def test_debertz_bit_layout():
    assert DEBERTZ_DECK.parse("7S") == 0
    assert DEBERTZ_DECK.parse("AS") == 7
    assert DEBERTZ_DECK.parse("7H") == 8
    assert DEBERTZ_DECK.parse("AC") == 31
    assert DEBERTZ_DECK.suit_mask(HEARTS) == 0xFF00
    assert DEBERTZ_DECK.rank_mask(0) == 0x01010101


def test_barbu_bit_layout():
    assert BARBU_DECK.parse("2S") == 0
    assert BARBU_DECK.parse("AS") == 12
    assert BARBU_DECK.parse("2H") == 13
    assert BARBU_DECK.parse("AC") == 51
    assert BARBU_DECK.suit_mask(CLUBS) == ((1 << 13) - 1) << 39


@pytest.mark.parametrize("text", ["TS", "10s", "10S", "t♠", "T♠", " ts "])
def test_ten_spellings(text):
    assert DEBERTZ_DECK.parse(text) == DEBERTZ_DECK.index(SPADES, 3)


def test_format_roundtrip_both_decks():
    for deck in (DEBERTZ_DECK, BARBU_DECK):
        for c in range(deck.size):
            assert deck.parse(deck.format(c)) == c
        assert deck.format_mask(deck.full_mask) == [deck.format(c) for c in range(deck.size)]


@pytest.mark.parametrize("text", ["", "X", "1S", "6S", "AX", "10", "KSS", "2H"])
def test_bad_debertz_cards_name_the_problem(text):
    with pytest.raises(InvalidCardError) as e:
        DEBERTZ_DECK.parse(text)
    assert "S H D C" in str(e.value) or "string" in str(e.value)


def test_mask_of_rejects_duplicates_and_lists_cards():
    assert DEBERTZ_DECK.mask_of(["7S", "8S"]) == 0b11
    with pytest.raises(InvalidCardError, match="twice"):
        DEBERTZ_DECK.mask_of(["7S", "7s"])
    assert DEBERTZ_DECK.parse_list("AS, 10h Q♠") == [7, 11, 5]
    with pytest.raises(InvalidCardError, match="outside"):
        DEBERTZ_DECK.format(32)
