"""Benchmarks that print figures (never asserted by tests): the search (open-hand solves,
decisions), the compiled table, training, the browser table under load, Ray.
Each runs as ``python -m experiments.bench.NAME``; the engine's own is ``cardsim bench``.
"""
