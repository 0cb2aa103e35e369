"""Imports go down the three floors (experiments -> agents -> cardsim) and never in a circle.

The graph is read from the source with ``ast``, so nothing is imported (no numba, no torch):
every ``import`` and ``from ... import`` of every module of cardsim/, agents/ and
experiments/, at module level or inside functions, and every ``importlib.import_module`` of
a module named by a string literal. A module may import lazily (inside a function) one on
its own floor or below; it may not import one above it, nor one that imports it back
through any chain, lazily or not: such a circle hides which module comes first and breaks
as soon as one of its imports moves to module level.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOORS = {"cardsim": 1, "agents": 2, "experiments": 3}  # imports go down only


def module_files() -> dict[str, Path]:
    """Dotted module name -> file, for every module of the three packages."""
    out = {}
    for package in FLOORS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _known(name: str, modules) -> str | None:
    """The module an import of ``name`` loads: itself, or its nearest known package."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules) -> set[str]:
    """The modules of the three packages that module ``name`` imports anywhere in its file."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, one level up per extra dot
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            # ``from a.b import c`` loads a.b.c when c is a module, else a.b
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                       for alias in node.names]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and (getattr(node.func, "attr", None) == "import_module"
                   or getattr(node.func, "id", None) == "import_module")):
            targets = [node.args[0].value]
        out.update(t for t in map(lambda t: _known(t, modules), targets) if t)
    out.discard(name)
    return out


def import_graph() -> dict[str, set[str]]:
    modules = module_files()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other by imports (strongly connected
    components of more than one module), each sorted (Tarjan's algorithm)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def upward(graph: dict[str, set[str]]) -> list[str]:
    """``a -> b`` for every import of a module ``b`` on a higher floor than ``a``."""
    def floor(m):
        return FLOORS[m.split(".")[0]]

    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if floor(b) > floor(a))


def test_the_graph_sees_imports_inside_functions():
    graph = import_graph()
    assert "experiments.cli" in graph and "cardsim.cards" in graph
    # imported only inside functions of their importers
    assert "experiments.runs.run" in graph["experiments.cli.run"]
    assert "cardsim.debertz.summary" in graph["cardsim.debertz.contract"]


def test_no_module_imports_one_that_imports_it_back():
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_imports_go_down_the_floors():
    found = upward(import_graph())
    assert not found, "imports up the floors (experiments -> agents -> cardsim): " + \
        "; ".join(found)


def test_the_checks_catch_a_circle_and_an_upward_import():
    graph = {"cardsim.a": {"cardsim.b"}, "cardsim.b": {"cardsim.c"},
             "cardsim.c": {"cardsim.a"}, "agents.x": {"cardsim.a", "experiments.y"},
             "experiments.y": {"agents.x"}, "experiments.z": {"cardsim.a"}}
    assert circles(graph) == [["agents.x", "experiments.y"],
                              ["cardsim.a", "cardsim.b", "cardsim.c"]]
    assert upward(graph) == ["agents.x -> experiments.y"]
