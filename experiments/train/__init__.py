"""``cardsim train``: neural agents trained by batched self-play.

- ``config``: the YAML training config and its validation;
- ``overrides``: ``--set KEY=VALUE`` and ``--scale F`` over a config or a recipe's stages;
- ``recipe``: a recipe file (the ordered stages that make a network), resolved;
- ``recipe_run``: a recipe trained into one run directory, stage after stage, resumable;
- ``gates``: how a stage's end is judged (gates, early stopping);
- ``card``: the model card of a trained network (for the zoo and for a recipe's run);
- ``episodes``: decisions of the games in flight, emitted with Monte Carlo returns;
- ``dmc``, ``ppo``, ``distill``, ``beliefs``: the algorithms, one module each;
- ``loop``: the run directory, checkpoints, resume, metrics, evaluation and plots.

torch is imported by the modules that train (``loop`` says what to install where it is
missing), not by this package: reading and checking a config or a recipe, and the line
that says what will run, come before torch's seconds of loading.
"""

import os

# Torch's OpenMP threads spin while waiting by default: on a shared machine a spinning thread
# that loses its core stalls every forward (measured 3-5x slower on 2 busy cores). Passive
# waiting costs little when cores are free. It must be set before torch loads OpenMP; an
# explicit user setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
