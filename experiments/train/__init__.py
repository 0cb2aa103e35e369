"""``cardsim train``: neural agents trained by batched self-play.

- ``config``: the YAML training config and its validation;
- ``episodes``: decisions of the games in flight, emitted with Monte Carlo returns;
- ``dmc``, ``ppo``: the algorithms, one module each, with their arguments dataclass;
- ``loop``: the run directory, checkpoints, resume, metrics, evaluation and plots.
"""

import os

# Torch's OpenMP threads spin while waiting by default: on a shared machine a spinning thread
# that loses its core stalls every forward (measured 3-5x slower on 2 busy cores). Passive
# waiting costs little when cores are free. It must be set before torch loads OpenMP; an
# explicit user setting wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from cardsim.errors import need_torch  # noqa: E402

need_torch("training and neural agents")  # a clear error where torch is missing

