"""Cards as bits, for both decks (docs/architecture.md, the engine).

Debertz (32 cards): ``uint32`` masks, bit = suit * 8 + rank, ranks 7 8 9 T J Q K A = 0..7.
Barbu (52 cards): ``uint64`` masks, bit = suit * 13 + rank, ranks 2 3 ... K A = 0..12.
Suit order everywhere: ♠ ♥ ♦ ♣ = 0..3, letters S H D C.

This module is the only place that spells cards. Output uses the hand-record notation of
docs/hand-records.md (rank then suit: ``TS``, ``7C``); input also accepts ``10s``, ``Q♠`` and
lower case.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from cardsim.errors import InvalidCardError

SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
NUM_SUITS = 4


@dataclass(frozen=True)
class Deck:
    """One deck: its ranks (low to high in natural order) and the card bit layout."""

    name: str
    ranks: str  # rank characters, natural order low to high; index = rank number

    @property
    def ranks_per_suit(self) -> int:
        """Number of ranks in a suit: 8 (Debertz) or 13 (Barbu)."""
        return len(self.ranks)

    @property
    def size(self) -> int:
        """Number of cards in the deck: 32 or 52."""
        return NUM_SUITS * len(self.ranks)

    # --- indices ---------------------------------------------------------------------------
    def index(self, suit: int, rank: int) -> int:
        """Card index (its bit) of rank ``rank`` of suit ``suit``: ``suit * ranks_per_suit +
        rank``."""
        return suit * self.ranks_per_suit + rank

    def suit_of(self, card: int) -> int:
        """Suit of card index ``card`` (0-3: spades, hearts, diamonds, clubs)."""
        return card // self.ranks_per_suit

    def rank_of(self, card: int) -> int:
        """Rank number of card index ``card`` (0 = the lowest rank of ``ranks``)."""
        return card % self.ranks_per_suit

    # --- masks -----------------------------------------------------------------------------
    def suit_mask(self, suit: int) -> int:
        """Bit mask of every card of suit ``suit``."""
        return ((1 << self.ranks_per_suit) - 1) << (suit * self.ranks_per_suit)

    def rank_mask(self, rank: int) -> int:
        """Bit mask of the four cards of rank number ``rank``."""
        return sum(1 << self.index(s, rank) for s in range(NUM_SUITS))

    @property
    def full_mask(self) -> int:
        """Bit mask of the whole deck."""
        return (1 << self.size) - 1

    # --- parsing and formatting ------------------------------------------------------------
    def parse(self, text: str) -> int:
        """Card index of ``text`` (``"TS"``, ``"10s"``, ``"Q♠"``); raises InvalidCardError."""
        if not isinstance(text, str):
            raise InvalidCardError(f"card must be a string like 'TS' or '7C', got {text!r}")
        s = text.strip().upper()
        if len(s) < 2:
            raise InvalidCardError(self._bad(text, "too short"))
        rank_part, suit_part = s[:-1], s[-1]
        if suit_part in SUIT_SYMBOLS:
            suit = SUIT_SYMBOLS.index(suit_part)
        elif suit_part in SUIT_LETTERS:
            suit = SUIT_LETTERS.index(suit_part)
        else:
            raise InvalidCardError(self._bad(text, f"unknown suit {suit_part!r}"))
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) != 1 or rank_part not in self.ranks:
            raise InvalidCardError(self._bad(text, f"unknown rank {rank_part!r}"))
        return self.index(suit, self.ranks.index(rank_part))

    def format(self, card: int) -> str:
        """Hand-record notation of a card index: rank character then suit letter."""
        card = int(card)
        if not 0 <= card < self.size:
            raise InvalidCardError(
                f"card index {card} is outside the {self.name} deck (allowed 0..{self.size - 1})")
        return self.ranks[self.rank_of(card)] + SUIT_LETTERS[self.suit_of(card)]

    def _bad(self, text: str, why: str) -> str:
        return (f"bad {self.name} card {text!r}: {why}; a card is a rank ({' '.join(self.ranks)}, "
                f"or 10) followed by a suit (S H D C or ♠ ♥ ♦ ♣), e.g. "
                f"'{self.ranks[-1]}S', '10h', 'Q♠'")

    # --- sets of cards ---------------------------------------------------------------------
    def mask_of(self, cards: Iterable[str | int]) -> int:
        """Bit mask of cards given as strings or indices; duplicates are an error."""
        mask = 0
        for c in cards:
            idx = self.parse(c) if isinstance(c, str) else int(c)
            if not 0 <= idx < self.size:
                raise InvalidCardError(f"card index {idx} is outside the {self.name} deck")
            if mask >> idx & 1:
                raise InvalidCardError(f"card {self.format(idx)} appears twice")
            mask |= 1 << idx
        return mask

    def cards_of(self, mask: int) -> list[int]:
        """Card indices in a mask, ascending."""
        mask = int(mask)
        return [i for i in range(self.size) if mask >> i & 1]

    def format_mask(self, mask: int) -> list[str]:
        """Hand-record notation of the cards in ``mask``, ascending by index (``["7S", "AS",
        "TH"]``)."""
        return [self.format(i) for i in self.cards_of(mask)]

    def parse_list(self, text: str | Iterable[str]) -> list[int]:
        """Cards from ``"AS KS 10h"`` or a list of strings."""
        items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        return [self.parse(c) for c in items]


DEBERTZ_DECK = Deck("Debertz", "789TJQKA")
BARBU_DECK = Deck("Barbu", "23456789TJQKA")

# Debertz rank numbers (natural order, D6: A K Q J 10 9 8 7).
D7, D8, D9, DT, DJ, DQ, DK, DA = range(8)
# Barbu rank numbers.
B2, B3, B4, B5, B6, B7, B8, B9, BT, BJ, BQ, BK, BA = range(13)


def mask_array(deck: Deck, dtype=np.uint64) -> np.ndarray:
    """Per-suit masks as an array (for kernels that want them as data)."""
    return np.array([deck.suit_mask(s) for s in range(NUM_SUITS)], dtype=dtype)
