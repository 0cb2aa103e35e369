"""The options of the ``pimc`` Debertz agent (``DebertzPIMC``), declared once: the
agent validates and packs them in this order (``CompiledAgent.params``), and the slot constants
of its kernels (``agents/debertz/pimc_nb.py``) are their places in it (``option_slot``)."""

from agents.base import Option

OPTIONS = {
    "samples": Option(16, 1, 4096,
                      "deals drawn per decision (card play: each solved; bidding and "
                      "seven swap: each played out for every option)"),
    "nodes": Option(0, 0, 1e9,
                    "node budget of each solve, 0 for exact solves; with a budget the "
                    "solver values what it has not searched by a static count"),
    "ms": Option(0, 0, 600000,
                 "stop drawing deals after this many milliseconds per decision (0: no "
                 "time limit); results then depend on the machine's speed"),
    "maxn": Option(0, 0, 2, "card play with three or four sides: 0 solves each deal with the "
                            "others playing together against this seat (paranoid: prunes "
                            "most, so a node budget searches deepest); max-n, every side "
                            "playing for itself: 1 for its round points less the others', "
                            "2 for its recorded score (byte, pot and byte penalty, D9.2-D9.3)"
                            " less the others'"),
    "rollouts": Option(200, 0, 65536,
                       "deals drawn per bidding or seven-swap decision, each played out "
                       "by the heuristic for every option (0: as many as ``samples``); "
                       "a play-out costs far less than a solve, and a bid decided on a "
                       "few deals is a noisy one"),
    "opponent_samples": Option(0, 0, 4096,
                               "deals drawn per card-play decision by a seat opposing "
                               "the bidder (not on the bidder's side, D4; 0: as many as "
                               "``samples``, which the bidder's side keeps)"),
}
