"""How a training stage's end is judged: early stopping (``patience``) and a recipe's gates.

Early stopping. A run with ``patience: N`` stops once N evaluations in a row have not beaten
the best difference so far against the first of its ``eval_opponents``. The metrics row of
the evaluation that stops it says why (``early_stop``); that row is in the checkpoint, so a
resumed run stops at the same iteration, and the stage's network is the one it stopped with.

Gates. A recipe's stage may end with a gate, judged on duplicate deals (the same cards, seats
rotated) of the stage's final evaluation: its ``eval_deals`` and seed:

    gate: {opponent: heuristic, not_worse_than: previous, margin: 2}
        the stage's network and the previous stage's, each against ``opponent`` on the same
        deals; per deal the change of the difference, with its paired 95% interval. Fails
        when that interval lies wholly below -margin points per deal (default margin 0).
    gate: {opponent: heuristic, at_least: 5}
        the stage's final evaluation against ``opponent``: fails when its 95% interval lies
        wholly below 5 points per deal.

A gate fails only on evidence: an interval that still reaches the bound passes, so the
evaluation's deals decide how small a loss a gate can see.
"""

from __future__ import annotations

import math

import numpy as np

from cardsim.errors import CardsimError, InvalidConfigError
from experiments.runs.schema import check_known

GATE_KEYS = ("opponent", "not_worse_than", "margin", "at_least")
GATE_KINDS = ("not_worse_than", "at_least")


class GateFailed(CardsimError):
    """A recipe's stage failed its gate: the message names the stage and the figures."""


# --- early stopping ---------------------------------------------------------------------------
def early_stop(metrics: list[dict], patience: int, opponent: str) -> str | None:
    """Why a run stops now: after ``patience`` evaluations in ``metrics`` (rows with
    ``eval``), the last ones, that did not beat the best difference before them against
    ``opponent``; None to go on (``patience`` 0: never stop early)."""
    if patience <= 0:
        return None
    best, best_at, since = -math.inf, None, 0
    for row in metrics:
        e = (row.get("eval") or {}).get(opponent)
        if e is None:
            continue
        d = e.get("difference")
        if d is not None and d > best:
            best, best_at, since = d, row["iteration"], 0
        else:
            since += 1
    if best_at is None or since < patience:
        return None
    return (f"stopped early at iteration {metrics[-1]['iteration']}: {since} evaluations "
            f"against {opponent} did not beat {best:+.2f} points per deal (iteration "
            f"{best_at}; patience {patience})")


# --- gates: checked before a recipe starts ----------------------------------------------------
def check_gate(gate, where: str, first: bool) -> dict | None:
    """``gate`` of a recipe stage as written, checked (``where`` names the stage; ``first``:
    it is the recipe's first stage, which has no previous one); the gate with its defaults
    filled in, or None. Raises ``InvalidConfigError`` naming the key and what is allowed."""
    if gate is None:
        return None
    if not isinstance(gate, dict):
        raise InvalidConfigError(f"{where}: 'gate' must be a mapping such as {{opponent: "
                                 f"heuristic, not_worse_than: previous}}, got {gate!r}")
    check_known(gate, GATE_KEYS, "gate key", where)
    kinds = [k for k in GATE_KINDS if k in gate]
    if len(kinds) != 1:
        raise InvalidConfigError(f"{where}: a gate has exactly one of {', '.join(GATE_KINDS)}; "
                                 f"got {', '.join(kinds) or 'neither'}")
    if not isinstance(gate.get("opponent"), str) or not gate["opponent"]:
        raise InvalidConfigError(f"{where}: a gate names its 'opponent', one of the stage's "
                                 f"eval_opponents (e.g. heuristic)")
    out = {"opponent": gate["opponent"]}
    if kinds == ["not_worse_than"]:
        if gate["not_worse_than"] != "previous":
            raise InvalidConfigError(f"{where}: gate key 'not_worse_than' has invalid value "
                                     f"{gate['not_worse_than']!r}; allowed: previous")
        if first:
            raise InvalidConfigError(f"{where}: the first stage has no previous stage to be "
                                     f"compared with (allowed there: at_least)")
        out.update(not_worse_than="previous", margin=_points(gate.get("margin", 0), "margin",
                                                             where, low=0))
    else:
        if "margin" in gate:
            raise InvalidConfigError(f"{where}: gate key 'margin' goes with not_worse_than")
        out["at_least"] = _points(gate["at_least"], "at_least", where)
    return out


def _points(value, key: str, where: str, low: float = -math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            low <= value < math.inf):
        allowed = "a number of points >= 0" if low == 0 else "a number of points per deal"
        raise InvalidConfigError(f"{where}: gate key {key!r} has invalid value {value!r}; "
                                 f"allowed: {allowed}")
    return float(value)


def check_gate_stages(gate: dict | None, cfg, previous, where: str) -> None:
    """Refuse a gate that the stage's config (``cfg``, a ``TrainConfig``) and the previous
    stage's (``previous``) cannot judge: an opponent outside its eval_opponents, or a
    comparison with a network of another game or rules, or one that does not play."""
    if gate is None:
        return
    if gate["opponent"] not in cfg.eval_opponents:
        allowed = ", ".join(map(str, cfg.eval_opponents)) or "none (eval_opponents is empty)"
        raise InvalidConfigError(f"{where}: the gate's opponent {gate['opponent']!r} is not "
                                 f"among the stage's eval_opponents; allowed: {allowed}")
    if "not_worse_than" in gate:
        if previous.algorithm == "beliefs":
            raise InvalidConfigError(f"{where}: the previous stage trains a belief network, "
                                     f"which does not play: it cannot be compared")
        if (previous.game, previous.make_rules().rules_hash()) != (
                cfg.game, cfg.make_rules().rules_hash()):
            raise InvalidConfigError(f"{where}: the previous stage plays another game or "
                                     f"rules: it cannot be compared on the same deals")


# --- gates: judged at a stage's end -------------------------------------------------------------
def judge_gate(gate: dict, stage: str, evaluation: dict, compare=None) -> dict:
    """The gate's verdict on a finished stage: ``{"passed", "text", ...figures}``.
    ``stage`` names it in the text; ``evaluation`` is its final evaluation (per opponent:
    difference, ci95); ``compare()`` (``not_worse_than``) plays the previous stage's network
    on the same deals and returns ``paired_change``'s figures."""
    opponent = gate["opponent"]
    if "at_least" in gate:
        e = evaluation[opponent]
        d, h = e["difference"], e["ci95"]
        upper = d + (h or 0.0)
        passed = upper >= gate["at_least"]
        text = (f"{stage} against {opponent}: {d:+.2f} points per deal (95% interval "
                f"+-{_half(h)}), {'not ' if passed else ''}below the gate's at_least "
                f"{gate['at_least']:+.2f}")
        return {**gate, "passed": passed, "difference": d, "ci95": h, "text": text}
    figures = compare()
    upper = figures["change"] + (figures["ci95"] or 0.0)
    passed = upper >= -gate["margin"]
    text = (f"{stage} against {opponent}: {figures['current']:+.2f} points per deal, the "
            f"previous stage {figures['previous']:+.2f} on the same {figures['deals']:,} "
            f"deals: a change of {figures['change']:+.2f} (paired 95% interval "
            f"+-{_half(figures['ci95'])}), {'within' if passed else 'worse than'} the gate's "
            f"margin of {gate['margin']:.2f}")
    return {**gate, "passed": passed, **figures, "text": text}


def _half(h) -> str:
    return "n/a" if h is None else f"{h:.2f}"


def paired_change(game: str, rules, current, previous, opponent: str, deals: int, seed: int,
                  threads: int = 1) -> dict:
    """The networks ``current`` and ``previous`` (``ActionHeadNet``) each against the agent
    ``opponent`` on the same duplicate deals (``deals`` from ``seed``, as the stage's
    evaluation plays them): each one's mean difference, and per deal the change of the
    difference, its mean and paired 95% interval (None for a single deal)."""
    from agents.neural.agent import NeuralAgent
    from experiments.tournaments.stats import mean_ci
    from experiments.tournaments.tournament import Tournament

    agents = [NeuralAgent(game, net=current, label="stage"),
              NeuralAgent(game, net=previous, label="previous stage"), opponent]
    t = Tournament(game, rules, agents, deals=deals, seed=seed)
    # pairings in order (0, 1), (0, 2), (1, 2): each network against the opponent, item by
    # item on the same deals (the deals are keyed by the seed and the item)
    diffs = []
    for k in (1, 2):
        parts = [t.play_chunk(kk, lo, hi, n_threads=threads)[0]
                 for kk, lo, hi in t.chunks() if kk == k]
        points = np.concatenate(parts)
        diffs.append(points[:, 0] - points[:, 1])
    change, half = mean_ci(diffs[0] - diffs[1])
    return {"current": float(diffs[0].mean()), "previous": float(diffs[1].mean()),
            "change": change, "ci95": None if math.isnan(half) else half, "deals": deals}
