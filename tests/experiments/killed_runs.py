"""A training command killed mid-run, as a real crash: SIGKILL once a file shows on disk."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def train_until_killed(argv, out: Path, kill_at: str, seconds: float, cwd=None) -> Path:
    """Runs ``cardsim train ARGV --out OUT`` in its own process and kills it (SIGKILL) once a
    file matching the glob ``kill_at`` is under ``out``; it must still be running then. The
    run's folder."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "train", *argv,
                             "--out", str(out)], env=env, cwd=cwd,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + seconds
    while time.time() < deadline and proc.poll() is None and not list(out.glob(kill_at)):
        time.sleep(0.02)
    assert proc.poll() is None, "the training ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return next(out.iterdir())
