PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: test lint bench run clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,bench,arena]'
	touch $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check baida tests bench
	$(BIN)/python -m pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check baida tests bench

bench: $(STAMP)
	$(BIN)/python -m bench

run: $(STAMP)
	$(BIN)/baida play

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis
