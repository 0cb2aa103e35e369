"""A toy target for the learners: random states whose action values are linear in the state."""

import numpy as np
import torch

from agents.neural import ActionHeadNet


def learn_linear_action_values(make_learner, make_samples):
    """300 batches of 512 random states (20 features, 5 actions) whose action values are
    Q(s, a) = s . w_a, each made into Samples by ``make_samples(rng, obs, q)`` and learnt by
    ``make_learner(net)`` on a fresh network; the network, the losses, and the last batch's
    states and action values."""
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    net = ActionHeadNet(20, 5, (64,))
    learner = make_learner(net)
    w = rng.normal(size=(20, 5)).astype(np.float32)
    losses = []
    for _ in range(300):
        obs = rng.random((512, 20), dtype=np.float32)
        q = obs @ w
        losses.append(learner.learn(make_samples(rng, obs, q)))
    return net, losses, obs, q
