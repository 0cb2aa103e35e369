"""Named players: every table's preset file, presets wherever a spec goes, their labels and
their errors."""

import pytest

from agents.presets import (REQUIRED, TABLES, preset_file, preset_names, preset_spec,
                            table_of, table_rules)
from agents.registry import canonical, make_agent, parse_spec
from cardsim import games
from cardsim.errors import InvalidConfigError


def rules_of(table):
    game = "barbu" if table == "barbu" else "debertz"
    return game, games.get(game).make_rules(None, table_rules(table))


@pytest.mark.parametrize("table", TABLES)
def test_every_table_names_its_players_and_each_preset_is_an_agent(table):
    game, rules = rules_of(table)
    assert table_of(game, rules) == table
    names = preset_names(table)
    # debertz-4p has no network trained for it: no network preset
    assert set(REQUIRED) - ({"network"} if table == "debertz-4p" else set()) <= set(names)
    for name in names:
        agent = make_agent(name, game, rules)
        assert agent.label == name
        if hasattr(agent, "check_rules"):
            agent.check_rules(rules)  # its networks were trained for this table
    strongest = preset_spec("strongest", game, rules)
    assert len(strongest) <= 60, strongest  # a spec a person can read


def test_presets_follow_the_table_of_the_rules():
    two = games.get("debertz").make_rules(None, {"players": 2})
    teams = games.get("debertz").make_rules(None, {"players": 4, "teams": True})
    assert make_agent("network", "debertz", two).net is not make_agent("network", "debertz",
                                                                       teams).net
    assert table_of("debertz") == "debertz-2p"  # the default rules: 2 players
    assert make_agent("fast", "debertz").label == "fast"


def test_a_preset_takes_a_label_and_no_other_option():
    assert make_agent("strongest:label=best", "barbu").label == "best"
    with pytest.raises(InvalidConfigError, match="preset 'fast' at barbu is "
                                                 "neural:checkpoint=barbu-critic; it takes "
                                                 "label= only"):
        make_agent("fast:margin=3", "barbu")


def test_an_unknown_name_lists_the_agents_and_the_presets_of_the_table():
    with pytest.raises(InvalidConfigError, match="presets at debertz-4p: strongest, fast, "
                                                 "network, heuristic, random"):
        make_agent("champion", "debertz", {"players": 4, "teams": False})


def test_canonical_spec_ignores_option_order_and_label():
    assert canonical("pimc:nodes=50000,samples=16,label=x") == canonical(
        "pimc:samples=16,nodes=50000")
    assert canonical("heuristic:label=h") == "heuristic"
    assert parse_spec(canonical("pimc:net=barbu-critic,endgame=4")) == (
        "pimc", {"endgame": 4, "net": "barbu-critic"})


def test_preset_files_say_what_each_player_is():
    for table in TABLES:
        for name, entry in preset_file(table)["presets"].items():
            assert entry["about"], (table, name)


def test_presets_in_a_tournament_a_yaml_config_and_play(tmp_path, capsys):
    import yaml

    from experiments.cli import main, seat_agents
    from experiments.runs.run import start_run

    assert main(["tournament", "barbu", "--agents", "fast", "random", "--deals", "14",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "\nfast " in out and "fast - random" in out
    config = tmp_path / "presets.yaml"
    config.write_text(yaml.safe_dump({"name": "presets", "kind": "tournament",
                                      "game": "debertz", "rules": {"players": 2},
                                      "agents": ["network", "heuristic:label=h"],
                                      "deals": 10, "seed": 1}))
    _, result = start_run(config, tmp_path / "runs")
    assert [r["agent"] for r in result["agents"]] == ["network", "h"]
    rules = games.get("debertz").make_rules(None, {"players": 3})
    agents = seat_agents("debertz", rules, ["network"], 0)
    assert agents[0] is None and [a.label for a in agents[1:]] == ["network", "network"]
