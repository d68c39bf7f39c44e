# Two commands do everything on a fresh machine (Python >= 3.11 with venv):
#   make run    install and start the arena's main job
#   make test   install the test tools and run the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test install install-test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install -q -e .

install-test: $(BIN)/python
	$(BIN)/pip install -q -e '.[test]'

run: install
	$(BIN)/ludoteca play kingdomino

lint: install-test
	$(BIN)/ruff check ludoteca tests benchmarks
	$(BIN)/mypy --strict ludoteca/engine ludoteca/games

test: lint
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .hypothesis
