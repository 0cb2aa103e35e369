"""Rules studies: what a house rule changes, measured on the same deals under every variant.

A study varies one or more conventions of the rules file (``vary``: each convention with two
or more values) and plays every combination of them, a *variant*, on the same deals: deal
``i`` has the same cards under every variant (the cards are keyed by the seed and ``i``), and
the same agents sit in the same seats. Per deal and variant it reads the game's per-deal
measures (``cardsim.<game>.measures``: points per seat from the dealer or declarer, bid and
contract outcomes, how often each meld, bella, capot or double happens, the margin between the
top two sides) and, unless ``skill`` is off, the margin of a stronger over a weaker agent on
duplicate deals (``experiments.tournaments.tournament``'s seating patterns), each variant on the
same deals again.

Every difference between a variant and the baseline (the first value of every varied
convention) is paired by deal, so its 95% interval excludes the luck of the cards. Like a
tournament, a study keeps no per-deal values (unless ``per_deal``): per chunk of deals it
keeps, for every variant and measure, the count, sum and sum of squares of the values and of
their paired differences, as integers (each measure is a whole multiple of its own ``1 /
scale``), merged as exact rationals (``experiments.tournaments.stats.Moments``), so the result does
not depend on chunking, threads or resuming.

Deals are played one per item (hands mode): each Debertz deal is the first of a fresh game
(its dealer drawn), each Barbu deal a deal of a match with its declarer's earlier contracts
drawn (``cardsim.barbu.simulate_nb``). With ``games`` the items are whole games (Barbu:
matches) instead, paired by game, with the game-level measures (game length, wins by
position, final margins; the skill margin in games won).
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from cardsim import games
from cardsim.games import Game
from cardsim.errors import InvalidConfigError
from experiments.runs.limits import check_count
from experiments.tournaments.stats import Z95, Moments
from experiments.tournaments.tournament import unique_labels

FORMAT = "cardsim-study/1"
CHUNK = 1 << 15
DEFAULT_SKILL = ("heuristic", "random")
DEFAULT_AGENTS = ("heuristic",)
FIXED_BY_TABLE = ("players", "teams")  # they change the deal itself: one study per table


def parse_rule_values(game: Game, text: str) -> tuple[str, list]:
    """``NAME=V1,V2,...`` of the command line as (name, [values]), each value converted as
    ``--rule NAME=VALUE`` converts it and checked against what the convention allows (one-line
    errors naming the allowed values)."""
    cls = game.rules_cls
    if "=" not in text:
        raise InvalidConfigError(f"--rule {text!r} must look like NAME=VALUE or "
                                 f"NAME=V1,V2,...")
    name, values = text.split("=", 1)
    name = name.strip()
    parsed = [cls.parse_value(name, v) for v in values.split(",")]
    for v in parsed:
        check_value(game, name, v)
    return name, parsed


def check_value(game: Game, name: str, value) -> None:
    """An error naming the allowed values when ``value`` is not one of convention ``name``
    (``RulesBase.check_value``)."""
    game.rules_cls.check_value(name, value)


def _text(value) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _variant_labels(vary: dict, combos: list[tuple]) -> list[str]:
    return unique_labels([", ".join(f"{k}={_text(v)}" for k, v in zip(vary, combo))
                          for combo in combos], mark=" #")


@dataclass
class StudyTally:
    """The sufficient statistics of deals lo..hi-1: per variant and measure the sums and
    sums of squares of the values and of their differences from variant 0, in units of
    ``1 / scale`` of each measure (int64, exact)."""

    lo: int
    hi: int
    sums: np.ndarray       # (V, M)
    squares: np.ndarray    # (V, M)
    dsums: np.ndarray      # (V, M): variant v minus variant 0
    dsquares: np.ndarray   # (V, M)

    @classmethod
    def from_units(cls, lo: int, hi: int, units: np.ndarray) -> "StudyTally":
        """The tally of per-deal units ``(hi - lo, V, M)``."""
        d = units - units[:, :1, :]
        return cls(lo, hi, units.sum(axis=0), (units * units).sum(axis=0), d.sum(axis=0),
                   (d * d).sum(axis=0))

    def to_arrays(self) -> dict:
        """The arrays of a chunk file (``chunks/items-LO-HI.npz``), read back by
        ``from_arrays``."""
        return {"format": np.array(FORMAT), "lo": np.array(self.lo), "hi": np.array(self.hi),
                "sums": self.sums, "squares": self.squares, "dsums": self.dsums,
                "dsquares": self.dsquares}

    @classmethod
    def from_arrays(cls, z, shape: tuple[int, int]) -> "StudyTally":
        """A tally written by ``to_arrays`` for ``shape`` (variants, measures); ValueError
        when it is not one."""
        if "format" not in z or str(z["format"]) != FORMAT:
            raise ValueError("not a study tally")
        t = cls(int(z["lo"]), int(z["hi"]), z["sums"], z["squares"], z["dsums"], z["dsquares"])
        for x in (t.sums, t.squares, t.dsums, t.dsquares):
            if x.shape != shape or x.dtype.kind != "i":
                raise ValueError("inconsistent study tally")
        return t


class Study:
    """A study plan: base rules, the variants, the agents, the measures; played chunk by
    chunk (``play_chunk``), each chunk reduced to a ``StudyTally`` and merged (``add``)."""

    def __init__(self, game: str, rules: dict | None = None, vary: dict | None = None,
                 agents=None, skill=None, deals: int | None = 10_000, seed: int = 0,
                 games_count: int | None = None):
        from agents.registry import make_agent
        from experiments.runs.seating import seat_agents, seating_of
        from experiments.tournaments.tournament import seating_patterns

        self.game, self.seed = game, seed
        self.base = dict(rules or {})
        self.rules = base_rules = games.rules_of(game, self.base)
        g = self.kit = base_rules.game
        self.vary = {k: list(v) for k, v in (vary or {}).items()}
        if not self.vary:
            raise InvalidConfigError("a study varies at least one convention: give "
                                     "--rule NAME=V1,V2 (vary: {NAME: [V1, V2]} in a file)")
        for name, values in self.vary.items():
            if name in FIXED_BY_TABLE:
                raise InvalidConfigError(
                    f"a study compares the same deals, and {name!r} changes the deal itself; "
                    f"run one study per table (--players/--teams or rules: {{{name}: ...}})")
            if name in self.base:
                raise InvalidConfigError(f"rule {name!r} is both fixed and varied; give it "
                                         f"once")
            if not isinstance(values, list) or len(values) < 2:
                raise InvalidConfigError(f"varied rule {name!r} needs two or more values, "
                                         f"got {values!r}")
            for v in values:
                check_value(g, name, v)
        self.whole = games_count is not None
        self.unit = "games" if self.whole else "deals"
        self.items = check_count(self.unit, games_count if self.whole else deals, "study")
        combos = list(itertools.product(*self.vary.values()))
        self.variant_rules = [g.rules_cls.from_dict({**self.base, **dict(zip(self.vary, c))})
                              for c in combos]
        self.variant_values = [dict(zip(self.vary, c)) for c in combos]
        self.labels = _variant_labels(self.vary, combos)
        self.agent_specs = list(agents or DEFAULT_AGENTS)
        self.seatings = [seating_of(seat_agents(self.agent_specs, game, r))
                         for r in self.variant_rules]
        self.skill_specs = list(skill) if skill else None
        if self.skill_specs is not None:
            if len(self.skill_specs) != 2:
                raise InvalidConfigError(f"skill takes two agents, the stronger then the "
                                         f"weaker; got {len(self.skill_specs)}")
            self.skill_agents = [make_agent(s, game, base_rules) for s in self.skill_specs]
            self.patterns = seating_patterns(base_rules, 0, 1)
        specs = (g.measures.game_measure_specs if self.whole
                 else g.measures.measure_specs)(base_rules)
        self.measures = [{"name": n, "scale": s, "kind": k, "description": d}
                         for n, s, k, d in specs]
        if self.skill_specs is not None:
            from cardsim.table import agent_label
            from experiments.tournaments.tally import points_scale

            strong, weak = (agent_label(a) for a in self.skill_agents)
            # whole games: win shares (whole multiples of 1/scale, as points per deal are not)
            self.measures.append({
                "name": "skill_win_margin" if self.whole else "skill_margin",
                "scale": points_scale(self.patterns, 0, 1),
                "kind": "rate" if self.whole else "points",
                "description": f"{strong} minus {weak}: "
                               + ("win share of whole games" if self.whole
                                  else "points per deal")
                               + " on duplicate deals (seats rotated)"})
        self.scales = np.array([m["scale"] for m in self.measures], dtype=np.int64)
        V, M = len(self.labels), len(self.measures)
        self.moments = [[Moments() for _ in range(M)] for _ in range(V)]
        self.differences = [[Moments() for _ in range(M)] for _ in range(V)]
        self.n = 0

    @property
    def shape(self) -> tuple[int, int]:
        """(variants, measures): the shape of a chunk's sums."""
        return len(self.labels), len(self.measures)

    def chunks(self, chunk: int = CHUNK):
        """(lo, hi) of every chunk of items (deals or games), in order."""
        for lo in range(0, self.items, chunk):
            yield lo, min(self.items, lo + chunk)

    # --- play ----------------------------------------------------------------------------
    def play_chunk(self, lo: int, hi: int, n_threads: int = 1) -> np.ndarray:
        """Items (deals or games) lo..hi-1 under every variant: int64 units ``(hi - lo, V,
        M)`` of every measure (value x its scale)."""
        from cardsim.table import Seating, Table
        from experiments.tournaments import tally_nb

        g = self.kit
        n = hi - lo
        V, M = self.shape
        out = np.zeros((n, V, M), dtype=np.int64)
        for v, rules in enumerate(self.variant_rules):
            table = Table(g, rules)
            measure = g.measures.game_measures if self.whole else g.measures.deal_measures
            for k, S, stats in table.end_rows(self.seatings[v], self.seed, lo, n, self.whole,
                                              n_threads):
                m = measure(S, stats, rules)
                out[k:k + m.shape[0], v, :m.shape[1]] = m
            if self.skill_specs is not None:
                local = np.ascontiguousarray(self.patterns, dtype=np.int64)
                points, wins = table.duplicate(Seating(self.skill_agents, local), self.seed,
                                               lo, n, self.whole, n_threads=n_threads)[:2]
                points = wins if self.whole else points
                units = np.empty((n, 2), dtype=np.int64)
                scale = int(self.scales[-1])
                if not tally_nb.to_units(np.ascontiguousarray(points[:, :2]), scale, units):
                    raise RuntimeError("skill margin is not a whole multiple of 1/scale")
                out[:, v, -1] = units[:, 0] - units[:, 1]
        return out

    def tally(self, lo: int, hi: int, units: np.ndarray) -> StudyTally:
        """The sums of items lo..hi-1 from their units (``play_chunk``)."""
        return StudyTally.from_units(lo, hi, units)

    def add(self, t: StudyTally) -> None:
        """Merge a chunk's tally (chunks may come in any order, to the same result)."""
        V, M = self.shape
        n = t.hi - t.lo
        for v in range(V):
            for j in range(M):
                s = int(self.scales[j])
                self.moments[v][j] += Moments(n, _frac(t.sums[v, j], s),
                                              _frac(t.squares[v, j], s * s))
                self.differences[v][j] += Moments(n, _frac(t.dsums[v, j], s),
                                                  _frac(t.dsquares[v, j], s * s))
        self.n += n

    def values(self, units: np.ndarray) -> np.ndarray:
        """Per-deal units as values (float64, ``(n, V, M)``)."""
        return units / self.scales

    # --- results -------------------------------------------------------------------------
    def result(self) -> dict:
        """Per measure: each variant's mean, 95% half-width and standard deviation; each
        variant's paired difference from the baseline with its half-width, z and effect
        size (difference / the two variants' pooled standard deviation); the ranked table
        of differences and the text summary."""
        V, M = self.shape
        comparisons = max(1, (V - 1) * M)
        # Bonferroni: the level at which all comparisons of the study together keep 5%
        z_all = _normal_quantile(1 - 0.025 / comparisons)
        measures = []
        ranked = []
        for j, spec in enumerate(self.measures):
            per_variant = []
            for v in range(V):
                mom = self.moments[v][j]
                mean, half = mom.mean_ci()
                per_variant.append({"variant": self.labels[v], "mean": mean, "ci95": half,
                                    "sd": _sd(mom)})
            diffs = []
            for v in range(1, V):
                mom = self.differences[v][j]
                diff, half = mom.mean_ci()
                se = None if half is None else half / Z95
                z = None if not se else diff / se
                if se == 0 and diff == 0:
                    z = 0.0
                pooled = math.sqrt(((per_variant[0]["sd"] or 0) ** 2
                                    + (per_variant[v]["sd"] or 0) ** 2) / 2)
                effect = diff / pooled if pooled > 0 else (0.0 if diff == 0 else None)
                row = {"variant": self.labels[v], "baseline": self.labels[0],
                       "measure": spec["name"], "kind": spec["kind"],
                       "baseline_mean": per_variant[0]["mean"],
                       "variant_mean": per_variant[v]["mean"], "difference": diff,
                       "ci95": half, "z": z, "effect_size": effect,
                       "significant": half is not None and abs(diff) > half,
                       # no spread in the differences: exact, whatever the level
                       "significant_all": (abs(z) > z_all if z is not None
                                           else half == 0 and diff != 0)}
                diffs.append(row)
                ranked.append(row)
            measures.append({**spec, "variants": per_variant, "differences": diffs})
        ranked.sort(key=lambda r: (-(abs(r["effect_size"]) if r["effect_size"] is not None
                                     else math.inf), r["measure"], r["variant"]))
        out = {
            "kind": "study",
            "game": self.game,
            "rules": self.rules.to_dict(),
            "rules_hash": self.rules.rules_hash(),
            "vary": self.vary,
            "seed": self.seed,
            "unit": self.unit,
            "items": self.n,
            "agents": self.agent_specs,
            "skill": self.skill_specs,
            "baseline": self.labels[0],
            "variants": [{"variant": label, "rules": values, "rules_hash": r.rules_hash()}
                         for label, values, r in zip(self.labels, self.variant_values,
                                                     self.variant_rules)],
            "comparisons": (V - 1) * M,
            "z_all": z_all,
            "measures": measures,
            "ranked": ranked,
        }
        out["summary"] = summary_lines(out)
        return out


def _frac(x, scale: int) -> Fraction:
    return Fraction(int(x), int(scale))


def _sd(m: Moments) -> float | None:
    if m.n < 2:
        return None
    var = (m.squares - m.total * m.total / m.n) / (m.n - 1)
    return math.sqrt(max(float(var), 0.0))


def _normal_quantile(p: float) -> float:
    """The standard normal quantile (bisection on erf: no scipy needed)."""
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# ---------------------------------------------------------------------------------------------
# what a person reads
# ---------------------------------------------------------------------------------------------
def _fixed(x: float, decimals: int, sign: str = "") -> str:
    """``x`` with ``decimals`` decimals, or 2 significant digits when that would show 0."""
    if x != 0 and abs(x) < 0.5 * 10 ** -decimals:
        return f"{x:{sign}.2g}"
    return f"{x:{sign}.{decimals}f}"


def fmt_value(x, kind: str, signed: bool = False) -> str:
    """A mean or difference: rates in percent, points with two decimals, counts with three."""
    if x is None:
        return "-"
    sign = "+" if signed else ""
    if kind == "rate":
        return _fixed(100 * x, 2, sign) + "%"
    return _fixed(x, 2 if kind == "points" else 3, sign)


def fmt_half(x, kind: str) -> str:
    """The half-width of an interval, as ``fmt_value`` writes its value."""
    return "-" if x is None else fmt_value(x, kind)


def summary_lines(result: dict, top: int = 12) -> list[str]:
    """The significant differences in words, largest effect first (at most ``top``)."""
    rows = [r for r in result["ranked"] if r["significant"]]
    n = result["items"]
    if not rows:
        return [f"No measure differs significantly (95%) from the baseline "
                f"({result['baseline']}) over {n:,} {result.get('unit', 'deals')}."]
    lines = []
    for r in rows[:top]:
        k = r["kind"]
        strong = "" if r["significant_all"] else " (not after Bonferroni)"
        lines.append(f"{r['variant']}: {r['measure']} {fmt_value(r['baseline_mean'], k)} -> "
                     f"{fmt_value(r['variant_mean'], k)} "
                     f"({fmt_value(r['difference'], k, True)} ± {fmt_half(r['ci95'], k)}, "
                     f"effect {_effect(r['effect_size'])}){strong}")
    if len(rows) > top:
        lines.append(f"... and {len(rows) - top} more significant differences "
                     f"(effects.csv)")
    return lines


def _effect(x) -> str:
    # None: the measure does not vary within either variant, yet differs between them
    return "- (no spread)" if x is None else f"{x:+.3f} sd"


def format_table(result: dict, top: int = 25) -> str:
    """The study as text: variants, every measure's mean per variant, the ``top``
    differences ranked by effect size, and the summary."""
    labels = [v["variant"] for v in result["variants"]]
    head = (f"{result['game']} rules study, {result['items']:,} "
            f"{'whole ' if result.get('unit') == 'games' else ''}{result.get('unit', 'deals')}"
            f" per variant, seed "
            f"{result['seed']}, agents {' '.join(map(str, result['agents']))}"
            + (f", skill {' over '.join(map(str, result['skill']))}" if result["skill"]
               else "") + f", base rules {result['rules_hash']}")
    lines = [head, ""]
    for i, label in enumerate(labels):
        lines.append(f"  V{i}  {label}" + ("   (baseline)" if i == 0 else ""))
    lines.append("")
    width = max(len(m["name"]) for m in result["measures"]) + 2
    cell = 18
    lines.append(f"{'measure':<{width}}" + "".join(f"{f'V{i}':>{cell}}"
                                                   for i in range(len(labels))))
    for m in result["measures"]:
        k = m["kind"]
        cells = [f"{fmt_value(v['mean'], k)} ±{fmt_half(v['ci95'], k)}" for v in m["variants"]]
        lines.append(f"{m['name']:<{width}}" + "".join(f"{c:>{cell}}" for c in cells))
    lines.append("")
    lines.append(f"differences from V0, paired by {result.get('unit', 'deals')[:-1]}, ranked by effect size (difference "
                 f"/ pooled sd); * significant at 95%, ** also after Bonferroni over "
                 f"{result['comparisons']} comparisons")
    lines.append(f"  {'':<6}{'measure':<{width}}{'difference':>14}{'95% CI':>10}"
                 f"{'effect':>9}")
    index = {label: i for i, label in enumerate(labels)}
    shown = result["ranked"][:top]
    for r in shown:
        k = r["kind"]
        mark = "**" if r["significant_all"] else ("*" if r["significant"] else "")
        effect = "-" if r["effect_size"] is None else f"{r['effect_size']:+.3f}"
        lines.append(f"  V{index[r['variant']]:<5}{r['measure']:<{width}}"
                     f"{fmt_value(r['difference'], k, True):>14}{'±' + fmt_half(r['ci95'], k):>10}"
                     f"{effect:>9} {mark}".rstrip())
    if len(result["ranked"]) > top:
        lines.append(f"  ... {len(result['ranked']) - top} smaller effects in effects.csv")
    lines.append("")
    lines += result["summary"]
    return "\n".join(lines)


def study_plots(run_dir, result: dict) -> None:
    """``plots/<measure>.png``: each variant's mean with its 95% interval; ``plots/
    effects.png``: the largest effects with their intervals in sd units."""
    from pathlib import Path

    from experiments.runs.plots import pyplot, save_png

    plt = pyplot()
    folder = Path(run_dir) / "plots"
    folder.mkdir(exist_ok=True)
    labels = [f"V{i}" for i in range(len(result["variants"]))]
    legend = "\n".join(f"V{i}: {v['variant']}" for i, v in enumerate(result["variants"]))
    for m in result["measures"]:
        scale = 100.0 if m["kind"] == "rate" else 1.0
        unit = " (% of items)" if m["kind"] == "rate" else ""
        means = [(v["mean"] or 0.0) * scale for v in m["variants"]]
        halves = [(v["ci95"] or 0.0) * scale for v in m["variants"]]
        fig, (left, right) = plt.subplots(1, 2, figsize=(max(7.0, 1.6 * len(labels) + 4), 3.4))
        left.errorbar(labels, means, yerr=halves, fmt="o", capsize=5, color="#2a6f97")
        left.set_ylabel(m["name"] + unit)
        left.set_title("each variant (95% interval)", fontsize=9)
        left.margins(x=0.3)
        diffs = [0.0] + [(d["difference"] or 0.0) * scale for d in m["differences"]]
        dhalves = [0.0] + [(d["ci95"] or 0.0) * scale for d in m["differences"]]
        right.errorbar(labels, diffs, yerr=dhalves, fmt="o", capsize=5, color="#c0504d")
        right.axhline(0, color="grey", lw=0.8)
        right.set_title("difference from V0, paired by item (95%)", fontsize=9)
        right.margins(x=0.3)
        fig.suptitle(f"{result['game']}: {m['name']}", fontsize=10)
        right.text(1.04, 0.5, legend, transform=right.transAxes, fontsize=7, va="center")
        save_png(fig, folder / f"{m['name']}.png")
        plt.close(fig)
    rows = [r for r in result["ranked"] if r["effect_size"] is not None][:20][::-1]
    if rows:
        fig, ax = plt.subplots(figsize=(8, 0.3 * len(rows) + 1.5))
        index = {v["variant"]: i for i, v in enumerate(result["variants"])}
        names = [f"V{index[r['variant']]} {r['measure']}" for r in rows]
        effects = [r["effect_size"] for r in rows]
        errs = []
        for r in rows:  # the interval in sd units: same ratio as difference / effect
            ratio = (r["effect_size"] / r["difference"]) if r["difference"] else 0.0
            errs.append(abs((r["ci95"] or 0.0) * ratio))
        colors = ["#c0504d" if r["significant"] else "#999999" for r in rows]
        ax.barh(names, effects, xerr=errs, color=colors, capsize=3)
        ax.axvline(0, color="black", lw=0.8)
        ax.set_xlabel("effect size: difference from V0 / pooled sd (red: significant at 95%)")
        ax.set_title(f"{result['game']}: largest effects of the varied rules", fontsize=10)
        ax.tick_params(axis="y", labelsize=7)
        ax.text(1.02, 0.5, f"V0: {result['baseline']} (baseline)\n"
                + "\n".join(legend.split("\n")[1:]), transform=ax.transAxes, fontsize=7,
                va="center")
        save_png(fig, folder / "effects.png")
        plt.close(fig)


def effects_csv(result: dict) -> str:
    """``effects.csv``: every paired difference from the baseline, ranked by effect size."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["variant", "measure", "kind", "baseline_mean", "variant_mean", "difference",
                "ci95", "z", "effect_size", "significant", "significant_all"])
    for r in result["ranked"]:
        w.writerow([r["variant"], r["measure"], r["kind"], _cell(r["baseline_mean"]),
                    _cell(r["variant_mean"]), _cell(r["difference"]), _cell(r["ci95"]),
                    _cell(r["z"]), _cell(r["effect_size"]), r["significant"],
                    r["significant_all"]])
    return buf.getvalue()


def variants_csv(result: dict) -> str:
    """``results.csv``: every variant's mean, 95% half-width and standard deviation per
    measure."""
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["variant", "measure", "kind", "items", "mean", "ci95", "sd"])
    for m in result["measures"]:
        for v in m["variants"]:
            w.writerow([v["variant"], m["name"], m["kind"], result["items"], _cell(v["mean"]),
                        _cell(v["ci95"]), _cell(v["sd"])])
    return buf.getvalue()


def _cell(x) -> str:
    return "" if x is None else f"{x:.6g}"


def play_study_chunk(context, task, n_threads: int = 1):
    """What one chunk of a study sends back, wherever it is played (experiments.runs.executor):
    ``context`` is (study, per-deal values wanted), ``task`` (lo, hi). Returns the chunk's
    tally and its per-deal values ``(hi - lo, V, M)`` (or None)."""
    study, with_values = context
    lo, hi = task
    units = study.play_chunk(lo, hi, n_threads)
    return study.tally(lo, hi, units), (study.values(units) if with_values else None)
