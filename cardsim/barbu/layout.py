"""Where each field of a Barbu match lives in its state row, and the packed rules indices.

A batch of matches is one ``int64`` array of shape ``(N, STATE_WIDTH)``: row ``i`` is match
``i``, a struct of fixed-width fields whose offsets are the constants below. One match is one
row, so a search agent copies a state with ``dst[:] = src`` (or ``engine_nb.copy_state``)
inside compiled code. Card sets are Barbu card masks (bit = suit * 13 + rank, cardsim.cards),
contract sets are masks over contract numbers (actions.py), seats count from 0, -1 = "none".
The fields from ``contract`` on are the deal log: enough to write the hand record (record.py).
"""

from cardsim.layout import field_offsets

# (name, width, encoding)
FIELDS = (
    ("seed", 1, "the run's seed (non-negative)"),
    ("game_id", 1, "index of the match in the run; with seed and deal_no it fixes each deal"),
    ("phase", 1, "PH_* constant: what the match waits for"),
    ("deal_no", 1, "index of the current deal in the match, 0..27 (B2)"),
    ("first_declarer", 1, "declarer of deals 0-6; deal d's declarer is (first + d // 7) % 4"),
    ("declarer", 1, "declarer of the current deal (B2)"),
    ("dealer", 1, "dealer of the current deal: the seat before the declarer (B2)"),
    ("turn", 1, "seat to act, -1 when nobody is (deal end, match over)"),
    ("contracts_left", 4, "per seat: mask of its contracts not yet played (B2)"),
    ("owed", 4, "per seat: doubles of the current declarer it still owes (B6.3), 0 for him"),
    ("scores", 4, "per seat: match total"),
    ("match_over", 1, "1 once the 28th deal is scored"),
    ("winners", 1, "mask of the seats with the highest total once the match is over (B2)"),
    ("deck", 52, "the deal's card order: seat s got deck[13s:13s+13] (engine_nb.deal_from_seed)"),
    ("hands", 4, "per seat: mask of the cards now held"),
    ("played", 1, "mask of every card played in this deal"),
    ("dbl_round", 1, "B6: 1 = first turns, 2 = redouble round (B6.2)"),
    ("dbl_speaker", 1, "B6: position of the speaker, 0..3 from the declarer's left"),
    ("dbl_target", 1, "B6: the target asked about is speaker + 1 + dbl_target (0..2)"),
    ("bets", 16, "B6: bets[4i+j] = 1 when i doubled j, 2 when j then redoubled; 0 otherwise"),
    ("leader", 1, "seat that led the current trick"),
    ("trick_no", 1, "number of tricks completed"),
    ("trick_len", 1, "number of cards in the current trick"),
    ("trick", 4, "cards of the current trick in play order"),
    ("tricks_won", 4, "per seat: number of tricks taken"),
    ("row_lo", 4, "Domino: per suit, lowest rank of the row, -1 while not open (B5)"),
    ("row_hi", 4, "Domino: per suit, highest rank of the row, -1 while not open (B5)"),
    ("playable", 1, "Domino: mask of the cards that may be played now, whoever holds them"),
    # --- deal log (docs/hand-records.md) ----------------------------------------------------
    ("contract", 1, "contract number (actions.py), -1 before it is chosen"),
    ("trump", 1, "Trumps: trump suit 0-3, else -1"),
    ("start_rank", 1, "Domino: starting rank 0-12, else -1"),
    ("scores_before", 4, "per seat: match totals at the start of the deal"),
    ("owed_before", 4, "per seat: doubles owed to this declarer at the start of the deal"),
    ("dealt", 4, "per seat: mask of the 13 cards dealt"),
    ("n_doubles", 1, "number of doubles and redoubles spoken"),
    ("doubles", 12, "each in spoken order as from * 16 + to * 4 + kind (1 double, 2 redouble)"),
    ("n_plays", 1, "number of entries in plays"),
    ("plays", 208, "each card or Domino pass in order as seat * 64 + action (card, or PASS)"),
    ("trick_winners", 13, "seat that took each completed trick"),
    ("n_out", 1, "Domino: number of seats in out_order"),
    ("out_order", 4, "Domino: seats in the order they ran out, the last one appended (B5)"),
    ("contract_scores", 4, "per seat: B4 / B5 score of the deal (running total during play)"),
    ("settlements", 4, "per seat: sum of its settlements (B7.2)"),
    ("deal_scores", 4, "per seat: contract score + settlements (B7.3)"),
)
# Why 208 plays: the deal ends with at most 51 cards played, and between two cards at most 3
# passes are possible (some seat still in always holds a playable card, B5), so 51 + 3 * 52.

OFFSETS, STATE_WIDTH = field_offsets(FIELDS)

# Offsets as module constants (numba reads them as compile-time constants).
SEED = OFFSETS["seed"][0]
GAME_ID = OFFSETS["game_id"][0]
PHASE = OFFSETS["phase"][0]
DEAL_NO = OFFSETS["deal_no"][0]
FIRST_DECLARER = OFFSETS["first_declarer"][0]
DECLARER = OFFSETS["declarer"][0]
DEALER = OFFSETS["dealer"][0]
TURN = OFFSETS["turn"][0]
CONTRACTS_LEFT = OFFSETS["contracts_left"][0]
OWED = OFFSETS["owed"][0]
SCORES = OFFSETS["scores"][0]
MATCH_OVER = OFFSETS["match_over"][0]
WINNERS = OFFSETS["winners"][0]
DECK = OFFSETS["deck"][0]
HANDS = OFFSETS["hands"][0]
PLAYED = OFFSETS["played"][0]
DBL_ROUND = OFFSETS["dbl_round"][0]
DBL_SPEAKER = OFFSETS["dbl_speaker"][0]
DBL_TARGET = OFFSETS["dbl_target"][0]
BETS = OFFSETS["bets"][0]
LEADER = OFFSETS["leader"][0]
TRICK_NO = OFFSETS["trick_no"][0]
TRICK_LEN = OFFSETS["trick_len"][0]
TRICK = OFFSETS["trick"][0]
TRICKS_WON = OFFSETS["tricks_won"][0]
ROW_LO = OFFSETS["row_lo"][0]
ROW_HI = OFFSETS["row_hi"][0]
PLAYABLE = OFFSETS["playable"][0]
CONTRACT = OFFSETS["contract"][0]
TRUMP = OFFSETS["trump"][0]
START_RANK = OFFSETS["start_rank"][0]
SCORES_BEFORE = OFFSETS["scores_before"][0]
OWED_BEFORE = OFFSETS["owed_before"][0]
DEALT = OFFSETS["dealt"][0]
N_DOUBLES = OFFSETS["n_doubles"][0]
DOUBLES = OFFSETS["doubles"][0]
N_PLAYS = OFFSETS["n_plays"][0]
PLAYS = OFFSETS["plays"][0]
TRICK_WINNERS = OFFSETS["trick_winners"][0]
N_OUT = OFFSETS["n_out"][0]
OUT_ORDER = OFFSETS["out_order"][0]
CONTRACT_SCORES = OFFSETS["contract_scores"][0]
SETTLEMENTS = OFFSETS["settlements"][0]
DEAL_SCORES = OFFSETS["deal_scores"][0]
PLAYS_WIDTH = OFFSETS["plays"][1]

# Phases: what the match waits for.
PH_CONTRACT = 0     # the declarer chooses a contract (B3.2)
PH_TRUMP = 1        # the declarer names the trump suit (Trumps)
PH_START_RANK = 2   # the declarer names the starting rank (Domino)
PH_DOUBLE = 3       # the speaker answers about one target (B6)
PH_PLAY = 4         # a card (or a Domino pass)
PH_DEAL_END = 5     # deal scored; next_deal() starts the next one
PH_MATCH_OVER = 6   # 28 deals scored (B2)
PHASE_NAMES = ("contract", "trump", "start_rank", "double", "play", "deal_end", "match_over")

DEALS_PER_MATCH = 28
DEALS_PER_DECLARER = 7
PLAY_SEAT_SHIFT = 6          # plays entry = seat << 6 | action
DOUBLE_KIND_DOUBLE = 1
DOUBLE_KIND_REDOUBLE = 2

# Packed rules (BarbuRules.pack).
R_FIRST_DECLARER = 0         # -1 = random
R_KING_LEAD_NO_HEARTS = 1    # 1 = king_lead_rule "no_hearts"
R_KING_MUST_DISCARD = 2
R_TRUMPS_MUST_RUFF = 3
R_TRUMPS_MUST_OVERTRUMP = 4
R_DOUBLES_OWED = 5           # B6.3: doubles owed to each declarer (rules file: 2)
R_REDOUBLES = 6              # 1 = redoubles allowed (B6.1-B6.2; rules file: 1)
R_DOMINO_START = 7           # B5: -1 = the declarer names the rank, else the fixed rank 0..12
RULES_WIDTH = 8
