"""The heuristic agents: one class for both games (``agents.heuristic.HeuristicAgent``), and
kernel option slots that come from the options each game declares
(``agents/<game>/heuristic_options.py``, found by ``agents.base.option_slot``)."""

import pytest

from agents.barbu import heuristic_nb as barbu_kernels
from agents.debertz import heuristic_nb as debertz_kernels
from agents.heuristic import HeuristicAgent
from agents.policies import HEURISTIC, HEURISTIC_POLICIES
from agents.registry import make_agent


@pytest.mark.parametrize("game, kernels", [("barbu", barbu_kernels), ("debertz", debertz_kernels)])
def test_each_slot_is_its_options_place_in_the_parameter_vector(game, kernels):
    agent = make_agent("heuristic", game)
    assert isinstance(agent, HeuristicAgent) and agent.OPTIONS is kernels.OPTIONS
    assert (agent.name, agent.kind, agent.policies) == ("heuristic", HEURISTIC.kind,
                                                        HEURISTIC_POLICIES)
    slots = {name: getattr(kernels, "P_" + name.upper()) for name in agent.OPTIONS}
    assert list(slots.values()) == list(range(len(agent.OPTIONS)))
    assert kernels.DEFAULT_PARAMS.tolist() == agent.params.tolist()
