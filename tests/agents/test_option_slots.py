"""The compiled search agents' option slots come from the options they declare
(``agents.base.option_slot``): each kernel constant is its option's place in the parameter
vector the agent packs, and a name no agent declares, or one past the vector's room, fails
when the module is loaded instead of reading another option's value."""

import numpy as np
import pytest

from agents import ismcts_nb, pimc_nb
from agents.barbu import pimc_nb as barbu_pimc
from agents.base import PARAMS_WIDTH, Option, option_slot
from agents.debertz import pimc_nb as debertz_pimc
from agents.ismcts import ISMCTSAgent
from agents.ismcts_options import OPTIONS as ISMCTS_OPTIONS
from agents.registry import make_agent

ISMCTS_SLOTS = {"iterations": ismcts_nb.P_ITERATIONS, "exploration": ismcts_nb.P_EXPLORATION,
                "rollout": ismcts_nb.P_ROLLOUT, "ms": ismcts_nb.P_MS}


def test_ismcts_slots_are_the_places_of_its_declared_options():
    assert ISMCTSAgent.OPTIONS is ISMCTS_OPTIONS
    assert set(ISMCTS_SLOTS) == set(ISMCTS_OPTIONS)
    agent = ISMCTSAgent(game="debertz",
                        options={"iterations": 77, "exploration": 1.5, "rollout": 0, "ms": 9})
    for name, slot in ISMCTS_SLOTS.items():
        assert slot == option_slot(ISMCTS_OPTIONS, name)
        assert agent.params[slot] == agent.options[name]


@pytest.mark.parametrize("game, module", [("barbu", barbu_pimc), ("debertz", debertz_pimc)])
def test_pimc_slots_are_the_places_of_each_games_options(game, module):
    agent = make_agent("pimc", game)
    for k, name in enumerate(agent.OPTIONS):
        assert getattr(module, "P_" + name.upper()) == k == option_slot(agent.OPTIONS, name)


def test_options_every_game_places_alike_have_one_slot():
    for name in ("samples", "nodes", "ms"):
        assert getattr(pimc_nb, "P_" + name.upper()) == pimc_nb.common_slot(name)
    with pytest.raises(ValueError, match="'maxn' has a different place in each game"):
        pimc_nb.common_slot("maxn")


def test_ismcts_hands_pimc_its_options_by_pimcs_slots():
    """Barbu's contract choice under ismcts is pimc's: the iterations shared out over two
    play-outs per option and deal, and the time limit, in pimc's slots."""
    params = ISMCTSAgent(game="barbu", options={"iterations": 700, "ms": 25}).params
    playouts = ismcts_nb.pimc_playouts(params, np.int64(0b1111111))
    expected = np.zeros(PARAMS_WIDTH)
    expected[pimc_nb.P_SAMPLES] = 700 // (2 * 7)
    expected[pimc_nb.P_MS] = 25
    assert playouts.tolist() == expected.tolist()


def test_an_option_not_declared_has_no_slot():
    with pytest.raises(KeyError, match="no option 'iteration' among iterations, exploration"):
        option_slot(ISMCTS_OPTIONS, "iteration")
    with pytest.raises(KeyError, match="'opponent_samples'"):
        option_slot(make_agent("pimc", "barbu").OPTIONS, "opponent_samples")


def test_an_option_past_the_parameter_vector_has_no_slot():
    many = {f"o{k}": Option(0, 0, 1, "") for k in range(PARAMS_WIDTH + 1)}
    assert option_slot(many, f"o{PARAMS_WIDTH - 1}") == PARAMS_WIDTH - 1
    with pytest.raises(ValueError, match=f"number {PARAMS_WIDTH + 1} of {PARAMS_WIDTH + 1}"):
        option_slot(many, f"o{PARAMS_WIDTH}")
