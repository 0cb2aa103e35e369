"""Values of every legal action at one position, for the browser table's analysis.

- ``solver``: the open-hand solver (every hand visible) on the actual deal: each legal
  card's value for the seat to act under perfect play from here (cardsim.solve_nb, through
  the ``pimc`` agent's pieces, as training labels them: experiments.train.labels_nb).
  Card play only; other decisions get no value.
- ``pimc``: what ``pimc`` computes from what the seat knows: the mean solver value of each
  card over ``samples`` deals drawn consistent with the seat's knowledge, and for the other
  decisions (bids, the seven swap, contracts, doubles) the mean result of heuristic
  play-outs of each option on as many drawn deals.
- ``network``: a neural checkpoint's outputs (Q values or logits) for the legal actions
  of the seat's observation.

Values are for the seat to act, in the game's points (Debertz: its side's points less the
others' over the rest of the round; Barbu: the solver's measure of the seat's result).
"""

from __future__ import annotations

import numpy as np

from cardsim.errors import InvalidConfigError

METHODS = ("solver", "pimc", "network")
MAX_SAMPLES = 64


def _legal(kit, st, R) -> list[int]:
    from cardsim import game_nb

    if game_nb.deal_over(kit.tag, st):
        return []
    base, bits = game_nb.legal(kit.tag, st, R)
    bits = int(bits)
    return [int(base) + k for k in range(bits.bit_length()) if bits >> k & 1]


def analyse(game: str, rules, st: np.ndarray, method: str, samples: int = 8,
            checkpoint: str | None = None, seed: int = 0, agents: dict | None = None) -> dict:
    """Values of the legal actions at state row ``st`` by ``method`` (``METHODS``).

    Returns ``{"method", "seat", "values": {action name: value or None}, "best": name or
    None, "note"}``. ``agents`` caches the agents made (a ``pimc`` for its parameter row, a
    network per checkpoint)."""
    from agents.registry import make_agent
    from experiments.train.labels_nb import solver_labels

    kit = rules.game
    if method not in METHODS:
        raise InvalidConfigError(f"unknown analysis {method!r}; choose {', '.join(METHODS)}")
    if type(samples) is not int or not 1 <= samples <= MAX_SAMPLES:
        raise InvalidConfigError(f"samples must be an integer 1..{MAX_SAMPLES}, got "
                                 f"{samples!r}")
    agents = {} if agents is None else agents
    R = rules.pack()
    legal = _legal(kit, st, R)
    seat = int(kit.turn(st)) if legal else -1
    values: dict[str, float | None] = {kit.action_name(a): None for a in legal}
    note = ""
    if len(legal) >= 1:
        states = st.reshape(1, -1).copy()
        if method in ("solver", "pimc"):
            key = (game, "pimc", samples)
            if key not in agents:
                agents[key] = make_agent(f"pimc:samples={samples}", game)
            params = agents[key].params
            rng = np.array([np.random.default_rng(seed).integers(1, 2**63)], dtype=np.uint64)
            if len(legal) == 1:
                note = "one legal action"
            else:
                k = 0 if method == "solver" else samples
                labels = solver_labels(kit.tag, states, R, np.array([0]), params, k, 1.0,
                                       rng, kit.num_actions, 0 if method == "solver" else
                                       samples)[0]
                for a in legal:
                    if not np.isnan(labels[a]):
                        values[kit.action_name(a)] = round(float(labels[a]), 2)
                if method == "solver" and all(v is None for v in values.values()):
                    note = "the open-hand solver values card play only"
        else:
            if not checkpoint:
                raise InvalidConfigError("network values need a checkpoint (a model zoo name "
                                         "such as debertz-2p, a checkpoint file or a run "
                                         "directory)")
            key = (game, "neural", checkpoint)
            if key not in agents:
                agents[key] = make_agent({"name": "neural", "checkpoint": checkpoint}, game)
            agent = agents[key]
            agent.check_rules(rules)
            import torch

            obs = np.zeros((1, kit.obs_size), dtype=np.float32)
            kit.observer.observe(st, R, seat, obs[0])
            with torch.no_grad():
                out = agent.net(torch.as_tensor(obs)).cpu().numpy()[0]
            for a in legal:
                values[kit.action_name(a)] = round(float(out[a]), 3)
    scored = {k: v for k, v in values.items() if v is not None}
    best = max(scored, key=scored.get) if scored else None
    return {"method": method, "seat": seat, "values": values, "best": best, "note": note}
