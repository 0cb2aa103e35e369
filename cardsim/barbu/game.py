"""The thin Python layer over the Barbu kernels: one match as a batch of one row.

``BarbuGame`` validates what it is given (actions, hand-built deals) and raises typed errors
(cardsim.errors) whose messages name the field and the allowed values; the kernels underneath
never check anything.

Example::

    g = BarbuGame(BarbuRules(), seed=7)
    while not g.is_match_over:
        g.step(g.legal_action_names()[0])
        if g.is_deal_over:
            g.next_deal()
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from cardsim.barbu import actions as A
from cardsim.barbu import engine_nb as E
from cardsim.barbu import layout as L
from cardsim.barbu.record_row import record_of_row
from cardsim.barbu.rules import BarbuRules
from cardsim.barbu.simulate_nb import init_hand_item
from cardsim.cards import BARBU_DECK, SUIT_LETTERS
from cardsim.errors import IllegalActionError, InvalidCardError, InvalidConfigError


def _rules(rules) -> BarbuRules:
    if rules is None:
        return BarbuRules()
    if isinstance(rules, BarbuRules):
        return rules
    if isinstance(rules, dict):
        return BarbuRules.from_dict(rules)
    raise InvalidConfigError(f"rules must be a BarbuRules or a dict, got {type(rules).__name__}")


def _contract_number(c) -> int:
    if isinstance(c, str) and c in A.CONTRACT_NAMES:
        return A.CONTRACT_NAMES.index(c)
    if type(c) is int and 0 <= c < A.NUM_CONTRACTS:
        return c
    raise InvalidConfigError(f"unknown contract {c!r}; contracts: {', '.join(A.CONTRACT_NAMES)}")


def _seat_list(values, name: str, lo: int | None = None, hi: int | None = None) -> list[int]:
    vals = list(values)
    if len(vals) != 4 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                 for v in vals):
        raise InvalidConfigError(f"{name} must be 4 integers (one per seat), got {values!r}")
    vals = [int(v) for v in vals]
    for s, v in enumerate(vals):
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise InvalidConfigError(f"{name}[{s}] = {v} is outside {lo}..{hi}")
    return vals


class BarbuGame:
    """One Barbu match (docs/rules/barbu.md). ``state`` is a (1, STATE_WIDTH) int64 batch.

    The game face shared with DebertzGame: phase(), turn(), hand(seat), hands(),
    legal_actions(), legal_action_names(), legal_mask(), step(action), copy(), record(),
    num_players, rules, state. Everything else of the match (declarer, scores, ...) is a
    read-only property.
    """

    num_players = 4  # B1: always four players, each for themselves

    def __init__(self, rules: BarbuRules | dict | None = None, seed: int = 0, game_id: int = 0):
        self.rules = _rules(rules)
        self.seed = int(seed)
        self.game_id = int(game_id)
        if self.seed < 0 or self.game_id < 0:
            raise InvalidConfigError(f"seed and game_id must be non-negative, got "
                                     f"{seed!r}, {game_id!r}")
        self.R = self.rules.pack()
        self.state = np.zeros((1, L.STATE_WIDTH), dtype=np.int64)
        E.init_game(self.st, self.R, self.seed, self.game_id)

    @property
    def st(self) -> np.ndarray:
        """The state row (a view) that the kernels read and write."""
        return self.state[0]

    # --- construction from a given deal --------------------------------------------------
    @classmethod
    def from_deal(cls, hands: Sequence, declarer: int, *, rules=None, deal: int | None = None,
                  contracts_left: Iterable | None = None, scores: Sequence[int] | None = None,
                  doubles_owed: Sequence[int] | None = None, seed: int = 0,
                  game_id: int = 0) -> "BarbuGame":
        """A match at the start of a deal with the given cards (B3.1 done by hand).

        ``hands``: 4 hands of 13 cards (lists of 'QS'-style strings or card indices, or one
        string 'AS KS ...' each). ``contracts_left``: the declarer's contracts not yet played
        (names or numbers; default all seven, or as many as ``deal`` implies, B2). ``deal``:
        index 0..27 in the match (default: the declarer's first deal with as many contracts
        left, in the declarer block that ``rules.first_declarer`` implies, else block 0).
        ``scores``: match totals before the deal. ``doubles_owed``: per seat, doubles of this
        declarer still owed (B6.3; default the rules' ``doubles_owed`` for each opponent,
        capped by the chances left).
        """
        game = cls.__new__(cls)
        game.rules = _rules(rules)
        game.seed = int(seed)
        game.game_id = int(game_id)
        game.R = game.rules.pack()
        if type(declarer) is not int or not 0 <= declarer <= 3:
            raise InvalidConfigError(f"declarer must be a seat 0..3, got {declarer!r}")
        masks = cls._hand_masks(hands)
        if contracts_left is None:
            left = A.ALL_CONTRACTS if deal is None else None
        else:
            if isinstance(contracts_left, str):
                contracts_left = contracts_left.replace(",", " ").split()
            nums = [_contract_number(c) for c in contracts_left]
            if not nums or len(set(nums)) != len(nums):
                raise InvalidConfigError(
                    f"contracts_left must name 1..7 different contracts, got {contracts_left!r}")
            left = sum(1 << c for c in nums)
        if deal is None:
            fd = game.rules.first_declarer
            block = 0 if fd == "random" else (declarer - fd) % 4
            deal = block * 7 + 7 - bin(left).count("1")
        if type(deal) is not int or not 0 <= deal < L.DEALS_PER_MATCH:
            raise InvalidConfigError(f"deal must be 0..27, got {deal!r}")
        within = deal % L.DEALS_PER_DECLARER
        if left is None:
            if within != 0:
                raise InvalidConfigError(
                    f"deal {deal} is the declarer's deal {within + 1} of 7: give the "
                    f"{7 - within} contracts_left (B2)")
            left = A.ALL_CONTRACTS
        elif bin(left).count("1") != 7 - within:
            raise InvalidConfigError(
                f"deal {deal} is the declarer's deal {within + 1} of 7, so {7 - within} "
                f"contracts are left (B2); contracts_left has {bin(left).count('1')}")
        fd = game.rules.first_declarer
        if fd != "random" and (fd + deal // 7) % 4 != declarer:
            raise InvalidConfigError(
                f"with first_declarer = {fd}, deal {deal} has declarer {(fd + deal // 7) % 4}, "
                f"not {declarer} (B2)")
        chances = 7 - within
        if scores is None:
            scores = [0, 0, 0, 0]
        scores = _seat_list(scores, "scores")
        if doubles_owed is None:
            doubles_owed = [0 if s == declarer else min(game.rules.doubles_owed, chances)
                            for s in range(4)]
        owed = _seat_list(doubles_owed, "doubles_owed", 0, game.rules.doubles_owed)
        if owed[declarer] != 0:
            raise InvalidConfigError(
                f"doubles_owed[{declarer}] must be 0: the declarer owes no doubles (B6.3)")
        for s in range(4):
            if owed[s] > chances:
                raise InvalidConfigError(
                    f"doubles_owed[{s}] = {owed[s]} exceeds the {chances} deal(s) this declarer "
                    f"has left (B6.3)")
        game.state = np.zeros((1, L.STATE_WIDTH), dtype=np.int64)
        E.init_from_deal(game.st, game.R, game.seed, game.game_id, deal, declarer,
                         np.array(masks, dtype=np.int64), np.array(scores, dtype=np.int64),
                         np.array(owed, dtype=np.int64), left)
        return game

    @classmethod
    def single_deal(cls, item: int, *, seed: int = 0, rules=None) -> "BarbuGame":
        """Item ``item`` of a tournament of single deals (``cardsim tournament barbu`` without
        ``--by-contract``; ``cardsim.barbu.simulate_nb``'s hands mode): deal ``item % 28`` of
        match ``item // 28`` of ``seed``, its declarer's contracts already played and the
        doubles still owed drawn as that mode draws them, waiting for the declarer's choice
        of contract (B2)."""
        if type(item) is not int or item < 0:
            raise InvalidConfigError(f"item must be a non-negative integer, got {item!r}")
        game = cls(rules, seed=seed, game_id=item // L.DEALS_PER_MATCH)
        init_hand_item(game.st, game.R, game.seed, item)
        return game

    @staticmethod
    def _hand_masks(hands) -> list[int]:
        hands = list(hands)
        if len(hands) != 4:
            raise InvalidConfigError(f"hands must hold 4 hands (one per seat), got {len(hands)}")
        masks = []
        seen = 0
        for s, hand in enumerate(hands):
            try:
                cards = BARBU_DECK.parse_list(hand) if isinstance(hand, str) else [
                    BARBU_DECK.parse(c) if isinstance(c, str) else int(c) for c in hand]
                m = BARBU_DECK.mask_of(cards)
            except InvalidCardError as e:
                raise InvalidCardError(f"hands[{s}]: {e}") from None
            if len(cards) != 13:
                raise InvalidConfigError(f"hands[{s}] must hold 13 cards (B2), got {len(cards)}")
            if m & seen:
                dup = BARBU_DECK.format_mask(m & seen)
                raise InvalidConfigError(f"hands[{s}]: card(s) {' '.join(dup)} dealt twice")
            seen |= m
            masks.append(m)
        return masks

    def copy(self) -> "BarbuGame":
        """An independent copy of the match (the state row is copied)."""
        other = BarbuGame.__new__(BarbuGame)
        other.rules, other.seed, other.game_id, other.R = self.rules, self.seed, self.game_id, self.R
        other.state = self.state.copy()
        return other

    # --- actions ------------------------------------------------------------------------------
    # The methods of the game face take the game's index last, as DebertzGame's do for a
    # batch; a BarbuGame holds one match, so only 0 is a game of it.
    @staticmethod
    def _one(i) -> None:
        if not (isinstance(i, (int, np.integer)) and not isinstance(i, bool) and i == 0):
            raise InvalidConfigError(f"game index i={i!r} is out of range: a BarbuGame "
                                     f"holds one match, game 0")

    def legal_actions(self, i: int = 0) -> list[int]:
        """Ids of the legal actions of the seat to act (empty when nobody is to act)."""
        self._one(i)
        base, bits = E.legal_mask(self.st, self.R)
        base, bits = int(base), int(bits)
        return [base + k for k in range(bits.bit_length()) if bits >> k & 1]

    def legal_action_names(self, i: int = 0) -> list[str]:
        """Names of the legal actions of the seat to act (``"QS"``, ``"no_king"``,
        ``"double"``...), in id order; ``i`` must be 0."""
        return [A.ACTION_NAMES[a] for a in self.legal_actions(i)]

    def legal_array(self) -> np.ndarray:
        """uint8 array of NUM_ACTIONS entries, 1 where legal (for environments)."""
        out = np.zeros(A.NUM_ACTIONS, dtype=np.uint8)
        E.legal_array(self.st, self.R, out)
        return out

    def legal_mask(self, i: int = 0) -> np.ndarray:
        """Bool array of NUM_ACTIONS entries, True where the action is legal."""
        self._one(i)
        return self.legal_array().astype(bool)

    parse_action = staticmethod(A.action_id)  # an action id from an id or a name

    def step(self, action, i: int = 0) -> None:
        """Apply an action (id or name) of the seat to act; IllegalActionError if not legal."""
        self._one(i)
        try:
            a = A.action_id(action)
        except (ValueError, InvalidCardError) as e:
            raise IllegalActionError(f"unknown action {action!r}: {e}; legal: "
                                     f"{', '.join(self.legal_action_names())}") from None
        legal = self.legal_actions()
        if a not in legal:
            where = f"phase {self.phase()!r}"
            if self.turn() >= 0:
                where += f", seat {self.turn()} to act"
            if self.phase() == "double":
                where += f" (asked about seat {self.asking[1]})"
            raise IllegalActionError(
                f"action {A.ACTION_NAMES[a]!r} is not legal in {where}; legal: "
                f"{', '.join(A.ACTION_NAMES[x] for x in legal) or 'none (nobody is to act)'}")
        E.step(self.st, self.R, a)

    def next_deal(self, i: int = 0) -> None:
        """Start the next deal once the current one is over (B2)."""
        self._one(i)
        if self.st[L.PHASE] != L.PH_DEAL_END:
            raise IllegalActionError(f"next_deal needs a finished deal; phase is {self.phase()!r}")
        E.next_deal(self.st, self.R)

    # --- readable accessors -------------------------------------------------------------------
    def _i(self, field: str) -> int:
        return int(self.st[L.OFFSETS[field][0]])

    def _seats(self, field: str) -> list[int]:
        off = L.OFFSETS[field][0]
        return [int(x) for x in self.st[off:off + 4]]

    def phase(self, i: int = 0) -> str:
        """Name of the phase the match waits for: ``contract``, ``trump``, ``start_rank``,
        ``double``, ``play``, ``deal_end`` or ``match_over``; ``i`` must be 0."""
        self._one(i)
        return L.PHASE_NAMES[self._i("phase")]

    def turn(self, i: int = 0) -> int:
        """Seat to act, -1 when nobody is (deal over, match over)."""
        self._one(i)
        return self._i("turn")

    declarer = property(lambda self: self._i("declarer"))
    dealer = property(lambda self: self._i("dealer"))
    deal_no = property(lambda self: self._i("deal_no"), doc="deal 0..27 of the match")
    scores = property(lambda self: self._seats("scores"), doc="match totals")
    scores_before = property(lambda self: self._seats("scores_before"))
    contract_scores = property(lambda self: self._seats("contract_scores"))
    settlements = property(lambda self: self._seats("settlements"))
    deal_scores = property(lambda self: self._seats("deal_scores"))
    doubles_owed = property(lambda self: self._seats("owed"))
    doubles_owed_before = property(lambda self: self._seats("owed_before"))
    tricks_won = property(lambda self: self._seats("tricks_won"))
    is_deal_over = property(lambda self: self._i("phase") >= L.PH_DEAL_END)
    is_match_over = property(lambda self: self._i("match_over") == 1)

    @property
    def contract(self) -> str | None:
        """Name of the contract of the current deal (``"no_tricks"``...), None before the declarer
        has chosen it (B2)."""
        c = self._i("contract")
        return None if c < 0 else A.CONTRACT_NAMES[c]

    @property
    def trump(self) -> str | None:
        """Trumps: the trump suit's letter (S H D C); None in every other contract or before it is
        named."""
        t = self._i("trump")
        return None if t < 0 else SUIT_LETTERS[t]

    @property
    def start_rank(self) -> str | None:
        """Domino: the starting rank's character (B5); None in every other contract or before it is
        named."""
        r = self._i("start_rank")
        return None if r < 0 else BARBU_DECK.ranks[r]

    def hand(self, seat: int, i: int = 0) -> list[str]:
        """Cards that ``seat`` holds now."""
        self._one(i)
        if not (isinstance(seat, (int, np.integer)) and not isinstance(seat, bool)
                and 0 <= seat < self.num_players):
            raise InvalidConfigError(f"seat {seat!r} is out of range: seats are "
                                     f"0..{self.num_players - 1} (B1: four players)")
        return BARBU_DECK.format_mask(int(self.st[L.OFFSETS["hands"][0] + seat]))

    def hands(self, i: int = 0) -> list[list[str]]:
        """Cards held now, per seat."""
        self._one(i)
        return [BARBU_DECK.format_mask(m) for m in self._seats("hands")]

    @property
    def dealt(self) -> list[list[str]]:
        """The 13 cards dealt to each seat this deal."""
        return [BARBU_DECK.format_mask(m) for m in self._seats("dealt")]

    @property
    def contracts_left(self) -> list[list[str]]:
        """Per seat, the names of the contracts it has still to declare this match (B2)."""
        return [[A.CONTRACT_NAMES[c] for c in range(7) if m >> c & 1]
                for m in self._seats("contracts_left")]

    @property
    def asking(self) -> tuple[int, int] | None:
        """During doubling: (speaker, target) the engine is asking about (B6)."""
        if self._i("phase") != L.PH_DOUBLE:
            return None
        return int(E.dbl_speaker_seat(self.st)), int(E.dbl_target_seat(self.st))

    @property
    def doubles(self) -> list[list]:
        """[from, to, "double"/"redouble"] in the order spoken (B6)."""
        out = []
        for k in range(self._i("n_doubles")):
            v = int(self.st[L.DOUBLES + k])
            out.append([v >> 4, (v >> 2) & 3, "double" if v & 3 == 1 else "redouble"])
        return out

    @property
    def plays(self) -> list[list]:
        """[seat, card] in order; a Domino pass is [seat, "pass"]."""
        out = []
        for k in range(self._i("n_plays")):
            v = int(self.st[L.PLAYS + k])
            a = v & ((1 << L.PLAY_SEAT_SHIFT) - 1)
            out.append([v >> L.PLAY_SEAT_SHIFT, "pass" if a == A.PASS else BARBU_DECK.format(a)])
        return out

    @property
    def trick_winners(self) -> list[int]:
        """The seat that took each completed trick of the deal, in order."""
        return [int(x) for x in self.st[L.TRICK_WINNERS:L.TRICK_WINNERS + self._i("trick_no")]]

    @property
    def current_trick(self) -> list[str]:
        """Cards of the trick being played, in the order they were played."""
        return [BARBU_DECK.format(int(c)) for c in self.st[L.TRICK:L.TRICK + self._i("trick_len")]]

    @property
    def out_order(self) -> list[int]:
        """Domino: the seats in the order they ran out of cards (B5)."""
        return [int(x) for x in self.st[L.OUT_ORDER:L.OUT_ORDER + self._i("n_out")]]

    @property
    def winners(self) -> list[int]:
        """Seats sharing the match win (B2), empty before the match is over."""
        w = self._i("winners")
        return [s for s in range(4) if w >> s & 1]

    def record(self, i: int = 0) -> dict:
        """The cardsim-barbu/1 hand record of the deal just finished (record_row.py);
        HandRecordError while the deal is still running."""
        self._one(i)
        return record_of_row(self.st, self.rules, self.seed)

    to_record = record  # the older name of record

    def __repr__(self) -> str:
        return (f"BarbuGame(deal={self.deal_no}, declarer={self.declarer}, "
                f"contract={self.contract}, phase={self.phase()!r}, turn={self.turn()}, "
                f"scores={self.scores})")
