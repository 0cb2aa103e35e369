"""Known answers for Domino (B5)."""

from barbu_deals import SUIT_PER_SEAT, deal_of, new_game, no_doubles


def start(hands, rank="7", declarer=0):
    g = new_game(deal_of(*hands), declarer)
    g.step("domino")
    assert g.legal_action_names() == ["start_" + r for r in "23456789TJQKA"]  # any rank
    g.step("start_" + rank)
    no_doubles(g)
    return g


def test_openings_extensions_and_out_order():
    g = start(SUIT_PER_SEAT)
    assert g.turn() == 0 and g.legal_action_names() == ["7S"]   # only the starting rank opens
    g.step("7S")
    assert g.legal_action_names() == ["7H"]
    g.step("7H")
    g.step("7D")
    g.step("7C")
    assert g.legal_action_names() == ["6S", "8S"]             # one below or one above
    g.step("6S")
    assert g.legal_action_names() == ["6H", "8H"]
    g.step("8H")
    g.step("8D")
    g.step("6C")
    assert g.legal_action_names() == ["5S", "8S"]             # both ends of the row
    while g.phase() == "play":
        g.step(g.legal_actions()[-1])
    # B5: first out +45, second +20, third +5, last -5; the last seat's cards stay.
    assert g.out_order == [0, 1, 2, 3]
    assert g.contract_scores == [45, 20, 5, -5]
    assert len(g.hands()[3]) == 1 and g.trick_winners == []


def test_rows_stop_at_ace_and_two():
    g = start(SUIT_PER_SEAT, rank="A")
    g.step("AS")
    g.step("AH")
    g.step("AD")
    g.step("AC")
    assert g.legal_action_names() == ["KS"]   # rows run down to the 2 only from the A


PASS_DEAL = ("S2-S6 H2-H6 D2-D4", "S7 H7 D7 C7 S8-SA D5 D6", "H8-HA D8-DK", "DA C2-C6 C8-CA")


def test_pass_only_when_nothing_playable():
    # Seat 0 (declarer) holds no 7: it must pass, and may not pass when it can play.
    g = start(PASS_DEAL)
    assert g.legal_action_names() == ["pass"]
    g.step("pass")
    assert g.turn() == 1 and g.legal_action_names() == ["7S", "7H", "7D", "7C"]
    g.step("7S")
    assert g.turn() == 2 and g.legal_action_names() == ["pass"]   # 6S, 8S are not seat 2's
    g.step("pass")
    assert g.legal_action_names() == ["pass"]                   # seat 3 neither
    g.step("pass")
    assert g.legal_action_names() == ["6S"]                     # seat 0 must play now
    g.step("6S")
    assert g.plays[:5] == [[0, "pass"], [1, "7S"], [2, "pass"], [3, "pass"], [0, "6S"]]


def test_out_players_skipped_and_invariants():
    # Play a whole Domino deal with the first legal action; check B5 / B8 invariants.
    g = start(PASS_DEAL)
    out = set()
    while g.phase() == "play":
        assert g.turn() not in out                      # B5: players who are out are skipped
        legal = g.legal_action_names()
        assert legal and (legal == ["pass"] or "pass" not in legal)
        seat = g.turn()
        g.step(legal[0])
        if not g.hands()[seat]:
            out.add(seat)
    assert sorted(g.out_order) == [0, 1, 2, 3] and len(out) == 3
    assert g.contract_scores[g.out_order[0]] == 45 and sum(g.contract_scores) == 65
    assert len(g.hands()[g.out_order[3]]) > 0


# --- the variant beyond the rules file: a fixed starting rank (docs/rules/barbu.md) -----------
def test_fixed_starting_rank_is_not_asked():
    # domino_start="J": nobody names the rank; doubling follows the contract at once and only
    # the jacks open rows (B5).
    g = new_game(deal_of(*SUIT_PER_SEAT), 2, rules={"domino_start": "J"})
    g.step("domino")
    assert g.phase() == "double" and g.start_rank == "J"
    no_doubles(g)
    assert g.turn() == 2 and g.legal_action_names() == ["JD"]
    g.step("JD")
    assert g.turn() == 3 and g.legal_action_names() == ["JC"]
    g.step("JC")
    g.step("JS")
    g.step("JH")
    assert g.legal_action_names() == ["TD", "QD"]


def test_fixed_starting_rank_scores_like_the_named_one():
    named = start(SUIT_PER_SEAT, rank="J")
    fixed = new_game(deal_of(*SUIT_PER_SEAT), 0, rules={"domino_start": "J"})
    fixed.step("domino")
    no_doubles(fixed)
    for g in (named, fixed):
        while g.phase() == "play":
            g.step(g.legal_actions()[0])
    assert fixed.out_order == named.out_order
    assert fixed.contract_scores == named.contract_scores
