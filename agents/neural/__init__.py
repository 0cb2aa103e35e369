"""Neural agents: torch networks over the observer's vectors, their checkpoints, and the
``neural`` agent that plays a checkpoint at the table."""

from agents.neural.agent import NeuralAgent
from agents.neural.checkpoint import checkpoint_bytes, load_checkpoint, observation_spec_hash
from agents.neural.network import ActionHeadNet

__all__ = ["ActionHeadNet", "NeuralAgent", "checkpoint_bytes", "load_checkpoint",
           "observation_spec_hash"]
