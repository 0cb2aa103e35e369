"""A Debertz player that plays the way a sound club player does (docs/rules/debertz.md).

**Bidding (D4).** The hand is valued for each possible trump the way players count it over the
table: the jack of trump is a sure trick, the nine next (worth a lot with the jack or with
length behind it), then ace and ten of trump; every trump past the second adds length; side
aces, and tens with their ace, are tricks; a void or singleton side suit is a place to ruff;
sequences count at part of their value (only the highest one scores, D6.3) and bella fully
(D7). With 4 players the bidder's turn-up is counted in the hand (D3.3); with 2-3 players a 7
of trump is counted as the turn-up it will be swapped for (D5), and in round 2 the dead
turn-up is known to be out. Because a bidder who does not beat every opponent loses the whole
deal (the byte, D9.2), the player takes the contract only with a real hand: the value must
reach a threshold per table size, moved by ``aggression``. In round 2 it names its best suit
if that suit is good enough; a dealer obliged to name (``obligatory``) names the best one.

**Seven swap (D5).** Takes the turn-up for the 7 of trump whenever that does not cost a
sequence.

**Card play (D8), with card counting.** The player tracks the cards played, the voids the
others have shown by not following (or not trumping), where the turn-up went, and so which
cards are masters. Leading: the contract side draws trumps with its master trump (defenders
keep their trumps to ruff); a long-trump bidder without the jack pushes a low trump to make the
high ones fall; then it cashes side masters no opponent can ruff; otherwise it leads a low
card, from a short suit to make a void, not away from a guarded ten, towards a suit the partner
ruffs (2v2); leading into an opponent's ruff is fine, it costs them a trump. With two cards
left it keeps the sure winner for the last trick (+10, D2). Following: onto a partner's trick
that nobody can beat it throws points (a ten first, then an ace); otherwise it takes the trick
with the cheapest card that surely holds; forced to ruff, it ruffs high enough to win; it
fights with a master when the trick is worth 20 points or more (last-trick bonus included), and
else throws its cheapest card (never a trump or a master when avoidable, not the last guard of
a ten, gladly a singleton).

The policy is compiled (``agents/debertz/heuristic_nb.py``), deterministic unless ``epsilon``
is set, and sees only what its seat may know.
"""

from __future__ import annotations

from agents.debertz.heuristic_options import OPTIONS as HEURISTIC_OPTIONS
from agents.heuristic import HeuristicAgent


class DebertzHeuristic(HeuristicAgent):
    """Rule-based Debertz player: hand valuation for bids, card counting in the play."""

    games = ("debertz",)
    OPTIONS = HEURISTIC_OPTIONS


AGENT = DebertzHeuristic  # the class agents.registry makes for this name
