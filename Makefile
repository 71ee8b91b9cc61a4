# Quick start: `make demo`, then `make test`.  Both build .venv from scratch.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test oracle lint bench clean docs

$(BIN)/variantkit: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	$(BIN)/variantkit --version
	touch $@

# The compiled build (setup.py, docs/build.md): mypyc compiles the modules
# variantkit/compiled.py lists, again whenever one of their sources changes.
COMPILED_SOURCES := $(shell $(PYTHON) variantkit/compiled.py)
$(BIN)/variantkit: setup.py variantkit/compiled.py
$(VENV)/.test-deps: $(COMPILED_SOURCES)

$(VENV)/.test-deps: $(BIN)/variantkit
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	$(BIN)/variantkit --version
	touch $@

demo: $(BIN)/variantkit
	$(BIN)/python examples/demo.py

lint: $(VENV)/.test-deps
	$(BIN)/ruff check variantkit/
	$(BIN)/mypy variantkit/

# The whole suite on the build installed (compiled where a C compiler is
# present), on every core (pytest-xdist) but the browser and cluster tests,
# which start servers and run on their own; then the oracle and property
# tests (marker `pure_build`, tests/conftest.py) on the pure-Python build,
# those over every variant for a sample that declares every rule (the rest,
# marker `pure_in_oracle`, in `make oracle`).
# Each pass lists its slowest tests, to show what to move to `make oracle`
# when the whole stays near its 20-minute budget on two cores.
SERIAL_TESTS := tests/faces/test_web_browser.py tests/faces/test_pair_browser.py tests/analysis/test_cluster.py tests/analysis/test_cluster_faults.py tests/engine/test_gui_xboard.py
SLOWEST := --durations=15
test: lint docs
	$(BIN)/python -m pytest -n auto $(SLOWEST) $(addprefix --ignore=,$(SERIAL_TESTS))
	$(BIN)/python -m pytest $(SLOWEST) $(SERIAL_TESTS)
	VARIANTKIT_PURE=1 $(BIN)/python -m pytest -n auto $(SLOWEST) \
		-m "pure_build and not oracle and not pure_in_oracle"

# The documentation site (docs/ and mkdocs.yml); --strict fails on a broken link.
docs: $(VENV)/.test-deps
	$(BIN)/mkdocs build --strict --quiet --site-dir .site

# Deeper comparisons against the oracles (minutes, not part of `make test`):
# marker `oracle`, the deeper perft trees, the more and longer random games
# and the rest of each sweep of which `make test` keeps a quick sample; then
# on the pure build, the tests `make test` runs there for a sample only.
oracle: $(VENV)/.test-deps
	$(BIN)/python -m pytest -m oracle
	VARIANTKIT_PURE=1 $(BIN)/python -m pytest -n auto -m "pure_in_oracle and not oracle"

bench: $(VENV)/.test-deps
	$(BIN)/python benchmarks/perft_bench.py
	$(BIN)/python benchmarks/load_bench.py
	$(BIN)/python benchmarks/speed_bench.py

.PHONY: bench-cluster
bench-cluster: $(VENV)/.test-deps
	$(BIN)/python benchmarks/cluster_bench.py

clean:
	rm -rf $(VENV) .site .pytest_cache .mypy_cache .ruff_cache
	rm -rf build variantkit.egg-info variantkit__mypyc.*.so variantkit/*.so variantkit/*/*.so

# The browser tests (tests/faces/test_web_browser.py) drive Debian's Chromium:
# installed here when missing (make test runs as root on CI).
.PHONY: browser
test: browser
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-dejavu-core; }

# The match tests (tests/engine/test_match.py) and benchmarks/match_bench.py play
# Debian's Fairy-Max and MaxQi (CECP; both in the fairymax package) and
# Fairy-Stockfish (UCI and USI); tests/engine/test_gui_xboard.py runs the engine in
# Debian's XBoard under xvfb-run: installed here when missing (make test
# runs as root on CI).
.PHONY: engines bench-match
test: engines
engines:
	@{ test -x /usr/games/fairymax && test -x /usr/games/maxqi \
		&& test -x /usr/games/fairy-stockfish && test -x /usr/games/xboard \
		&& command -v xvfb-run >/dev/null 2>&1; } || { \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y fairymax \
		fairy-stockfish xboard xvfb; }

bench-match: $(VENV)/.test-deps engines
	$(BIN)/python benchmarks/match_bench.py
