"""cardsim: fast self-play simulation and AI training for Debertz and Barbu."""

from cardsim.compile_cache import install as _install_compile_cache

__version__ = "0.1.0"

# Before any kernel of the packages is defined: numba picks a function's cache folder then.
_install_compile_cache()
