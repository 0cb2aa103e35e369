"""Reading a training run's metrics in tests."""

import json

# differ between equal runs (compile_s: on the first iteration a process plays)
TIMINGS = ("seconds", "total_seconds", "decisions_per_s", "compile_s")


def metrics_without_timings(run_dir):
    """The lines of ``run_dir``'s metrics.jsonl, less their timings."""
    out = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    for m in out:
        for k in TIMINGS:
            m.pop(k, None)
    return out
