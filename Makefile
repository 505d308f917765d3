# Two entry points: `make demo` (the main job on the embedded SQLite store) and `make test`.
# Both create .venv in the repo root when it is missing and install the project into it.
VENV ?= .venv
PY := $(VENV)/bin/python
EXTRAS ?= dev,bench,llm,server,postgres,mcp,mem0,langchain

.PHONY: demo test lint typecheck check clean

$(VENV)/.installed: pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# torch first, pinned: this version installs the CPU build from local disk
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[$(EXTRAS)]'
	touch $@

demo: $(VENV)/.installed
	$(VENV)/bin/stateledger demo

test: $(VENV)/.installed
	$(PY) -m pytest

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check src tests

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy

check: test lint typecheck

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
