"""What a training run or a recipe will do, said before it starts: the stages, their budgets
(iterations x games x steps, evaluations, gates) and where it writes. Made from the parsed
YAML with the overrides applied, before torch loads and every stage is checked, so that the
first lines appear within a second or two of the command. A value the check will refuse
later is shown as written.
"""

from __future__ import annotations

from experiments.train.overrides import config_default


def _value(body: dict, key: str):
    if key in body:
        return body[key]
    if key == "eval_opponents":
        from experiments.train.config import TrainConfig

        return TrainConfig("", "", "").eval_opponents
    return config_default(key)


def _count(value) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return repr(value)


def _many(value, noun: str) -> str:
    """``value`` and ``noun``, plural unless it is one: "1 iteration", "3 iterations"."""
    return f"{_count(value)} {noun}{'' if value == 1 else 's'}"


def decisions_budget(body: dict) -> int | None:
    """Self-play decisions a stage plays when it runs all its iterations (None where a
    budget is not a whole number)."""
    parts = [_value(body, k) for k in ("num_games", "steps_per_iteration", "iterations")]
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in parts):
        return None
    return parts[0] * parts[1] * parts[2]


def budget_text(body: dict) -> str:
    """A stage's budget in words: iterations x games x steps, and its evaluations."""
    text = (f"{body.get('algorithm', '?')}, {_many(_value(body, 'iterations'), 'iteration')} x "
            f"{_many(_value(body, 'num_games'), 'game')} x "
            f"{_many(_value(body, 'steps_per_iteration'), 'step')}")
    opponents = _value(body, "eval_opponents")
    if isinstance(opponents, str):
        opponents = [opponents]
    if opponents and _value(body, "eval_every"):
        text += (f", evaluated every {_many(_value(body, 'eval_every'), 'iteration')} "
                 f"({_many(_value(body, 'eval_deals'), 'deal')} against "
                 f"{', '.join(map(str, opponents))})")
    elif opponents:
        text += f", evaluated at the end ({_many(_value(body, 'eval_deals'), 'deal')})"
    if body.get("patience"):
        text += f", patience {body['patience']}"
    return text


def config_plan_line(body: dict, out_parent: str) -> str:
    """The line for a training config (``body``: its keys, the overrides applied)."""
    name = body.get("name", "?")
    return (f"training {name} ({body.get('game', '?')}): {budget_text(body)}; up to "
            f"{_count(decisions_budget(body))} self-play decisions; writing "
            f"{out_parent}/{name}-<time>/")


def plan_lines(resolved: dict, writes: str) -> list[str]:
    """What a recipe's run will do (``resolved``: ``experiments.train.recipe``'s), before it
    starts: a line for the whole (stages, iterations, decisions, overrides, where it
    writes), then one per stage."""
    stages = resolved["stages"]
    budgets = [decisions_budget(s["body"]) for s in stages]
    iterations = [_value(s["body"], "iterations") for s in stages]
    total = sum(budgets) if None not in budgets else None
    its = sum(iterations) if all(isinstance(i, int) for i in iterations) else None
    asked = []
    if resolved["scale"] != 1:
        asked.append(f"--scale {resolved['scale']}")
    asked += [f"--set {t}" for t in resolved["sets"]]
    lines = [f"recipe {resolved['name']} (network {resolved['network']}): {len(stages)} "
             f"stages, {_many(its, 'iteration')}, up to {_count(total)} self-play decisions"
             + (f"; {' '.join(asked)}" if asked else "") + f"; writing {writes}"]
    width = max(len(s["folder"]) for s in stages) - len("stages/")
    for s in stages:
        line = f"  {s['folder'][len('stages/'):]:<{width}}  {budget_text(s['body'])}"
        if s.get("gate"):
            line += f"; gate: {gate_words(s['gate'])}"
        lines.append(line)
    return lines


def gate_words(gate: dict) -> str:
    """A gate (checked: ``experiments.train.gates.check_gate``'s) in words."""
    if "at_least" in gate:
        return f"at least {gate['at_least']:+g} points per deal against {gate['opponent']}"
    return (f"not worse than the previous stage against {gate['opponent']} (margin "
            f"{gate['margin']:g})")
