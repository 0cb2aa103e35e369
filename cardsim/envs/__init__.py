"""Training environments (docs/architecture.md, environments).

- ``cardsim/Debertz-v0``, ``cardsim/Barbu-v0``: Gymnasium environments for one learning seat
  against opponent policies (``DebertzEnv``, ``BarbuEnv``; registered here, so
  ``gymnasium.make("cardsim/Debertz-v0", players=3)`` works once ``cardsim.envs`` is imported).
- ``aec.DebertzAECEnv``, ``aec.BarbuAECEnv``: PettingZoo AEC environments for all seats
  (``pettingzoo`` is an optional dependency: the ``rl`` extra).
- ``selfplay.SelfPlayBatch``: N games stepped together in compiled code, every seat acting;
  ``selfplay.SelfPlayVectorEnv``: a Gymnasium ``VectorEnv`` on it with an explicit autoreset
  mode.
- ``wrappers.IllegalActionPenalty``: an illegal action ends the episode with a penalty.

Submodules are imported lazily: importing this package only registers the environments.
"""

from gymnasium.envs.registration import register, registry

for _name, _entry in (("cardsim/Debertz-v0", "cardsim.envs.debertz_env:DebertzEnv"),
                      ("cardsim/Barbu-v0", "cardsim.envs.barbu_env:BarbuEnv")):
    if _name not in registry:
        register(id=_name, entry_point=_entry, disable_env_checker=True)


def __getattr__(name):
    if name == "DebertzEnv":
        from cardsim.envs.debertz_env import DebertzEnv
        return DebertzEnv
    if name == "BarbuEnv":
        from cardsim.envs.barbu_env import BarbuEnv
        return BarbuEnv
    if name == "IllegalActionPenalty":
        from cardsim.envs.wrappers import IllegalActionPenalty
        return IllegalActionPenalty
    if name in ("SelfPlayBatch", "SelfPlayVectorEnv"):
        from cardsim.envs import selfplay
        return getattr(selfplay, name)
    if name in ("DebertzAECEnv", "BarbuAECEnv"):
        from cardsim.envs import aec
        return getattr(aec, name)
    raise AttributeError(f"module 'cardsim.envs' has no attribute {name!r}")


__all__ = ["DebertzEnv", "BarbuEnv", "IllegalActionPenalty", "SelfPlayBatch",
           "SelfPlayVectorEnv", "DebertzAECEnv", "BarbuAECEnv"]
