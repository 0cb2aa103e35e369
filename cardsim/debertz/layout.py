"""Where each field of a Debertz game lives in its state row, and the packed rules indices.

A batch of games is one ``int64`` array of shape ``(N, STATE_WIDTH)``: row ``i`` is game
``i``, a struct of fixed-width fields whose offsets are the constants below. One game is one
row, so a search agent copies a state with ``dst[:] = src`` inside compiled code.
Card sets are Debertz card masks (cardsim.cards), seats count from 0, -1 means "none".
"""

from cardsim.layout import field_offsets

# (name, width, encoding)
FIELDS = (
    ("seed", 1, "the run's seed (non-negative)"),
    ("game_id", 1, "index of the game in the run; with seed and deal_no it fixes each deal"),
    ("phase", 1, "PH_* constant: what the game waits for"),
    ("deal_no", 1, "index of the current deal in the game, void deals counted"),
    ("dealer", 1, "seat that dealt the current deal"),
    ("turn", 1, "seat to act, -1 when nobody is (deal end, game over)"),
    ("deck", 32, "the deal's card order: 6 per seat by seat number, the turn-up, then the stock"),
    ("stock_pos", 1, "index in deck of the next card to deal"),
    ("turnup", 1, "card turned up (D3.1)"),
    ("turnup_receiver", 1, "4 players: seat that took the turn-up (D3.3), else -1"),
    ("dead", 1, "mask of cards out of play: stock and turn-up with 2-3 players"),
    ("trump", 1, "trump suit 0-3, -1 before bidding ends"),
    ("bidder", 1, "seat that chose trump, -1 before"),
    ("n_bids", 1, "number of bids spoken in this deal"),
    ("bids", 8, "action id of each bid in order; speaker k is (dealer + 1 + k) % players"),
    ("swap_seat", 1, "seat that swapped the 7 of trump for the turn-up (D5), -1 if none"),
    ("dealt", 4, "per seat: mask of the 6 cards first dealt"),
    ("extra", 4, "per seat: mask of the cards received after bidding (turn-up included, D3.3)"),
    ("hands", 4, "per seat: mask of the cards now held"),
    ("play_hands", 4, "per seat: mask of the cards held at the first lead (after any swap)"),
    ("seq_points", 4, "per seat: points of all its sequences (D6), debertz excluded"),
    ("best_meld", 4, "per seat: comparison key of its highest sequence (melds_nb), 0 if none"),
    ("meld_winner", 1, "seat holding the highest sequence (D6.2-D6.3), -1 if none"),
    ("bella_seat", 1, "seat holding K and Q of trump at the first lead (D7), -1 if none"),
    ("bella_shown", 1, "1 once the bella has been announced"),
    ("leader", 1, "seat that led the current trick"),
    ("trick_no", 1, "number of tricks completed"),
    ("trick_len", 1, "number of cards in the current trick"),
    ("trick", 4, "cards of the current trick in play order"),
    ("trick_top", 1, "seat whose card wins the current trick so far, -1 before its lead"),
    ("trick_best", 1, "strength of that card (tables.CARD_STRENGTH: trumps 16+), -1 before"),
    ("trick_points", 1, "card points (D2) of the current trick's cards so far"),
    ("won_points", 4, "per seat: card points of the tricks it took (no last-trick bonus)"),
    ("tricks_won", 4, "per seat: number of tricks taken"),
    ("n_plays", 1, "number of cards played in this deal"),
    ("plays", 32, "each card played, in order, as seat * 32 + card"),
    ("trick_winners", 9, "seat that took each completed trick"),
    ("played", 1, "mask of every card played in this deal"),
    ("voids", 4, "per seat: suits (bit per suit) it has shown it lacks by its plays (D8)"),
    ("scores", 4, "per side: total recorded points of the game"),
    ("byte_counts", 4, "per side: number of bytes (D9.3)"),
    ("pot", 1, "hanging-byte pot waiting for a round winner (D9.2)"),
    ("scores_before", 4, "per side: scores at the start of the deal"),
    ("byte_counts_before", 4, "per side: byte counts at the start of the deal"),
    ("pot_before", 1, "pot at the start of the deal"),
    ("round_points", 4, "per side: cards + last trick + sequences + bella (D9.1), as counted"),
    ("recorded", 4, "per side: what the sheet records for the deal (D9.2-D9.4)"),
    ("byte", 1, "BYTE_NONE, BYTE_BYTE or BYTE_HANGING"),
    ("void", 1, "VOID_NONE, VOID_FOUR_SEVENS or VOID_ALL_PASSED"),
    ("end", 1, "END_* constant: how the deal ended, END_NONE while it runs"),
    ("game_over", 1, "1 once the game has ended"),
    ("winner", 1, "winning side once the game is over, else -1"),
    ("next_dealer", 1, "seat to deal the next deal (D10), set when the deal ends"),
)

OFFSETS, STATE_WIDTH = field_offsets(FIELDS)

# Offsets as module constants (numba reads them as compile-time constants).
SEED = OFFSETS["seed"][0]
GAME_ID = OFFSETS["game_id"][0]
PHASE = OFFSETS["phase"][0]
DEAL_NO = OFFSETS["deal_no"][0]
DEALER = OFFSETS["dealer"][0]
TURN = OFFSETS["turn"][0]
DECK = OFFSETS["deck"][0]
STOCK_POS = OFFSETS["stock_pos"][0]
TURNUP = OFFSETS["turnup"][0]
TURNUP_RECEIVER = OFFSETS["turnup_receiver"][0]
DEAD = OFFSETS["dead"][0]
TRUMP = OFFSETS["trump"][0]
BIDDER = OFFSETS["bidder"][0]
N_BIDS = OFFSETS["n_bids"][0]
BIDS = OFFSETS["bids"][0]
SWAP_SEAT = OFFSETS["swap_seat"][0]
DEALT = OFFSETS["dealt"][0]
EXTRA = OFFSETS["extra"][0]
HANDS = OFFSETS["hands"][0]
PLAY_HANDS = OFFSETS["play_hands"][0]
SEQ_POINTS = OFFSETS["seq_points"][0]
BEST_MELD = OFFSETS["best_meld"][0]
MELD_WINNER = OFFSETS["meld_winner"][0]
BELLA_SEAT = OFFSETS["bella_seat"][0]
BELLA_SHOWN = OFFSETS["bella_shown"][0]
LEADER = OFFSETS["leader"][0]
TRICK_NO = OFFSETS["trick_no"][0]
TRICK_LEN = OFFSETS["trick_len"][0]
TRICK = OFFSETS["trick"][0]
TRICK_TOP = OFFSETS["trick_top"][0]
TRICK_BEST = OFFSETS["trick_best"][0]
TRICK_POINTS = OFFSETS["trick_points"][0]
WON_POINTS = OFFSETS["won_points"][0]
TRICKS_WON = OFFSETS["tricks_won"][0]
N_PLAYS = OFFSETS["n_plays"][0]
PLAYS = OFFSETS["plays"][0]
TRICK_WINNERS = OFFSETS["trick_winners"][0]
PLAYED = OFFSETS["played"][0]
VOIDS = OFFSETS["voids"][0]
SCORES = OFFSETS["scores"][0]
BYTE_COUNTS = OFFSETS["byte_counts"][0]
POT = OFFSETS["pot"][0]
SCORES_BEFORE = OFFSETS["scores_before"][0]
BYTE_COUNTS_BEFORE = OFFSETS["byte_counts_before"][0]
POT_BEFORE = OFFSETS["pot_before"][0]
ROUND_POINTS = OFFSETS["round_points"][0]
RECORDED = OFFSETS["recorded"][0]
BYTE = OFFSETS["byte"][0]
VOID = OFFSETS["void"][0]
END = OFFSETS["end"][0]
GAME_OVER = OFFSETS["game_over"][0]
WINNER = OFFSETS["winner"][0]
NEXT_DEALER = OFFSETS["next_dealer"][0]

# Phases: what the game waits for.
PH_BID1 = 0       # round 1 of bidding: play or pass (D4)
PH_BID2 = 1       # round 2: name a suit or pass (D4)
PH_SWAP = 2       # holder of the 7 of trump: swap or keep (D5)
PH_PLAY = 3       # a card
PH_DEAL_END = 4   # deal over (scored or void); next_deal() starts the next one
PH_GAME_OVER = 5  # game over
PHASE_NAMES = ("bid1", "bid2", "swap", "play", "deal_end", "game_over")

BYTE_NONE, BYTE_BYTE, BYTE_HANGING = 0, 1, 2
VOID_NONE, VOID_FOUR_SEVENS, VOID_ALL_PASSED = 0, 1, 2
END_NONE, END_PLAYED_OUT, END_POINTS, END_DEBERTZ, END_VOID = 0, 1, 2, 3, 4
END_NAMES = (None, "played_out", "points", "debertz", "void")

# Packed rules (DebertzRules.pack).
R_PLAYERS = 0
R_TEAMS = 1
R_SIDES = 2
R_FIRST_DEALER = 3          # -1 = random
R_TARGET = 4
R_END_POINTS = 5            # 1 = end_mode "points"
R_OBLIGATORY = 6
R_SEVEN_SWAP = 7
R_TURNUP_TO_DEALER = 8
R_TRUMP_MELD_WINS_TIE = 9
R_DEBERTZ_TRUMP_ONLY = 10
R_DECLARE_BEFORE_PLAY = 11
R_BELLA_ANY_CARD = 12
R_UNPLAYED_BELLA_COUNTS = 13
R_LEAD_AFTER_DEALER = 14
R_OVERTRUMP_ON_RUFF = 15
R_PARTNER_EXEMPTION = 16
R_BYTE_PENALTY = 17
R_NO_TRICK_PENALTY = 18
R_ROTATE_TO_WINNER = 19
RULES_WIDTH = 20
