"""Agents by name, with keyword options: ``"heuristic:aggression=0.7,swap=0"`` or a mapping
``{"name": "heuristic", "aggression": 0.7, "swap": 0}``.

One grammar everywhere: a spec is ``name[:key=value[,key=value...]]``; the comma separates
the options of one agent, never agents. Several agents are several specs (separate
command-line arguments, YAML list items); a comma before the first colon is refused with
that hint, so ``random,heuristic`` cannot be mistaken for one agent.

A name ``"package.module:Name"`` loads an agent by import path: ``Name`` is a class or
factory called with the options as keywords (and ``game=`` when it takes a ``game``
argument), or an agent object itself (no options then). What it gives must have the batched
``act(observations, legal_masks)`` of the agent protocol. Options follow a second colon:
``"mypkg.bots:MyAgent:depth=2"`` (or ``{name: mypkg.bots:MyAgent, depth: 2}`` in YAML).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
from typing import Any, Mapping

from agents.base import Agent
from cardsim.errors import InvalidConfigError, MissingDependencyError
from cardsim.games import GAMES

# Every agent of this package by name: where its class is, imported only when the agent is
# made or described (a heuristic table must not load torch or the search agents' modules).
# "{game}" is filled in with each game the module exists for: agents/<game>/<module>.py,
# whose ``AGENT`` is the class.
AGENT_CLASSES = {
    "random": "agents.base:RandomAgent",
    "heuristic": "agents.{game}.heuristic:AGENT",
    "pimc": "agents.{game}.pimc:AGENT",
    "ismcts": "agents.ismcts:ISMCTSAgent",
    "neural": "agents.neural.agent:NeuralAgent",
}


def _class_path(game: str, name: str) -> str | None:
    """Where the class of agent ``name`` for ``game`` is, or None if there is none."""
    path = AGENT_CLASSES.get(name)
    if path is None:
        return None
    path = path.format(game=game)
    try:
        if importlib.util.find_spec(path.partition(":")[0]) is None:
            return None
    except MissingDependencyError:  # its package needs what is not installed (torch)
        pass  # still listed: making it says what to install
    return path


def _agent_class(game: str, name: str) -> type | None:
    path = _class_path(game, name)
    if path is None:
        return None
    module, _, attr = path.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls if game in cls.games else None


def agent_names(game: str) -> list[str]:
    """The names of the agents registered for ``game``, sorted (an agent whose package needs what
    is not installed is still listed: making it says what to install)."""
    return sorted(name for name in AGENT_CLASSES if _class_path(game, name) is not None)


def _value(text: str):
    """A number where the text is one, else the text (a path); each agent checks its own
    options' types."""
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def parse_spec(spec: str | Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """(name, options) of ``"name:key=value,key=value"`` or ``{"name": ..., key: value}``.

    Returns:
        The name and a dict of the options, values parsed (numbers, switches, text).

    Raises:
        InvalidConfigError: an empty or malformed spec, or several agents in one string
            (``"random,heuristic"``).
    """
    if isinstance(spec, Mapping):
        if "name" not in spec:
            raise InvalidConfigError(f"agent mapping {dict(spec)!r} needs a 'name' key")
        options = {k: v for k, v in spec.items() if k != "name"}
        return str(spec["name"]), options
    if not isinstance(spec, str) or not spec.strip():
        raise InvalidConfigError(f"agent must be a name like 'heuristic', got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    if name not in AGENT_CLASSES and rest and "=" not in rest.partition(":")[0]:
        # an import path "package.module:Name", its options after a second colon
        attr, _, rest = rest.partition(":")
        name = f"{name}:{attr}"
    if "," in name or " " in name:  # "random,heuristic" or "mybots:Bot,random"
        parts = " ".join(x.strip() for x in name.replace(",", " ").split())
        raise InvalidConfigError(
            f"agent {spec!r}: several agents are separate arguments ({parts}); a comma "
            f"separates the options of one agent, as in heuristic:aggression=0.5,swap=0")
    options = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, text = item.partition("=")
        if not eq:
            raise InvalidConfigError(
                f"agent option {item!r} in {spec!r} must look like key=value (several "
                f"agents are separate arguments, not a comma list)")
        options[key.strip()] = _value(text.strip())
    return name, options


def canonical(spec) -> str:
    """A spec written one way (options sorted, ``label`` left out), to tell whether two
    specs name the same agent: ``pimc:samples=16,nodes=50000`` and
    ``pimc:nodes=50000,samples=16,label=x`` are the same."""
    name, options = parse_spec(spec)
    options.pop("label", None)
    body = ",".join(f"{k}={options[k]}" for k in sorted(options))
    return f"{name}:{body}" if body else name


def make_agent(spec: str | Mapping[str, Any], game: str, rules=None) -> Agent:
    """The agent a spec names, for ``game``; unknown names or options are clear errors.
    An agent object (anything with ``act``) is returned as it is.

    Args:
        spec: ``"heuristic"``, ``"heuristic:aggression=0.7,swap=0"``, a preset of the table
            (``"strongest"``, ``"fast:label=mine"``: ``agents.presets``), an import path
            ``"package.module:Name[:key=value,...]"``, a mapping ``{"name": ..., key: value}``
            or an agent object.
        game: ``"debertz"`` or ``"barbu"``.
        rules: the rules of the table the agent is seated at (a rules object or its
            conventions dict), which say what a preset means; None: the game's default
            rules.

    Returns:
        The agent, with ``act(observations, legal_masks)`` and ``reset(seed)``.

    Raises:
        InvalidConfigError: an unknown game, agent or option, or a bad option value.
        MissingDependencyError: the agent needs a package that is not installed (torch).
    """
    if game not in GAMES:
        raise InvalidConfigError(f"unknown game {game!r}; games: {', '.join(GAMES)}")
    if not isinstance(spec, (str, Mapping)):
        if callable(getattr(spec, "act", None)):
            return spec
        raise InvalidConfigError(f"agent {spec!r} has no act(observations, legal_masks) method")
    name, options = parse_spec(spec)
    label = _label_option(options, spec)
    if is_import_path(name):
        return _labelled(load_agent(name, options, game), label, spec)
    cls = _agent_class(game, name)
    if cls is None and name not in AGENT_CLASSES:
        return _preset_agent(name, options, label, spec, game, rules)
    if cls is None:
        raise InvalidConfigError(
            f"unknown {game} agent {name!r}; agents: {', '.join(agent_names(game))}, "
            f"or an import path package.module:Name")
    # pimc drawing deals by a belief network and/or keeping a playing network's card
    guided = ("beliefs", "net", "endgame", "search", "search_in")
    if name == "pimc" and any(k in guided or k.startswith("net_") for k in options):
        from agents.belief_pimc import BeliefPIMC

        def make_network(net_options):  # the playing network, its prior made here
            return make_agent({"name": "neural", **net_options}, game, rules)

        return _labelled(BeliefPIMC(game, options, make_network=make_network), label, spec)
    if name == "neural":  # a zoo network plays with its card's own options
        from agents.neural.zoo import network_options

        given = options
        options, from_card = network_options(options)
        if from_card and label is None:  # named as the user wrote it, not with the card's
            label = f"neural:{given['checkpoint']}" + "".join(
                f",{k}={v}" for k, v in given.items() if k != "checkpoint")
    if name == "neural" and "prior" in options:
        # the network as the critic of a compiled agent's play (agents.neural.agent)
        prior = options["prior"]
        prior = make_agent(prior, game, rules) if isinstance(prior, str) else None
        return _labelled(cls(game=game, options=options, prior=prior), label, spec)
    return _labelled(cls(game=game, options=options), label, spec)


def _preset_agent(name: str, options: dict, label: str | None, spec, game: str, rules):
    """The agent preset ``name`` stands for at the table of ``rules``, labelled with the
    preset's name (or ``label``)."""
    from agents.presets import preset_names, preset_spec, table_of

    table = table_of(game, rules)
    if name not in preset_names(table):
        raise InvalidConfigError(
            f"unknown {game} agent {name!r}; agents: {', '.join(agent_names(game))}; "
            f"presets at {table}: {', '.join(preset_names(table))}; or an import path "
            f"package.module:Name")
    target = preset_spec(name, game, rules)
    if options:
        raise InvalidConfigError(
            f"preset {name!r} at {table} is {target}; it takes label= only (got "
            f"{', '.join(sorted(options))}=): give that spec with your options instead")
    agent = make_agent(target, game, rules)
    return _labelled(agent, label or name, spec)


def _label_option(options: dict, spec) -> str | None:
    """``label=NAME``, taken out of an agent's options: what every agent takes (its name in
    tables and results), not an option of its own."""
    if "label" not in options:
        return None
    label = str(options.pop("label")).strip()
    if not label:
        raise InvalidConfigError(f"agent {spec!r}: label= needs a name")
    return label


def _labelled(agent, label: str | None, spec):
    if label is not None:
        try:
            agent.label = label
        except AttributeError:
            raise InvalidConfigError(f"agent {spec!r} does not take a label (its label "
                                     f"cannot be set)") from None
    return agent


def is_import_path(name: str) -> bool:
    """Whether agent name ``name`` is an import path ``"package.module:Class"`` rather than a
    registered name."""
    module, colon, attr = name.partition(":")
    return bool(colon and module and attr)


def load_agent(path: str, options: dict[str, Any], game: str):
    """The agent an import path ``package.module:Name`` gives (see the module doc string)."""
    module_name, _, attr = path.partition(":")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # a console script does not look in the current directory
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise InvalidConfigError(f"agent {path!r}: cannot import module {module_name!r} "
                                 f"({e})") from None
    target = module
    for part in attr.split("."):
        if not hasattr(target, part):
            raise InvalidConfigError(f"agent {path!r}: module {module_name!r} has no "
                                     f"{attr!r}")
        target = getattr(target, part)
    if not inspect.isclass(target) and callable(getattr(target, "act", None)):
        if options:
            raise InvalidConfigError(f"agent {path!r} is an agent object and takes no "
                                     f"options; got {', '.join(sorted(options))}")
        agent = target
    elif callable(target):
        kwargs = dict(options)
        if _takes(target, "game"):
            kwargs["game"] = game
        try:
            agent = target(**kwargs)
        except TypeError as e:
            raise InvalidConfigError(f"agent {path!r} does not accept the options "
                                     f"{sorted(options)}: {e}") from None
    else:
        raise InvalidConfigError(f"agent {path!r} is neither an agent, a class nor a factory")
    if not callable(getattr(agent, "act", None)):
        raise InvalidConfigError(f"agent {path!r} has no act(observations, legal_masks) "
                                 f"method")
    if not getattr(agent, "label", None):
        try:  # tables and logs name the agent by its spec
            opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
            agent.label = f"{path}:{opts}" if opts else path
        except AttributeError:
            pass  # an object that refuses attributes is named by its class
    return agent


def _takes(fn, name: str) -> bool:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def describe_agents(game: str) -> str:
    """Every agent of a game: a line with its name and description, then one indented line
    per option (default, allowed values, meaning)."""
    lines = []
    for name in agent_names(game):
        try:
            cls = _agent_class(game, name)
        except MissingDependencyError as e:  # listed, with what it needs
            lines.append(f"{name}: not available: {e}")
            continue
        doc = (cls.__doc__ or "").strip().splitlines()[0] if cls.__doc__ else ""
        text_options = getattr(cls, "OPTION_HELP", {})  # options that are not numbers
        lines.append(f"{name}: {doc}" + ("" if cls.OPTIONS or text_options else
                                         " No options."))
        lines += [f"    {k}={o.default:g} ({o.allowed()}): {o.doc}"
                  for k, o in cls.OPTIONS.items()]
        lines += [f"    {k}: {doc}" for k, doc in text_options.items()]
    lines.append("Options follow the name: NAME:KEY=VALUE,KEY=VALUE; several agents are "
                 "separate arguments. Every agent also takes label=NAME, its name in "
                 "tables.")
    return "\n".join(lines)
