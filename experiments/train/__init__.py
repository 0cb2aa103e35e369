"""``cardsim train``: neural agents trained by batched self-play.

- ``config``: the YAML training config and its validation;
- ``episodes``: decisions of the games in flight, emitted with Monte Carlo returns;
- ``dmc``, ``ppo``: the algorithms, one module each, with their arguments dataclass;
- ``loop``: the run directory, checkpoints, resume, metrics, evaluation and plots.
"""
