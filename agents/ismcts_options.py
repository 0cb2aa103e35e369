"""The options of the ``ismcts`` agent (``ISMCTSAgent``, the same in every game), declared
once: the agent validates and packs them in this order (``CompiledAgent.params``), and the
slot constants of its kernels (``agents/ismcts_nb.py``) are their places in it
(``option_slot``)."""

from agents.base import Option

OPTIONS = {
    "iterations": Option(1000, 1, 1e7, "iterations per decision (one sampled deal each)"),
    "exploration": Option(0.7, 0.0, 10.0, "UCB1 exploration constant (results are in "
                                          "hundreds of points in Debertz, units of 50 "
                                          "in Barbu)"),
    "rollout": Option(1, 0, 1, "rollout policy: 1 the heuristic, 0 random play",
                      switch=True),
    "ms": Option(0, 0, 600000, "stop after this many milliseconds per decision (0: no "
                               "limit); results then depend on the machine's speed"),
}
