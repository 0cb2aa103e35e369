"""The neural agent's compiled forward (agents/neural/forward_nb.py): the same choices as
torch's forward, the same whatever the batch, and the same without the JIT."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from agents.neural import ActionHeadNet
from agents.neural.forward_nb import greedy_actions, pack_weights
from agents.neural.network import masked
from agents.registry import make_agent
from cardsim import games


def torch_choice(net, obs, legal):
    with torch.no_grad():
        return masked(net(torch.from_numpy(obs)), torch.from_numpy(legal)).argmax(1).numpy()


def sparse_inputs(rng, n, obs_size, num_actions):
    """Observations mostly zero, as the games' are, and legal sets of one to many actions."""
    obs = np.where(rng.random((n, obs_size)) < 0.1, rng.random((n, obs_size)), 0)
    legal = rng.random((n, num_actions)) < rng.random((n, 1))
    legal[np.arange(n), rng.integers(num_actions, size=n)] = True
    return obs.astype(np.float32), legal


@pytest.mark.parametrize("hidden", [(), (16,), (32, 8, 24), (256, 256, 256)])
def test_the_kernel_chooses_as_torch_does(hidden):
    torch.manual_seed(1)
    net = ActionHeadNet(120, 40, hidden)
    obs, legal = sparse_inputs(np.random.default_rng(2), 500, 120, 40)
    got = greedy_actions(obs, legal, *pack_weights(net.layer_arrays()))
    assert legal[np.arange(500), got].all()
    assert (got == torch_choice(net, obs, legal)).all()


def test_one_game_at_a_time_chooses_as_the_batch_does():
    torch.manual_seed(3)
    net = ActionHeadNet(120, 40, (64, 64))
    obs, legal = sparse_inputs(np.random.default_rng(4), 300, 120, 40)
    packed = pack_weights(net.layer_arrays())
    batch = greedy_actions(obs, legal, *packed)
    one = [greedy_actions(obs[i:i + 1], legal[i:i + 1], *packed)[0] for i in range(300)]
    assert (batch == np.array(one)).all()


def test_ties_go_to_the_lowest_action_and_an_empty_row_to_action_0():
    net = ActionHeadNet(6, 5, (4,))
    with torch.no_grad():
        for p in net.parameters():
            p.zero_()
        net.actions.bias.copy_(torch.tensor([0.0, 2.0, 1.0, 2.0, 2.0]))
    obs = np.ones((3, 6), dtype=np.float32)
    legal = np.array([[1, 1, 1, 1, 1], [0, 0, 1, 1, 1], [0, 0, 0, 0, 0]], dtype=bool)
    assert greedy_actions(obs, legal, *pack_weights(net.layer_arrays())).tolist() == [1, 3, 0]


def test_pack_weights_refuses_layers_that_do_not_chain():
    with pytest.raises(ValueError, match="layer 1: weight .* do not follow a layer of width 8"):
        pack_weights([(np.zeros((8, 5)), np.zeros(8)), (np.zeros((3, 7)), np.zeros(3))])


@pytest.mark.parametrize("name, table", [("debertz-2p", {"players": 2}),
                                         ("barbu", {})])
def test_zoo_networks_choose_as_torch_does_on_game_positions(name, table):
    from experiments.tournaments.strength_cost import decision_positions, observed_positions

    game = name.split("-")[0]
    kit = games.get(game)
    R = kit.make_rules(conventions=table).pack()
    states = decision_positions(kit, R, 30, 9)
    obs, legal = observed_positions(kit, R, states)
    agent = make_agent(f"neural:checkpoint={name}", game)
    got = agent.act(obs, legal)
    assert len(states) > 300
    assert (got == torch_choice(agent.net, obs, legal)).all()
    assert [agent.act(obs[i:i + 1], legal[i:i + 1])[0] for i in range(40)] == got[:40].tolist()


NO_JIT_SCRIPT = """
import json, sys
import numpy as np
from agents.neural.forward_nb import greedy_actions
data = json.loads(sys.stdin.read())
arrays = [np.array(data[k], dtype=t) for k, t in
          [("obs", np.float32), ("legal", np.bool_), ("weights", np.float32),
           ("biases", np.float32), ("widths", np.int64)]]
print(json.dumps(greedy_actions(*arrays).tolist()))
"""


def test_the_kernel_chooses_the_same_without_the_jit():
    torch.manual_seed(5)
    net = ActionHeadNet(60, 12, (16, 16))
    obs, legal = sparse_inputs(np.random.default_rng(6), 40, 60, 12)
    weights, biases, widths = pack_weights(net.layer_arrays())
    data = {"obs": obs.tolist(), "legal": legal.tolist(), "weights": weights.tolist(),
            "biases": biases.tolist(), "widths": widths.tolist()}
    run = subprocess.run([sys.executable, "-c", NO_JIT_SCRIPT], input=json.dumps(data),
                         env=dict(os.environ, NUMBA_DISABLE_JIT="1"), capture_output=True,
                         text=True, check=True)
    assert json.loads(run.stdout) == greedy_actions(obs, legal, weights, biases, widths).tolist()


@pytest.mark.parametrize("hidden", [(), (32, 8, 24)])
def test_one_row_under_a_legal_bit_set_chooses_as_the_batch_kernel(hidden):
    # greedy_legal is what a play-out by the network calls (experiments/train/labels_nb.py):
    # a legal set as (base, bits), one row, the same forward and ties as greedy_actions
    from agents.neural.forward_nb import greedy_legal, scratch

    torch.manual_seed(5)
    net = ActionHeadNet(120, 80, hidden)
    packed = pack_weights(net.layer_arrays())
    rng = np.random.default_rng(6)
    obs, _ = sparse_inputs(rng, 300, 120, 80)
    x, nz, h = scratch(packed[2])
    for i in range(300):
        base = int(rng.integers(0, 17))
        bits = int(rng.integers(1, 1 << 63)) if i % 3 else 1 << int(rng.integers(0, 63))
        legal = np.zeros((1, 80), dtype=np.bool_)
        for k in range(63):
            if bits >> k & 1:
                legal[0, base + k] = True
        got = greedy_legal(obs[i], base, bits, *packed, x, nz, h)
        assert got == greedy_actions(obs[i:i + 1], legal, *packed)[0]
