# Quick start targets: each creates (or reuses) .venv, installs the project, then runs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Pinned CPU build of torch for the install step; the package metadata keeps a range.
TORCH_PIN := torch==2.13.0
# Ray as tested (the tests run a local Ray instance); the package metadata keeps a range.
RAY_PIN := ray==2.60.0

.PHONY: run test bench install clean clean-cache

# The package and what it needs to run (make run: no torch, which only the neural agents and
# training use); then torch and the extras the tests use (make test). torch goes first, pinned,
# so that the extras that need it do not pull another build. The browser tests drive the
# system's chromium (the web extra's playwright never downloads a browser of its own).
$(BIN)/cardsim: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.extras: $(BIN)/cardsim
	$(BIN)/pip install -q $(TORCH_PIN)
	$(BIN)/pip install -q -e '.[neural,dev,rl,ray,web]' $(RAY_PIN)
	touch $@

install: $(VENV)/.extras

run: $(BIN)/cardsim
	$(BIN)/cardsim run configs/debertz_heuristic_vs_random.yaml

# One worker per core; the tests of one game share a worker (tests/conftest.py).
test: install
	$(BIN)/python -m pytest tests -n auto --dist loadgroup

bench: $(BIN)/cardsim
	$(BIN)/cardsim bench debertz --players 4 --teams --hands 4000000 --threads 2

clean:
	rm -rf $(VENV) *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

clean-cache:
	find cardsim agents experiments -name '*.nbi' -delete -o -name '*.nbc' -delete
	$(BIN)/python -c "import shutil, cardsim.compile_cache as c; shutil.rmtree(c.cache_base(), ignore_errors=True)"
