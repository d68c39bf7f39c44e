# Two commands do everything on a fresh machine (Python >= 3.11 with venv):
#   make run    install and start the arena server (SQLite; prints the address)
#   make test   install the test tools and run the whole suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# `make run` serves from its own venv on the newest Python here whose cookie parser is not
# quadratic (CVE-2024-7592; tools/safe_python.py), when there is one: the server then has
# nothing to warn about. `make test` keeps $(PYTHON) and .venv, whose test tools need wheels
# a newer Python may lack.
SAFE_PYTHON = $(shell $(PYTHON) -m tools.safe_python $(PYTHON) 2>/dev/null)
RUN_PYTHON ?= $(or $(SAFE_PYTHON),$(PYTHON))
RUN_VENV ?= $(if $(SAFE_PYTHON),.venv-run,$(VENV))

# The training examples' torch: 2.13.0 is a CPU build on these machines (a few hundred MB);
# an unpinned torch from PyPI brings CUDA libraries, several GB. `make install-test TORCH=` lifts it.
TORCH ?= torch==2.13.0

# The native core (native/: C++17, nanobind, scikit-build-core; docs/engine.md "The native core"),
# a separate distribution built into the venv where a C++ compiler exists; without one the
# Python engines play and this says so. $(1) is the venv's pip. CMake and Ninja come from PyPI
# when the machine has none.
NATIVE = @if command -v "$${CXX:-c++}" >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1; then \
		echo "Building the native core (native/)..."; $(1) install -q ./native; \
	else echo "No C++ compiler (c++, g++): the native core is not built; the Python engines play."; fi

.PHONY: run test install install-test native browser node-test lint bench golden golden-views snapshots \
	messages screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

install: $(BIN)/python
	$(BIN)/pip install -q -e .
	$(call NATIVE,$(BIN)/pip)

native: $(BIN)/python
	$(call NATIVE,$(BIN)/pip)

install-test: $(BIN)/python browser node-test
	$(BIN)/pip install -q -e '.[test,rl-train]' $(TORCH)
	$(call NATIVE,$(BIN)/pip)

# The browser client's Node tests (tests/webunit, node --test) need their DOM shim, pinned in
# tests/webunit/package-lock.json; without Node they skip and say why (CI requires them).
node-test:
	@if command -v npm >/dev/null; then cd tests/webunit && npm ci --no-audit --no-fund --silent; \
	else echo "Node.js is not installed: the browser client's unit tests will skip."; fi

# The browser tests drive Debian's Chromium (never Playwright's download): installed with
# apt-get when this runs as root; otherwise those tests skip and say why.
browser:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -q && apt-get install -y -q chromium; } \
		|| echo "Chromium is not installed (apt-get install chromium): the browser tests will skip."

run:
	@test -x $(RUN_VENV)/bin/python || $(RUN_PYTHON) -m venv $(RUN_VENV)
	$(RUN_VENV)/bin/pip install -q -e .
	$(call NATIVE,$(RUN_VENV)/bin/pip)
	$(RUN_VENV)/bin/ludoteca serve

# Import cycles (even type-only ones) fail the lint (tools/import_cycles.py).
lint: install-test
	$(BIN)/ruff check ludoteca tests benchmarks examples tools
	$(BIN)/mypy --strict ludoteca/engine ludoteca/games ludoteca/bots ludoteca/tournament \
		ludoteca/server ludoteca/rl ludoteca/ladder ludoteca/cli tools
	$(BIN)/python -m tools.import_cycles
	$(BIN)/python -m tools.js_import_cycles

# The core-agnostic suites (what plays the same on either core: the engine, Kingdomino's rules,
# whose playouts the native core runs, the golden playthroughs, the bots) once more on the Python
# engines, as a machine without a compiler plays them; where the native core is not built, the
# whole suite just ran on them. The views' leak property tests never reach a core: not again.
# 509 tests, 134 s of CPU (8 minutes on 2 cores shared with other work; docs/engine.md).
CORE_AGNOSTIC ?= tests/engine tests/kingdomino tests/queendomino tests/kami \
	tests/golden tests/bots \
	--ignore=tests/engine/test_leaks.py

test: lint
	$(BIN)/python -m pytest
	@if $(BIN)/python -c "import ludoteca_native._core" 2>/dev/null; then \
		echo "The core-agnostic suites again on the Python engines (LUDOTECA_CORE=python)..."; \
		LUDOTECA_CORE=python $(BIN)/python -m pytest $(CORE_AGNOSTIC); fi

bench: install
	$(BIN)/python benchmarks/engine.py

# The README's screenshots, as the browser tests take them (test-artifacts/ has every game); the
# analysis pictures from real matches analysed at each game's own budget (minutes, not seconds).
screenshots: install-test
	mkdir -p docs/screenshots
	LUDOTECA_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/web/test_layout.py -k 2p
	LUDOTECA_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/web/test_cards.py
	LUDOTECA_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/web/test_analysis.py -k "not other_games"
	LUDOTECA_SCREENSHOTS=1 $(BIN)/python -m pytest -q tests/web/test_tournament.py
	cd test-artifacts && for n in analysis-replay-en analysis-replay-es analysis-learn-en analysis-hint-en; do \
		cp $$n-desktop.png ../docs/screenshots/$$n.png; done

# Rewrite the golden playthroughs (tests/golden/*.txt) after an intended change; review the diff.
golden: install-test
	$(BIN)/python tests/golden/playthrough.py

# After an intended change to a game's view: rewrite the renderers' golden views
# (tests/webunit/golden/*.json, from the server's view builder), then redraw their DOM snapshots.
golden-views: install-test
	$(BIN)/python tests/webunit/golden.py

# After an intended change to a renderer: rewrite its DOM snapshots (tests/webunit/snapshots/);
# review the diff before committing.
snapshots: install-test
	cd tests/webunit && UPDATE_SNAPSHOTS=1 node --import ./register.mjs --test renderers.test.mjs

# Refresh the Spanish catalogs from the sources: new messages appear untranslated in es.po.
messages: install-test
	mkdir -p build
	$(BIN)/pybabel extract -k t -k nt:1,2 -k N_ --no-location --omit-header -o build/engine.pot \
		ludoteca/engine ludoteca/terminal/session.py ludoteca/cli \
		ludoteca/analysis/terminal.py ludoteca/analysis/chart.py ludoteca/tournament
	$(BIN)/pybabel update -i build/engine.pot -o ludoteca/locale/es.po -l es --no-fuzzy-matching \
		--ignore-pot-creation-date
	for dir in ludoteca/games/*/locale; do \
		game=$$(dirname $$dir); \
		$(BIN)/pybabel extract -k t -k nt:1,2 -k N_ --no-location --omit-header \
			-o build/$$(basename $$game).pot $$game && \
		$(BIN)/pybabel update -i build/$$(basename $$game).pot -o $$dir/es.po -l es \
			--no-fuzzy-matching --ignore-pot-creation-date; \
	done
	$(BIN)/pybabel extract -k t -k nt:1,2 -k N_ --no-location --omit-header -o build/server.pot \
		ludoteca/server
	$(BIN)/pybabel update -i build/server.pot -o ludoteca/server/locale/es.po -l es \
		--no-fuzzy-matching --ignore-pot-creation-date

clean:
	rm -rf $(VENV) .venv-run build native/build *.egg-info .pytest_cache .ruff_cache .hypothesis \
		tests/webunit/node_modules
