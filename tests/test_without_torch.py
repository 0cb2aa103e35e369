"""torch is the ``neural`` extra: without it the engine, the heuristic and the search agents
work, and the neural agents and training say what to install instead of failing on an import
deep inside (cardsim.errors.need_torch)."""

import subprocess
import sys

# torch made unimportable, as on an install without the neural extra
SCRIPT = """
import sys
sys.modules["torch"] = None
from cardsim.errors import MissingDependencyError
from agents.registry import describe_agents, make_agent
from experiments.cli import main

listing = describe_agents("debertz")
assert "heuristic:" in listing and "neural: not available: neural agents need torch" in listing
try:
    make_agent("neural:checkpoint=debertz-2p", "debertz")
except MissingDependencyError as e:
    assert "pip install 'cardsim[neural]'" in str(e), e
else:
    raise AssertionError("no error without torch")
try:
    import experiments.train.loop
except MissingDependencyError as e:
    assert "training and neural agents need torch" in str(e), e
else:
    raise AssertionError("no error without torch")
try:
    main(["train", "configs/train/debertz_2p_dmc.yaml"])
except SystemExit as e:
    assert e.code not in (0, None)
print("ok")
"""


def test_neural_agents_and_training_name_the_missing_extra():
    res = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, res.stderr[-3000:]
    assert res.stdout.strip().endswith("ok")
    assert "cardsim[neural]" in res.stderr  # the command line printed the error
