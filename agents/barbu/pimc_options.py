"""The options of the ``pimc`` Barbu agent (``BarbuPIMC``), declared once: the
agent validates and packs them in this order (``CompiledAgent.params``), and the slot constants
of its kernels (``agents/barbu/pimc_nb.py``) are their places in it (``option_slot``)."""

from agents.base import Option

OPTIONS = {
    "samples": Option(16, 1, 4096,
                      "deals drawn per decision (trick play: each solved; Domino, "
                      "contract, trump, starting rank and doubling: each played out "
                      "for every option)"),
    "nodes": Option(20000, 0, 1e9,
                    "node budget of each root card's search, 0 for exact solves (only "
                    "practical in the last few tricks); once spent the solver values "
                    "what is left statically"),
    "ms": Option(0, 0, 600000,
                 "stop drawing deals after this many milliseconds per decision (0: no "
                 "time limit); results then depend on the machine's speed"),
    "doubling": Option(1, 0, 1, "1: double and redouble by simulation; 0: as the "
                                "heuristic (expected-score margins)", switch=True),
    "maxn": Option(1, 0, 1, "trick play: 1 solves each deal with every other seat "
                            "playing for its own deal score (max-n); 0 with the three "
                            "playing together against this seat (paranoid)", switch=True),
    "rollouts": Option(200, 0, 65536,
                       "deals drawn per decision by simulation (Domino, contract, trump, "
                       "starting rank, doubling), each played out by the heuristic for "
                       "every option (0: as many as ``samples``)"),
    "margin": Option(1, 0, 100,
                     "trick play: the solved best card replaces the heuristic's only "
                     "when its mean gain over it on the drawn deals beats this many "
                     "standard errors (0: always the best mean)"),
    "solve": Option(4, 0, 13,
                    "trick play solves the drawn deals once at most this many tricks "
                    "are left (the current one included); before that each legal card "
                    "is tried on ``rollouts`` drawn deals played out by the heuristic "
                    "(13: every trick solved, 0: none)"),
}
