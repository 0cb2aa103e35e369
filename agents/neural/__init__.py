"""Neural agents: torch networks over the observer's vectors, their checkpoints, and the
``neural`` agent that plays a checkpoint at the table."""

import os

# Torch's OpenMP threads spin while waiting by default: on a shared machine a spinning thread
# that loses its core stalls every forward (measured 3-5x slower on 2 busy cores). Passive
# waiting costs little when cores are free. It must be set before torch loads OpenMP; an
# explicit user setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from cardsim.errors import need_torch  # noqa: E402

need_torch("neural agents")  # a clear error, not torch's ImportError, where it is missing

from agents.neural.agent import NeuralAgent
from agents.neural.checkpoint import checkpoint_bytes, load_checkpoint, observation_spec_hash
from agents.neural.network import ActionHeadNet

__all__ = ["ActionHeadNet", "NeuralAgent", "checkpoint_bytes", "load_checkpoint",
           "observation_spec_hash"]
