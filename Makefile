# The two commands of the README: `make demo` and `make test`. Each creates .venv when missing,
# installs shlo (editable) with the extras it needs, then runs.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
# An editable install leaves shlo's sources uncompiled, and where PYTHONDONTWRITEBYTECODE is set
# every process (each shlo-opt of the lit tests, each pytest worker) compiles them again on import:
# compiled once here, as pip does for a regular install.
BYTECODE := $(BIN)/python -m compileall -q core dialect passes pipelines runtime tools >/dev/null

.PHONY: demo test test-all lit pytest typecheck install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(PIP) -e .
	$(BYTECODE)

install-test: $(BIN)/python
	$(PIP) -e '.[test]'
	$(BYTECODE)

demo: install
	$(BIN)/python -m shlo.tools.demo --out out

# pytest runs on every core (at most 4: each worker holds its own IREE compiler and jax);
# most of its time is IREE compiles, one core each. The 20 slowest tests are listed.
PYTEST := $(BIN)/pytest -n auto --maxprocesses=4 --durations=20

# mypy ([tool.mypy] in pyproject.toml: no strict flags) on the package as it is installed: the
# folders map to shlo, shlo.dialect, ... (package-dir), so build/typecheck/shlo is a tree of links
# (core/'s files, the other folders) made afresh on each run; paths print as the repository's.
TYPECHECK := build/typecheck
define MYPY
{ rm -rf $(TYPECHECK)/shlo && mkdir -p $(TYPECHECK)/shlo && \
  for f in core/*.py core/*.pyi; do ln -s "$(CURDIR)/$$f" $(TYPECHECK)/shlo/; done && \
  for d in dialect passes pipelines runtime tools; do \
    ln -s "$(CURDIR)/$$d" $(TYPECHECK)/shlo/; done && \
  cd $(TYPECHECK) && { "$(CURDIR)/$(BIN)/mypy" --config-file "$(CURDIR)/pyproject.toml" -p shlo \
  >mypy.out 2>&1; s=$$?; sed -E -e 's#^shlo/(dialect|passes|pipelines|runtime|tools)/#\1/#' \
  -e 's#^shlo/#core/#' mypy.out; exit $$s; }; }
endef

# ruff, mypy, lit, then pytest; all always run and every summary is printed, pytest's last.
test: install-test
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	($(MYPY)) || status=1; \
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit || status=1; \
	$(PYTEST) test/python || status=1; \
	exit $$status

# Everything `make test` runs, and the tests marked slow (size sweeps, whole programs at full size).
test-all: install-test
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	($(MYPY)) || status=1; \
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit || status=1; \
	$(PYTEST) -m '' test/python || status=1; \
	exit $$status

typecheck: install-test
	@$(MYPY)

lit: install-test
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv test/lit

pytest: install-test
	$(PYTEST) test/python

clean:
	rm -rf out build *.egg-info test/lit/**/Output
