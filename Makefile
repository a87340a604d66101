PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# property tests draw this many times their base number of random examples (tests/hypothesis_budget.py)
BAIDA_TEST_SCALE ?= 10
export BAIDA_TEST_SCALE

.PHONY: test quicktest lint bench run clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,bench,arena]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check baida tests bench
	$(BIN)/python -m pytest -n 2

quicktest: $(STAMP)
	BAIDA_TEST_SCALE=1 $(BIN)/python -m pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check baida tests bench

bench: $(STAMP)
	$(BIN)/python -m bench

run: $(STAMP)
	$(BIN)/baida play

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
