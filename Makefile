# The two commands of the README: `make demo` and `make test`. Each creates .venv when missing,
# installs shlo (editable) with the extras it needs, then runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: demo test test-all lit pytest install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(PIP) -e .

install-test: $(BIN)/python
	$(PIP) -e '.[test]'

demo: install
	$(BIN)/python -m shlo.tools.demo --out out

# pytest runs on every core (at most 4: each worker holds its own IREE compiler and jax);
# most of its time is IREE compiles, one core each. The 20 slowest tests are listed.
PYTEST := $(BIN)/pytest -n auto --maxprocesses=4 --durations=20

# ruff, lit, then pytest; all always run and every summary is printed, pytest's last.
test: install-test
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit || status=1; \
	$(PYTEST) test/python || status=1; \
	exit $$status

# Everything `make test` runs, and the tests marked slow (size sweeps, whole programs at full size).
test-all: install-test
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit || status=1; \
	$(PYTEST) -m '' test/python || status=1; \
	exit $$status

lit: install-test
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit

pytest: install-test
	$(PYTEST) test/python

clean:
	rm -rf out build *.egg-info test/lit/**/Output
