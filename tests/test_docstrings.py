"""Every public function, class and method of cardsim/, agents/ and experiments/ has a
docstring (docs/api.md shows them through mkdocstrings; issue 27, item 4).

Public means a name without a leading underscore: a top-level function or class of a module,
or a method of a public class (a property's setter shares its getter's docstring). The scan
reads the source with ``ast`` only, so no numba module is imported or compiled.

Run as a script to print the names that lack one: ``python tests/test_docstrings.py``.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cardsim", "agents", "experiments")


def _is_accessor(node: ast.AST) -> bool:
    """A ``@name.setter`` or ``@name.deleter`` method: documented by its property's getter."""
    return any(isinstance(d, ast.Attribute) and d.attr in ("setter", "deleter")
               for d in getattr(node, "decorator_list", ()))


def missing_docstrings(root: Path = ROOT) -> list[str]:
    """``path:line name`` for each public function, class or method without a docstring."""
    missing = []
    defs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            rel = path.relative_to(root).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
            for node in tree.body:
                if not isinstance(node, defs) or node.name.startswith("_"):
                    continue
                if ast.get_docstring(node) is None:
                    missing.append(f"{rel}:{node.lineno} {node.name}")
                if not isinstance(node, ast.ClassDef):
                    continue
                for member in node.body:
                    if (isinstance(member, defs) and not member.name.startswith("_")
                            and not _is_accessor(member)
                            and ast.get_docstring(member) is None):
                        missing.append(f"{rel}:{member.lineno} {node.name}.{member.name}")
    return missing


def test_public_names_have_docstrings():
    missing = missing_docstrings()
    assert not missing, (f"{len(missing)} public names without a docstring:\n"
                         + "\n".join(missing))


if __name__ == "__main__":
    names = missing_docstrings()
    print("\n".join(names))
    print(f"{len(names)} without a docstring")
