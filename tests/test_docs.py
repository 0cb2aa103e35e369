"""The documentation site builds without a warning: every page in the nav, every link and
anchor resolves, and every docstring the API reference names is found (mkdocs.yml:
strict, with link and anchor validation)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                    or importlib.util.find_spec("mkdocstrings") is None,
                    reason="mkdocs and mkdocstrings are not installed (the dev extra: "
                           "pip install -e '.[dev]')")
def test_mkdocs_build_strict(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "site" / "rules" / "debertz" / "index.html").exists()
    assert "make_agent" in (tmp_path / "site" / "api" / "index.html").read_text()
