"""The options of the Debertz ``heuristic`` agent (``DebertzHeuristic``): their order is that
of its parameter vector, whose slots its kernels (``agents/debertz/heuristic_nb.py``) find
by name (``option_slot``)."""

from agents.base import Option

OPTIONS = {
    "aggression": Option(0.5, 0.0, 1.0,
                         "bidding boldness: 0 needs a very strong hand to take the "
                         "contract, 1 bids on a fair one (moves the hand-value threshold "
                         "by +30 .. -30)"),
    "swap": Option(1.0, 0.0, 1.0,
                   "1: swap the 7 of trump for the turn-up when it does not cost a "
                   "sequence (and count on it when bidding); 0: always keep (D5)",
                   switch=True),
    "counting": Option(1.0, 0.0, 1.0,
                       "1: count the cards played and the voids shown; 0: play from the "
                       "own hand and the current trick only (for comparison)",
                       switch=True),
    "epsilon": Option(0.0, 0.0, 1.0,
                      "share of decisions taken uniformly at random instead (exploration; "
                      "0 keeps the policy deterministic)"),
}
