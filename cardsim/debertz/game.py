"""The Python face of the Debertz engine: a batch of games with validated stepping.

``DebertzGame`` holds the state rows of a batch (one game by default) and the packed rules;
it checks actions before the kernels see them and raises ``IllegalActionError`` naming the
legal ones. Everything else is done by the kernels of ``engine_nb``. Its methods are those of
``BarbuGame`` (phase, turn, hand, hands, legal_actions, legal_action_names, legal_mask, step,
copy, record), each with a trailing game index ``i``, so that code above the engines is
written once for both games.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from cardsim.cards import DEBERTZ_DECK
from cardsim.debertz import engine_nb as E
from cardsim.debertz import layout as L
from cardsim.debertz.actions import NUM_ACTIONS, action_name
from cardsim.debertz.record_row import deal_record
from cardsim.debertz.rules import DebertzRules
from cardsim.errors import IllegalActionError, InvalidCardError, InvalidConfigError


def mask_to_bools(mask: int, width: int = NUM_ACTIONS) -> np.ndarray:
    """An action bit mask as a boolean vector of ``width`` entries."""
    return (int(mask) >> np.arange(width, dtype=np.int64)) & 1 == 1


class DebertzGame:
    """A batch of ``batch`` Debertz games; game ``i`` of the batch is game ``first_game + i``
    of the run with seed ``seed`` (its deals depend on nothing else)."""

    def __init__(self, rules: DebertzRules | None = None, batch: int = 1, seed: int = 0,
                 first_game: int = 0):
        self.rules = rules or DebertzRules()
        self.R = self.rules.pack()
        if batch < 1:
            raise InvalidConfigError(f"batch must be at least 1, got {batch}")
        self.state = np.zeros((batch, L.STATE_WIDTH), dtype=np.int64)
        self.reset(seed, first_game)

    # --- set-up ---------------------------------------------------------------------------
    def reset(self, seed: int = 0, first_game: int = 0) -> None:
        """Start every game of the batch afresh."""
        if not (isinstance(seed, (int, np.integer)) and 0 <= seed < 2**63):
            raise InvalidConfigError(f"seed must be an integer in 0..2**63-1, got {seed!r}")
        self.seed = int(seed)
        for i in range(self.batch):
            E.init_game(self.state[i], self.R, self.seed, first_game + i)

    @classmethod
    def from_deal(cls, rules: DebertzRules, hands: Sequence, turnup, stock: Sequence = (),
                  *, dealer: int = 0, scores: Sequence[int] | None = None,
                  byte_counts: Sequence[int] | None = None, pot: int = 0, seed: int = 0,
                  game_id: int = 0, deal_no: int = 0) -> "DebertzGame":
        """One game at the start of a given deal.

        ``hands``: per seat, the 6 cards first dealt; ``turnup``: the turn-up card;
        ``stock``: cards dealt after bidding, in dealing order (from dealer+1 round the
        table, each seat its whole share; in 4-player games the turn-up receiver's share
        excludes the turn-up). Cards not named anywhere fill the rest of the stock (dead
        cards with 2-3 players). Cards may be strings ('TS', '10h') or indices.
        """
        game = cls(rules, batch=1, seed=seed, first_game=game_id)
        n = rules.players
        if len(hands) != n:
            raise InvalidConfigError(f"hands must give {n} hands (one per seat), got {len(hands)}")
        order: list[int] = []
        for s, h in enumerate(hands):
            cards = DEBERTZ_DECK.parse_list(h) if isinstance(h, str) else \
                [DEBERTZ_DECK.parse(c) if isinstance(c, str) else int(c) for c in h]
            if len(cards) != 6:
                raise InvalidConfigError(f"hand of seat {s} must have 6 cards, got {len(cards)}")
            order += cards
        order.append(DEBERTZ_DECK.parse(turnup) if isinstance(turnup, str) else int(turnup))
        order += [DEBERTZ_DECK.parse(c) if isinstance(c, str) else int(c) for c in stock]
        DEBERTZ_DECK.mask_of(order)  # raises on duplicates and bad indices
        order += [c for c in range(32) if c not in order]
        if not 0 <= dealer < n:
            raise InvalidConfigError(f"dealer must be a seat 0..{n - 1}, got {dealer}")
        st = game.state[0]
        st[L.DEALER] = dealer
        st[L.DEAL_NO] = deal_no
        sides = rules.sides
        for name, values in (("scores", scores), ("byte_counts", byte_counts)):
            if values is not None:
                if len(values) != sides:
                    raise InvalidConfigError(f"{name} must have {sides} entries (one per side)")
                off = L.OFFSETS[name][0]
                st[off:off + sides] = values
        st[L.POT] = pot
        E.deal_from_deck(st, game.R, np.array(order, dtype=np.int64))
        return game

    # --- reading the state ----------------------------------------------------------------
    # The game face shared with BarbuGame: phase, turn, hand, hands, legal_actions,
    # legal_action_names, legal_mask, step, copy, record, num_players, rules, state. Each
    # method here takes a trailing ``i`` (the game of the batch, 0 by default) that
    # BarbuGame, a single match, does not need.
    @property
    def batch(self) -> int:
        """Number of games this object holds (rows of ``state``)."""
        return self.state.shape[0]

    @property
    def num_players(self) -> int:
        """Number of seats under the rules (2, 3 or 4, D1)."""
        return self.rules.players

    @property
    def st(self) -> np.ndarray:
        """The state row (a view) of game 0, as BarbuGame.st."""
        return self.state[0]

    def _row(self, i: int) -> np.ndarray:
        # Negative indices would silently wrap round the batch: refuse them.
        if not (isinstance(i, (int, np.integer)) and not isinstance(i, bool)
                and 0 <= i < self.batch):
            raise InvalidConfigError(
                f"game index i={i!r} is out of range: this batch holds games 0..{self.batch - 1}")
        return self.state[i]

    def _seat(self, seat: int) -> int:
        n = self.rules.players
        if not (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool)
                and 0 <= seat < n):
            raise InvalidConfigError(f"seat {seat!r} is out of range: seats are 0..{n - 1} "
                                     f"in a {n}-player game")
        return int(seat)

    def field(self, name: str, i: int = 0):
        """Value of a state field of game i: an int, or an array for wider fields."""
        if name not in L.OFFSETS:
            raise KeyError(f"no Debertz state field {name!r}; fields: {', '.join(L.OFFSETS)}")
        off, width = L.OFFSETS[name]
        if width == 1:
            return int(self._row(i)[off])
        return self._row(i)[off:off + width]

    def phase(self, i: int = 0) -> str:
        """Name of the phase game ``i`` waits for: ``bid1``, ``bid2`` (D4), ``swap`` (D5),
        ``play``, ``deal_end`` or ``game_over``."""
        return L.PHASE_NAMES[self._row(i)[L.PHASE]]

    def turn(self, i: int = 0) -> int:
        """Seat to act in game i, -1 when nobody is (deal end, game over)."""
        return int(self._row(i)[L.TURN])

    def hand(self, seat: int, i: int = 0) -> list[str]:
        """Cards that ``seat`` holds now in game i."""
        return DEBERTZ_DECK.format_mask(self._row(i)[L.HANDS + self._seat(seat)])

    def hands(self, i: int = 0) -> list[list[str]]:
        """Cards held now in game i, per seat."""
        return [self.hand(s, i) for s in range(self.rules.players)]

    def legal_bits(self, i: int = 0) -> int:
        """Legal actions of game i as an int bit mask (bit a = action a), as the kernel
        gives them (40 actions fit one int64)."""
        return int(E.legal_mask(self._row(i), self.R))

    def legal_actions(self, i: int = 0) -> list[int]:
        """Ids of the legal actions of the seat to act in game ``i``, ascending (empty when nobody
        is to act)."""
        m = self.legal_bits(i)
        return [a for a in range(NUM_ACTIONS) if m >> a & 1]

    def legal_action_names(self, i: int = 0) -> list[str]:
        """Names of the legal actions of game ``i`` (``"JS"``, ``"pass"``, ``"play"``...), in id
        order."""
        return [action_name(a) for a in self.legal_actions(i)]

    def legal_mask(self, i: int = 0) -> np.ndarray:
        """Bool array of NUM_ACTIONS entries, True where the action is legal in game i."""
        return mask_to_bools(self.legal_bits(i))

    legal_bools = legal_mask  # the older name of legal_mask

    # --- acting ---------------------------------------------------------------------------
    def step(self, action, i: int = 0) -> None:
        """Apply an action (id, or a card string such as 'TS'); raises IllegalActionError."""
        a = self.parse_action(action)
        m = self.legal_bits(i)
        if not (0 <= a < NUM_ACTIONS and m >> a & 1):
            legal = ", ".join(self.legal_action_names(i)) or "none"
            who = f"seat {self.turn(i)}" if self.turn(i) >= 0 else "nobody"
            raise IllegalActionError(
                f"action {action!r} is not legal in game {i} (phase {self.phase(i)}, "
                f"{who} to act); legal actions: {legal}")
        E.step(self.state[i], self.R, a)

    def next_deal(self, i: int = 0) -> None:
        """Start the next deal once the current one has ended."""
        if self._row(i)[L.PHASE] != L.PH_DEAL_END:
            raise IllegalActionError(
                f"game {i} cannot start a new deal in phase {self.phase(i)}; "
                f"only after a deal has ended (phase deal_end)")
        E.next_deal(self.state[i], self.R)

    def copy(self) -> "DebertzGame":
        """An independent copy of the whole batch (the state rows are copied)."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        return other

    def record(self, i: int = 0) -> dict:
        """The cardsim-debertz/1 hand record of the deal that has just ended in game i
        (record_row.py); HandRecordError while the deal is still running."""
        self._row(i)
        return deal_record(self, i)

    @staticmethod
    def parse_action(action) -> int:
        """Action id from an id or a name ('pass', 'play', 'name_H', 'swap', 'keep', 'TS')."""
        if isinstance(action, (int, np.integer)):
            return int(action)
        if isinstance(action, str):
            from cardsim.debertz.actions import ACTION_NAMES
            low = action.strip().lower()
            for a, name in enumerate(ACTION_NAMES):
                if name.lower() == low:
                    return a
            try:
                return DEBERTZ_DECK.parse(action)
            except InvalidCardError:
                raise IllegalActionError(
                    f"unknown Debertz action {action!r}; actions are cards ('TS', '7C'), "
                    f"'pass', 'play', 'name_S'..'name_C', 'swap', 'keep'") from None
        raise IllegalActionError(f"action must be an int id or a name, got {action!r}")
