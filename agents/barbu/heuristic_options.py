"""The options of the Barbu ``heuristic`` agent (``BarbuHeuristic``): their order is that of
its parameter vector, whose slots its kernels (``agents/barbu/heuristic_nb.py``) find by
name (``option_slot``)."""

from agents.base import Option

OPTIONS = {
    "double_margin": Option(0.0, -30.0, 60.0,
                            "points our expected contract score must beat the target's by "
                            "to double (B6.1)"),
    "redouble_margin": Option(8.0, -30.0, 60.0,
                              "points ahead of a doubler needed to redouble (B6.1)"),
    "declarer_edge": Option(3.0, -20.0, 40.0,
                            "points added to the declarer's expected score: he chose the "
                            "contract for his hand"),
    "obligation_pressure": Option(6.0, 0.0, 60.0,
                                  "margin cut towards the declarer per owed double per deal "
                                  "left (B6.3)"),
    "domino_block": Option(1.0, 0.0, 10.0,
                           "Domino: weight of the other players' cards a play frees"),
    "doubles": Option(1.0, 0.0, 1.0,
                      "1 = double and redouble by expected scores; 0 = only forced doubles",
                      switch=True),
    "choice_spread": Option(0.0, 0.0, 2.0,
                            "contract choice: gain over the mean divided by the contract's "
                            "spread to this power (0 points, 1 standard deviations)"),
}
