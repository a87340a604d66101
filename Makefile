PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.run-installed
TEST_STAMP := $(VENV)/.test-installed
BENCH_STAMP := $(VENV)/.bench-installed
HOST ?= 127.0.0.1
PORT ?= 8000
# the test files `make quicktest` runs (default: all of them)
TESTS ?=
# property tests draw this many times their base number of random examples (tests/hypothesis_budget.py)
BAIDA_TEST_SCALE ?= 10
export BAIDA_TEST_SCALE

.PHONY: run install test quicktest lint bench lock clean

# a half-made environment is removed (else the next `make` would take it as made and fail)
$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "baida needs Python 3.11 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1 || echo missing)." \
			"Name another: make run PYTHON=python3.12" >&2; exit 1; }
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
		echo "could not make $(VENV) with $(PYTHON) -m venv; on Debian or Ubuntu install" \
			"its venv module first (sudo apt install python3-venv), then run make again" >&2; exit 1; }
	$(BIN)/python -m pip install -q --upgrade pip || { rm -rf $(VENV); exit 1; }

# the runtime only: what `baida serve` and the other commands need (compatible ranges)
$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $(RUN_STAMP)

# the tests add their extras, at the exact versions of constraints.txt
$(TEST_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[test,bench,arena]'
	touch $(TEST_STAMP) $(BENCH_STAMP) $(RUN_STAMP)

# the benchmarks add the anchor libraries (the bench extra), pinned as for the tests
$(BENCH_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install -q -c constraints.txt -e '.[bench]'
	touch $(BENCH_STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/baida serve --host $(HOST) --port $(PORT)

# what `make run` sets up, without starting the hall (a service starts it: deploy/baida.service)
install: $(RUN_STAMP)

# the tests marked ``alone`` (they make network namespaces) run after the others, by themselves
test: $(TEST_STAMP)
	$(BIN)/ruff check baida tests bench
	$(BIN)/python -m pytest -n 2 -m "not alone"
	$(BIN)/python -m pytest -m alone

quicktest: $(TEST_STAMP)
	BAIDA_TEST_SCALE=1 $(BIN)/python -m pytest -n 2 $(TESTS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check baida tests bench

bench: $(BENCH_STAMP)
	$(BIN)/python -m bench

# rewrite constraints.txt from the test environment (after changing pyproject.toml)
lock: $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench,arena]'
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^baida' > constraints.txt

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
