"""numba's on-disk cache of this project's compiled code, keyed to the sources it was built from.

numba checks only the stamp of the file that *defines* a cached function. A table loop
inlines and links the engines, the heuristics and the searches of other files, so after an
edit of one of those (or an upgrade of the package) the loop's cached code would run the old
version silently. Here every cached function of the project's packages (``cardsim``,
``agents``, ``experiments``) is stored under a folder named by a digest of all their Python
sources and the numba version: any edit, anywhere in them, starts a new folder, which is
filled as commands compile what they use.

Where: ``$CARDSIM_CACHE_DIR`` if set, else ``$NUMBA_CACHE_DIR/cardsim`` if numba's own
setting is given, else ``~/.cache/cardsim/numba`` (``$XDG_CACHE_HOME`` respected). The
folders of other versions are removed, except the few used most recently (so that two
checkouts used side by side do not keep wiping each other's cache).

numba picks a cache locator for a function when it is decorated, so ``install()`` runs when
``cardsim`` is imported, before any of the packages' kernels are defined.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
from pathlib import Path

PACKAGES = ("cardsim", "agents", "experiments")
KEEP = 3            # folders of other source versions kept, most recently used first
USED_STAMP = "last-used"

_digest: str | None = None


def package_roots() -> list[Path]:
    """The folders of the project's packages, as imported (a checkout or site-packages)."""
    here = Path(__file__).resolve().parent.parent
    return [here / name for name in PACKAGES if (here / name).is_dir()]


def sources_digest() -> str:
    """Digest of every Python source of the packages (paths and contents) and of the numba
    version: the name of this version's cache folder."""
    global _digest
    if _digest is None:
        import numba

        h = hashlib.sha256(f"numba {numba.__version__}\n".encode())
        for root in package_roots():
            for path in sorted(root.rglob("*.py")):
                h.update(str(path.relative_to(root.parent)).encode() + b"\0")
                h.update(path.read_bytes())
        _digest = h.hexdigest()[:20]
    return _digest


def cache_base() -> Path:
    """The folder that holds one cache folder per source version."""
    if os.environ.get("CARDSIM_CACHE_DIR"):
        return Path(os.environ["CARDSIM_CACHE_DIR"])
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "cardsim"
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "cardsim" / "numba"


def cache_folder() -> Path:
    """This source version's cache folder."""
    return cache_base() / sources_digest()


def remove_old_folders(base: Path, current: Path, keep: int = KEEP) -> list[Path]:
    """Remove the cache folders of other source versions beyond the ``keep`` used most
    recently; returns those removed. A folder in use by another process is at worst
    recompiled there."""
    if not base.is_dir():
        return []

    def last_used(folder: Path) -> float:
        stamp = folder / USED_STAMP
        return stamp.stat().st_mtime if stamp.exists() else folder.stat().st_mtime

    others = [p for p in base.iterdir() if p.is_dir() and p != current]
    others.sort(key=last_used, reverse=True)
    removed = others[keep:]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    return removed


def _mark_used(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / USED_STAMP).touch()  # its time is when this version was last used


_installed = False


def install() -> None:
    """Make numba cache the packages' functions in this version's folder (once per
    process; does nothing where numba's caching machinery is not as expected, leaving
    numba's own cache in place)."""
    global _installed
    if _installed:
        return
    try:
        from numba.core import caching
    except ImportError:  # no numba: nothing is compiled either
        return
    _use_random_function_ids()
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list):
        import warnings

        import numba

        warnings.warn(f"cardsim: numba {numba.__version__} has no cache-locator list; "
                      "compiled code is cached by numba's own rule (stale after an edit of "
                      "another file: clear it with `make clean-cache`)", RuntimeWarning,
                      stacklevel=2)
        return
    classes.insert(0, _source_keyed_locator(caching))
    _installed = True


def _use_random_function_ids() -> None:
    """Give every function numba compiles a random id instead of a per-process count.

    numba tells apart functions of one name and signature by that id in their symbol names:
    the closures ``cardsim.policy_nb`` builds for each set of compiled policies are such
    functions. Counted ids repeat from process to process, so two processes that compiled
    the kernels of two different policy sets could give two different closures the same
    symbol; a third process that loaded both from the cache then ran one body for both
    (a seat's search played as random play, in a tournament that seated a network beside
    the heuristic and then beside a search; numba issue 10486). Random ids do not repeat."""
    from numba.core import bytecode

    identity = getattr(bytecode, "FunctionIdentity", None)
    if identity is not None and hasattr(identity, "_unique_ids"):
        identity._unique_ids = iter(lambda: secrets.randbits(62), None)  # endless


def _source_keyed_locator(caching):
    """numba's locator class for the functions of the project's packages."""
    roots = [os.path.realpath(r) + os.sep for r in package_roots()]

    class SourceKeyedLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """Cached under this source version's folder: fresh exactly while no source of the
        packages has changed."""

        _cleaned = False

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            top = next(r for r in roots if py_file.startswith(r))
            package_parent = os.path.dirname(top.rstrip(os.sep))
            relative = os.path.relpath(os.path.dirname(py_file), package_parent)
            self._cache_path = str(cache_folder() / relative)

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return sources_digest()

        def ensure_cache_path(self):
            cls = type(self)
            if not cls._cleaned:  # once per process: mark this version used, drop old ones
                cls._cleaned = True
                _mark_used(cache_folder())
                remove_old_folders(cache_base(), cache_folder())
            super().ensure_cache_path()

        @classmethod
        def from_function(cls, py_func, py_file):
            py_file = os.path.realpath(py_file)
            if not any(py_file.startswith(r) for r in roots):
                return None
            return super().from_function(py_func, py_file)

    return SourceKeyedLocator
