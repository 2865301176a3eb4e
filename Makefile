# The two commands: `make run` and `make test`. Both build .venv when it is missing.
#
# Every install takes the versions locked in uv.lock (`uv sync --locked` refuses a
# lock that no longer matches pyproject.toml). uv itself is pinned and bootstrapped
# from PyPI into .tools/ with the machine's Python, so a fresh machine needs only
# Python 3.11+ and make. `make lock` re-locks after a change of dependencies.
PYTHON ?= python3
UV_VERSION := 0.13.9
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
# uv's project environment is ./.venv, built with this Python, never a downloaded one.
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON := $(PYTHON)
export UV_PYTHON_DOWNLOADS := never

.PHONY: install install-dev lock run test lint typecheck pytest bench clean

$(UV):
	rm -rf $(TOOLS)
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(STAMP): pyproject.toml setup.py core/yard/ai/_playout.c uv.lock | $(UV)
	$(UV) sync --locked --quiet --compile-bytecode
	rm -f $(DEV_STAMP)
	touch $@

$(DEV_STAMP): pyproject.toml setup.py core/yard/ai/_playout.c uv.lock | $(UV)
	$(UV) sync --locked --quiet --compile-bytecode --extra dev
	touch $(STAMP) $@

install: $(STAMP)

install-dev: $(DEV_STAMP)

lock: | $(UV)
	$(UV) lock

# Without tokens `make run` plays in the terminal: ARGS are `kozel play`'s
# (make run ARGS=--new, make run ARGS="--lang en --seed 7"); the game's hints name
# `make run` (KOZEL_COMMAND).
ARGS ?=
run: $(STAMP)
	KOZEL_COMMAND="make run" $(BIN)/python -m bot $(ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(DEV_STAMP)
	$(BIN)/mypy core bot adapters/postgres adapters/migrations.py adapters/sqlite/migrations adapters/storage.py adapters/sql.py adapters/web

# Two worker processes (pytest-xdist), each taking whole test files (--dist loadfile: a
# file's module fixtures are made once): the suite mostly waits on child processes,
# servers and browsers, so two workers take about half the time on a 2-core machine.
pytest: $(DEV_STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python -m bench.engine

clean:
	rm -rf $(VENV) $(TOOLS)
