# Quick start: `make demo`, then `make test`.  Both build .venv from scratch.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test oracle lint bench clean docs

$(BIN)/variantkit: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: $(BIN)/variantkit
	$(BIN)/pip install --quiet -e '.[test,cluster]'
	touch $@

demo: $(BIN)/variantkit
	$(BIN)/python examples/demo.py

lint: $(VENV)/.test-deps
	$(BIN)/ruff check variantkit/
	$(BIN)/mypy variantkit/

test: lint docs
	$(BIN)/python -m pytest

# The documentation site (docs/ and mkdocs.yml); --strict fails on a broken link.
docs: $(VENV)/.test-deps
	$(BIN)/mkdocs build --strict --quiet --site-dir .site

# Deeper comparisons against the oracles (minutes, not part of `make test`).
oracle: $(VENV)/.test-deps
	$(BIN)/python -m pytest -m oracle

bench: $(VENV)/.test-deps
	$(BIN)/python benchmarks/perft_bench.py
	$(BIN)/python benchmarks/load_bench.py
	$(BIN)/python benchmarks/speed_bench.py

.PHONY: bench-cluster
bench-cluster: $(VENV)/.test-deps
	$(BIN)/python benchmarks/cluster_bench.py

clean:
	rm -rf $(VENV) .site .pytest_cache .mypy_cache .ruff_cache

# The browser tests (tests/test_web_browser.py) drive Debian's Chromium:
# installed here when missing (make test runs as root on CI).
.PHONY: browser
test: browser
browser:
	@command -v chromium >/dev/null 2>&1 || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-dejavu-core; }
