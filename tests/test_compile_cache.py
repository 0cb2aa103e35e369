"""The compiled-code cache is keyed to the packages' sources (cardsim.compile_cache): an edit
of a kernel that another file's kernel inlines takes effect on the next run."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from cardsim import compile_cache
from cardsim.compile_cache import cache_base, remove_old_folders

ROOT = Path(__file__).resolve().parent.parent

# A kernel of one file that inlines a kernel of another (as a table loop inlines an engine's).
CALLEE = '''
from numba import njit


@njit(cache=True, inline="always")
def callee(x):
    return x + 1
'''
PROBE = '''
from numba import njit

from cardsim._probe_callee_nb import callee


@njit(cache=True)
def probe(x):
    return callee(x)
'''


def _run_probe(tree: Path, cache: Path) -> tuple[int, list[str]]:
    env = dict(os.environ, PYTHONPATH=str(tree), CARDSIM_CACHE_DIR=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    out = subprocess.run(
        [sys.executable, "-c",
         "from cardsim import compile_cache as c; from cardsim._probe_nb import probe; "
         "print(probe(8), c.sources_digest())"],
        cwd=tree, env=env, capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), out[1]


def test_an_edit_of_an_inlined_kernel_takes_effect_on_the_next_run(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(ROOT / "cardsim", tree / "cardsim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "cardsim" / "_probe_nb.py").write_text(PROBE)
    (tree / "cardsim" / "_probe_callee_nb.py").write_text(CALLEE)
    cache = tmp_path / "cache"

    value, first = _run_probe(tree, cache)
    assert value == 9
    assert any((cache / first).rglob("*.nbi"))  # compiled code was cached under the version
    assert _run_probe(tree, cache) == (9, first)  # and is used as it is

    # the callee's file changes; numba alone would keep the caller's stale cached code
    callee = tree / "cardsim" / "_probe_callee_nb.py"
    callee.write_text(CALLEE.replace("x + 1", "x + 2"))
    value, second = _run_probe(tree, cache)
    assert value == 10 and second != first
    assert (cache / first).is_dir()  # the previous version's folder is kept (KEEP most recent)


def test_old_cache_folders_are_removed_beyond_the_most_recently_used(tmp_path):
    base = tmp_path / "base"
    folders = []
    for k in range(6):
        folder = base / f"v{k}"
        folder.mkdir(parents=True)
        (folder / compile_cache.USED_STAMP).touch()
        os.utime(folder / compile_cache.USED_STAMP, (time.time() - 100 + k, time.time() - 100 + k))
        folders.append(folder)
    current = folders[0]  # the oldest stamp, but in use now: never removed
    removed = remove_old_folders(base, current, keep=3)
    assert sorted(removed) == sorted(folders[1:3])
    assert [f.is_dir() for f in folders] == [True, False, False, True, True, True]


def test_the_cache_base_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDSIM_CACHE_DIR", str(tmp_path / "a"))
    assert cache_base() == tmp_path / "a"
    monkeypatch.delenv("CARDSIM_CACHE_DIR")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "n"))
    assert cache_base() == tmp_path / "n" / "cardsim"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert cache_base() == tmp_path / "x" / "cardsim" / "numba"


def test_the_project_kernels_use_the_keyed_cache():
    from cardsim import bits_nb

    locator = bits_nb.lowest_bit._cache._impl._locator
    assert type(locator).__name__ == "SourceKeyedLocator"
    assert compile_cache.sources_digest() in locator.get_cache_path()


def test_compiled_functions_get_ids_no_other_process_repeats():
    # numba names two closures of one name and signature apart only by their ids; counted
    # ids repeat between processes, and two such closures cached by two processes then
    # collide when a third loads both (cardsim.policy_nb builds one per policy set)
    probe = ("import cardsim; from numba.core.bytecode import FunctionIdentity as F; "
             "from numba import njit; f = njit(lambda x: x + 1); f(1); "
             "print(next(F._unique_ids), list(f.overloads.values())[0].fndesc.mangled_name)")
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True).stdout.split()
            for _ in range(2)]
    assert runs[0][0] != runs[1][0]          # the next id
    assert runs[0][1] != runs[1][1]          # the symbol of the same function compiled
