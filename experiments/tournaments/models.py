"""``cardsim models [NAME] [--json]``: the model zoo and its cards (``agents.neural.zoo``).

Without a name, one line per network (name, table, kind, what it is for); with a name, its
whole card: how it was trained (each stage of its recipe, with decisions and hours), how it
scores (its ladder's figures: ``evaluation``), its sha256 and the spec that seats it.
"""

from __future__ import annotations

import json

from agents.neural.zoo import card, model_names, retired
from experiments.tournaments.leaderboard import fmt_diff, fmt_us


def describe_models() -> str:
    """One line per zoo network, then where the retired names went."""
    rows = [card(n) for n in model_names()]
    width = max(len(c["name"]) for c in rows)
    lines = [f"{c['name']:{width}s}  {c['table']:12s} {c['kind']:8s} {c['summary']}"
             for c in rows]
    lines.append(f"\n{len(rows)} networks; `cardsim models NAME` shows a card. Seat one as "
                 f"neural:checkpoint=NAME (a belief network as pimc:beliefs=NAME). "
                 f"{len(retired())} earlier names are retired: each says what replaces it.")
    return "\n".join(lines)


def describe_card(name: str) -> str:
    """A model card as text."""
    c = card(name)
    seat = (f"pimc:beliefs={name}" if c["kind"] == "beliefs" else f"neural:checkpoint={name}")
    own = ",".join(f"{k}={v}" for k, v in c["options"].items())
    t = c["training"]
    lines = [f"{c['name']}: {c['summary']}",
             f"  seat it as     {seat}" + (f"  (its own options: {own})" if own else ""),
             f"  game, table    {c['game']}, {c['table']} (rules hash {c['rules_hash']})",
             f"  network        {c['network']['obs_size']} inputs, hidden "
             f"{c['network']['hidden']}, {c['network']['num_actions']} outputs; "
             f"{c['algorithm']}",
             f"  weights        {c['weights']} ({c['bytes'] / 1e6:.2f} MB), sha256 {c['sha256']}",
             f"  trained        {t['stages']} stages, {t['decisions']:,} decisions "
             f"({t['labelled']:,} labelled), {t['seconds'] / 3600:.1f} hours on a "
             f"{t['machine']}",
             "  recipe (its training stages in order, each from the network of the one "
             "before; the first from nothing):"]
    for i, s in enumerate(c["recipe"]["stages"], 1):
        lines.append(f"    {i}. {s['config']}  ({s['name']}: {s['algorithm']}, "
                     f"{s['iterations']} iterations, {s['decisions'] or 0:,} decisions, "
                     f"{s['seconds'] / 60:.0f} min)")
    e = c.get("evaluation")
    if e:
        lines.append(f"  evaluation     as {e['as']}, {e['deals']:,} duplicate deals a pairing, "
                     f"seed {e['seed']}, {e['date']} ({e['ladder']}):")
        for other, d in e["against"].items():
            lines.append(f"    − {other}: {fmt_diff(d)} points a deal")
        lines.append(f"    {fmt_us(e['us_per_decision'])} µs a decision on one core, a batch "
                     f"of games a call" + (f" ({fmt_us(e['us_one_call'])} for one position a "
                                           f"call)" if e.get("us_one_call") else ""))
    else:
        lines.append("  evaluation     not in a ladder (it plays inside another network's "
                     "card)" if _inside_another(name) else "  evaluation     not measured yet")
    if c["formerly"]:
        lines.append(f"  formerly       {', '.join(c['formerly'])}")
    return "\n".join(lines)


def _inside_another(name: str) -> list[str]:
    return [n for n in model_names() if n != name and name in map(str, card(n)["options"]
                                                                   .values())]


def main(args) -> int:
    """``cardsim models``: the zoo, or one card (``--json``: as data); the exit status."""
    if args.name:
        print(json.dumps(card(args.name), indent=1) if args.json else describe_card(args.name))
    elif args.json:
        print(json.dumps([card(n) for n in model_names()], indent=1))
    else:
        print(describe_models())
    return 0
