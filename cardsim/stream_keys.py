"""Every key of the seeded random streams, in one table.

``cardsim.rng_nb.stream(seed, item, key)`` starts an independent generator for each (seed,
item, key): a deal's cards, a game's first dealer and every policy's decisions draw from
streams of their own, so that no draw depends on another, on the batch or on the thread that
plays an item. Keys below ``GAME`` are deal numbers (the cards of deal ``d`` of a game come
from ``stream(seed, game, d)``); the others are far above any deal number and apart by more
than any offset added to them (a pattern, a deal of a match).
"""

GAME = 1 << 40       # game-level draws: the first dealer (Debertz), the first declarer (Barbu)
POLICY = 1 << 41     # the decisions of item i in a simulation; POLICY + 1 + p: under duplicate
                     # pattern p (Debertz); POLICY + 1 + d: Barbu's hands-mode deal d of a match
HANDS = 1 << 42      # Barbu's hands mode: the cards of deal d of match m, HANDS + d
AGENT = 1 << 43      # a compiled agent's own generator (Agent.reset(seed)), item 0
DUPLICATE = 1 << 44  # Barbu: the decisions of pattern p of a duplicate item, DUPLICATE + p
OPPONENT = 1 << 45   # the environments' compiled opponents in row i
LABELS = 1 << 46    # training labels: the deals drawn to label row i's decisions
BELIEF_PRIOR = 1 << 47  # belief training: the deals drawn for the sampler's chances in row i
