"""What the command line calls for Barbu: ``summarize``, the summary dict of a simulation's
statistics (the engine's benchmark: cardsim.engine_bench).

Results are identical for any thread count: every item is fixed by (seed, item) and the
statistics are integer sums (simulate_nb).
"""

from __future__ import annotations

import numpy as np

from cardsim.barbu import actions as A
from cardsim.barbu import simulate_nb as S
from cardsim.barbu.rules import BarbuRules


def summarize(stats: np.ndarray, rules: BarbuRules, seed: int, whole: bool,
              seconds: float) -> dict:
    """The summary dict of a statistics array (columns simulate_nb.S_*)."""
    st = [int(x) for x in stats]
    deals = st[S.S_DEALS]
    contracts = {}
    for c, name in enumerate(A.CONTRACT_NAMES):
        n = st[S.S_COUNT + c]
        contracts[name] = {
            "deals": n,
            # the declarer's mean (all four seats together always total CONTRACT_TOTALS, B8)
            "mean_contract_score": st[S.S_DECL_CS + c] / n if n else None,
            "mean_deal_score": st[S.S_DECL_DS + c] / n if n else None,
            "mean_tricks": st[S.S_TRICKS + c] / n if n else None,
            "doubled_pairs_per_deal": st[S.S_PAIRS_BET + c] / n if n else None,
        }
    pairs = 6 * deals
    doubled = st[S.S_PAIRS_DOUBLED]
    redoubled = st[S.S_PAIRS_REDOUBLED]
    out = {
        "game": "barbu",
        "mode": "games" if whole else "hands",
        "seed": seed,
        "rules": rules.to_dict(),
        "rules_hash": rules.rules_hash(),
        "deals": deals,
        "matches": st[S.S_MATCHES],
        "decisions": st[S.S_DECISIONS],
        "seconds": seconds,
        "deals_per_s": deals / seconds if seconds > 0 else None,
        "contracts": contracts,
        "doubling": {
            "pairs_doubled": doubled,            # left at double
            "pairs_redoubled": redoubled,
            "doubled_frequency": (doubled + redoubled) / pairs if pairs else None,
            "redoubled_frequency": redoubled / pairs if pairs else None,
            "bets_per_deal": (doubled + redoubled) / deals if deals else None,
        },
        "invariant_violations": st[S.S_BAD],     # B8 totals broken (0 unless a bug)
    }
    m = st[S.S_MATCHES]
    if whole:  # hands mode plays no whole match: no match results at all
        out["match_results"] = {
            "matches": m,
            "wins_per_seat": st[S.S_WINS:S.S_WINS + 4],
            "win_rate_per_seat": [w / m if m else None for w in st[S.S_WINS:S.S_WINS + 4]],
            "shared_wins": st[S.S_SHARED_WINS],
            "mean_final_score_per_seat": [x / m if m else None
                                          for x in st[S.S_FINAL:S.S_FINAL + 4]],
        }
    return out


