# Two commands do all set-up: `make lab` (start the workbench) and `make test` (run the suite).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: lab test docs bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# As root (containers, CI machines) JupyterLab refuses to start without --allow-root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks $(ROOT_FLAG) $(LAB_ARGS)

# On every core, up to four (each worker loads numba and the rules; more workers gain little
# and cost memory); PYTEST_ARGS adds options, e.g. PYTEST_ARGS='-n 0' for one process.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --maxprocesses 4 $(PYTEST_ARGS)

# The project's documentation, warnings as errors (tests/test_docs.py builds it in the suite).
docs: $(STAMP)
	$(BIN)/sphinx-build -W -b html docs docs/_build/html

bench: $(STAMP)
	$(BIN)/python -m benchmarks.bench_exact
	$(BIN)/python -m benchmarks.bench_simulate
	$(BIN)/python -m benchmarks.bench_stateful
	$(BIN)/python -m benchmarks.bench_sweep
	$(BIN)/python -m benchmarks.bench_widgets
	$(BIN)/python -m benchmarks.bench_cli
	$(BIN)/python -m benchmarks.bench_figures

clean:
	rm -rf $(VENV)
