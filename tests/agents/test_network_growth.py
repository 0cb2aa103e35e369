"""A trained network grown to more capacity (agents/neural/network.py ``grown``, ``init`` with a
larger ``hidden``): the same outputs before any training, new units that can learn, and a
clear refusal of what is not a growth."""

import numpy as np
import pytest
import torch

from agents.neural import ActionHeadNet
from agents.neural.forward_nb import greedy_actions, pack_weights
from agents.neural.network import grown


def trained_like(hidden, value_head=False):
    """A network whose weights are far from a fresh one's (all of them random, biases too)."""
    torch.manual_seed(5)
    net = ActionHeadNet(30, 12, hidden, value_head=value_head)
    with torch.no_grad():
        for p in net.parameters():
            p.normal_(0.0, 0.3)
    return net


@pytest.mark.parametrize("old, new", [((16, 8), (16, 8)), ((16, 8), (24, 20)),
                                      ((16, 8), (16, 8, 8)), ((16, 8), (20, 12, 16, 30)),
                                      ((), (30, 40))])
@pytest.mark.parametrize("value_head", [False, True])
def test_a_grown_network_computes_what_it_grew_from(old, new, value_head):
    net = trained_like(old, value_head)
    big = grown(net, new)
    assert big.hidden == new and (big.value_out is not None) == value_head
    obs = torch.rand(200, 30) * (torch.rand(200, 30) < 0.3)
    with torch.no_grad():
        if value_head:
            (q, v), (q2, v2) = net.forward_with_value(obs), big.forward_with_value(obs)
            assert torch.allclose(v, v2, atol=1e-5)
        else:
            q, q2 = net(obs), big(obs)
    assert torch.allclose(q, q2, atol=1e-5)
    assert q.abs().max() > 0.1  # outputs that are not all zero: the comparison means something


def test_the_grown_network_plays_as_it_did_and_its_new_units_learn():
    net = trained_like((16, 8))
    big = grown(net, (32, 24, 24))
    rng = np.random.default_rng(1)
    obs = (rng.random((300, 30)) * (rng.random((300, 30)) < 0.3)).astype(np.float32)
    legal = rng.random((300, 12)) < 0.5
    legal[:, 0] = True
    assert (greedy_actions(obs, legal, *pack_weights(net.layer_arrays())) ==
            greedy_actions(obs, legal, *pack_weights(big.layer_arrays()))).all()
    # one gradient step towards other targets moves the weights out of the new units
    target = torch.randn(300, 12)
    loss = ((big(torch.from_numpy(obs)) - target) ** 2).mean()
    loss.backward()
    assert big.actions.weight.grad[:, 8:].abs().sum() > 0  # from the new units of the last layer
    new_rows = big.trunk_layers()[0].weight[16:]
    assert new_rows.abs().sum() > 0  # new units compute something from the start


@pytest.mark.parametrize("new, words", [((16,), "the same layers or more"),
                                        ((12, 8), "at least as wide"),
                                        ((16, 8, 4), "at least 8 units")])
def test_what_is_not_a_growth_is_refused(new, words):
    with pytest.raises(ValueError, match=words):
        grown(trained_like((16, 8)), new)


@pytest.mark.parametrize("old, new", [((16, 8), (16, 8)), ((16, 8), (24, 8, 12)), ((), ())])
@pytest.mark.parametrize("value_head", [False, True])
def test_a_network_grown_to_a_wider_observation_reads_its_start(old, new, value_head):
    """Pieces appended to the observation (agents/neural/checkpoint.py): the grown network
    computes from the old entries what it computed, and its new inputs can learn."""
    net = trained_like(old, value_head)
    big = grown(net, new, obs_size=45)
    assert big.obs_size == 45
    rng = np.random.default_rng(2)
    obs = (rng.random((300, 45)) * (rng.random((300, 45)) < 0.3)).astype(np.float32)
    legal = rng.random((300, 12)) < 0.5
    legal[:, 0] = True
    with torch.no_grad():
        q, q2 = net(torch.from_numpy(obs)), big(torch.from_numpy(obs))  # net reads obs[:, :30]
    assert torch.allclose(q, q2, atol=1e-5) and q.abs().max() > 0.1
    assert (greedy_actions(obs, legal, *pack_weights(net.layer_arrays())) ==
            greedy_actions(obs, legal, *pack_weights(big.layer_arrays()))).all()
    loss = ((big(torch.from_numpy(obs)) - torch.randn(300, 12)) ** 2).mean()
    loss.backward()
    first = big.trunk_layers()[0] if new else big.actions
    assert first.weight.grad[:, 30:].abs().sum() > 0  # the new inputs' weights learn
    with pytest.raises(ValueError, match="does not grow"):
        grown(net, new, obs_size=20)
